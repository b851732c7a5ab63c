/**
 * /v1/webhooks end to end: the real server (CLOCK=manual, ALLOW_PRIVATE_TARGETS=true, trusting the test receiver's
 * self-signed certificate through NODE_EXTRA_CA_CERTS), real HTTPS receivers verifying every signature, events
 * appended to the server's event store by this process (as the operator CLI does), and the manual clock moved
 * through its shared file. SSRF refusals run in-process on a runtime without ALLOW_PRIVATE_TARGETS.
 */
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../infra/clock/manual.ts';
import { createSqliteEventStore } from '../../infra/eventstore/sqlite.ts';
import { inProcessApp } from '../support/app.ts';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../support/https-receiver.ts';
import { eventually } from '../support/runtime.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer, type Workspace } from '../support/server.ts';

const webhooks = suite('webhooks resource');
const SECRET = 'whsec_e2e_secret_value';
let certificate: Certificate;
let server: TestServer;
let workspace: Workspace;
let api: ApiClient;
let receiver: Receiver;
let jobs = 0;

webhooks.before(async () => {
  certificate = makeCertificate();
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z', ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: certificate.certPath } });
  workspace = await createWorkspace(server, 'Webhooks');
  api = client(server, workspace.key);
  receiver = await startReceiver(certificate, SECRET);
});
webhooks.after(async () => {
  await receiver.close();
  await server.stop();
  certificate.remove();
});

/** A TranscriptionJobCompleted of the workspace, appended to the server's store; returns the job id. */
async function transcriptionCompleted(workspaceId = workspace.workspaceId): Promise<string> {
  const jobId = `job_e2e_${++jobs}`;
  const store = createSqliteEventStore(join(server.dataDir, 'events.db'), { synchronous: 'normal' });
  const at = new Date().toISOString();
  await store.append(
    `transcription-${jobId}`,
    [{ type: 'TranscriptionJobCompleted', data: { job_id: jobId, language: 'en-IN', call_id: null, metadata: { ticket: jobs }, completed_at: at }, metadata: { workspace_id: workspaceId, actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: at, schema_version: 1 } }],
    { expectedRevision: 'no_stream' },
  );
  await store.close();
  return jobId;
}

/** Moves the server's manual clock (it reads the shared file). */
function advance(seconds: number): void {
  new ManualClock(join(server.dataDir, 'manual-clock.json')).advance(seconds);
}

const forJob = (jobId: string) => receiver.requests.filter((request) => request.body?.data?.job_id === jobId);

async function deliveries(webhookId: string, query = ''): Promise<any> {
  const response = await api.get(`/v1/webhooks/${webhookId}/deliveries${query}`);
  assert.is(response.status, 200, response.text);
  return response.body;
}

webhooks('register: 201 with id, url, events, status active, created_at and never the secret; GET and list show it', async () => {
  const created = await api.post('/v1/webhooks', { url: `${receiver.url}/a`, events: ['call.completed', 'campaign.completed'], secret: SECRET });
  assert.is(created.status, 201, created.text);
  assert.equal(Object.keys(created.body).sort(), ['created_at', 'events', 'id', 'status', 'url']);
  assert.match(created.body.id, /^wh_/);
  assert.is(created.body.status, 'active');
  assert.equal(created.body.events, ['call.completed', 'campaign.completed']);
  assert.not.match(created.text, SECRET);
  const read = await api.get(`/v1/webhooks/${created.body.id}`);
  assert.is(read.status, 200);
  assert.equal(read.body, { ...created.body, last_delivery: null, failed_deliveries: 0, retrying_deliveries: 0 });
  const listed = await api.get('/v1/webhooks');
  assert.is(listed.status, 200);
  assert.ok(listed.body.data.some((entry: { id: string }) => entry.id === created.body.id));
  assert.not.match(listed.text, SECRET);
  assert.not.match(server.output(), SECRET);
});

webhooks('register: http URLs, unknown events, * with others, missing fields are 400 with field, provided, expected', async () => {
  const plain = await api.post('/v1/webhooks', { url: 'http://example.com/hook', events: ['*'] });
  assert.is(plain.status, 400);
  assert.equal(plain.body.error.details, { field: 'url', provided: 'http://example.com/hook', expected: 'an https:// URL' });
  const unknown = await api.post('/v1/webhooks', { url: `${receiver.url}/b`, events: ['call.completed', 'call.started'] });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.details.field, 'events[1]');
  assert.is(unknown.body.error.details.provided, 'call.started');
  assert.match(unknown.body.error.details.expected, /"call.completed"/);
  const mixed = await api.post('/v1/webhooks', { url: `${receiver.url}/b`, events: ['*', 'call.completed'] });
  assert.equal(mixed.body.error.details, { field: 'events', provided: ['*', 'call.completed'], expected: '["*"] alone, or a list of event names' });
  const missing = await api.post('/v1/webhooks', { events: ['*'] });
  assert.is(missing.body.error.details.field, 'url');
  const empty = await api.post('/v1/webhooks', { url: `${receiver.url}/b`, events: [] });
  assert.is(empty.body.error.details.field, 'events');
  const secret = await api.post('/v1/webhooks', { url: `${receiver.url}/b`, events: ['*'], secret: 7 });
  assert.equal(secret.body.error.details, { field: 'secret', provided: '[redacted]', expected: 'a string' });
});

webhooks('a 21st webhook in a workspace is 409 limit_exceeded with resource_type and limit', async () => {
  const crowded = client(server, (await createWorkspace(server, 'Crowded')).key);
  for (let index = 0; index < 20; index++) {
    assert.is((await crowded.post('/v1/webhooks', { url: `${receiver.url}/n${index}`, events: ['*'] })).status, 201);
  }
  const refused = await crowded.post('/v1/webhooks', { url: `${receiver.url}/n20`, events: ['*'] });
  assert.is(refused.status, 409);
  assert.is(refused.body.error.code, 'limit_exceeded');
  assert.equal(refused.body.error.details, { resource_type: 'webhook', limit: 20 });
});

webhooks('registrations at once cannot overshoot the limit: of 6 racing for the last 2 places, 2 win', async () => {
  const racing = client(server, (await createWorkspace(server, 'Racing')).key);
  for (let index = 0; index < 18; index++) {
    assert.is((await racing.post('/v1/webhooks', { url: `${receiver.url}/r${index}`, events: ['*'] })).status, 201);
  }
  const raced = await Promise.all(Array.from({ length: 6 }, (_, index) => racing.post('/v1/webhooks', { url: `${receiver.url}/race${index}`, events: ['*'] })));
  assert.equal(raced.map((response) => response.status).sort(), [201, 201, 409, 409, 409, 409]);
  assert.is((await racing.get('/v1/webhooks?limit=100')).body.total, 20);
});

webhooks('workspace isolation: another workspace sees none of it (404, empty list)', async () => {
  const created = await api.post('/v1/webhooks', { url: `${receiver.url}/iso`, events: ['*'] });
  const other = client(server, (await createWorkspace(server, 'Other')).key);
  for (const path of [`/v1/webhooks/${created.body.id}`, `/v1/webhooks/${created.body.id}/deliveries`]) {
    const response = await other.get(path);
    assert.is(response.status, 404);
    assert.equal(response.body.error.details, { resource_type: 'webhook', id: created.body.id });
  }
  assert.is((await other.delete(`/v1/webhooks/${created.body.id}`)).status, 404);
  assert.is((await other.get('/v1/webhooks')).body.total, 0);
  await api.delete(`/v1/webhooks/${created.body.id}`);
});

webhooks('delivery log, retry on the manual clock, replay, last_delivery and counts; restart keeps the pending retry', async () => {
  receiver.respond = () => 500;
  const created = await api.post('/v1/webhooks', { url: `${receiver.url}/log`, events: ['transcription.completed'], secret: SECRET });
  const webhookId = created.body.id;
  const jobId = await transcriptionCompleted();
  await eventually(async () => (await deliveries(webhookId)).data[0]?.status === 'retrying', 10_000, 'a failed first attempt');
  const log = await deliveries(webhookId);
  assert.is(log.total, 1);
  const [delivery] = log.data;
  assert.match(delivery.id, /^dlv_/);
  assert.is(delivery.event, 'transcription.completed');
  assert.is(delivery.event_id, forJob(jobId)[0]!.body.id);
  assert.is(delivery.attempts.length, 1);
  assert.equal({ ...delivery.attempts[0], duration_ms: 0 }, { attempt: 1, kind: 'automatic', attempted_at: '2026-03-01T10:00:00.000Z', http_status: 500, error: null, duration_ms: 0, succeeded: false });
  assert.is(delivery.next_attempt_at, '2026-03-01T10:01:00.000Z');
  assert.is(forJob(jobId)[0]!.signatureValid, true);
  assert.is((await deliveries(webhookId, '?status=delivered')).total, 0);
  assert.is((await deliveries(webhookId, '?status=retrying')).total, 1);
  const badStatus = await api.get(`/v1/webhooks/${webhookId}/deliveries?status=lost`);
  assert.is(badStatus.status, 400);
  assert.is(badStatus.body.error.details.field, 'status');
  const listed = (await api.get(`/v1/webhooks/${webhookId}`)).body;
  assert.equal(listed.last_delivery, { event_id: delivery.event_id, event: 'transcription.completed', status: 'retrying', http_status: 500, attempted_at: '2026-03-01T10:00:00.000Z' });
  assert.is(listed.retrying_deliveries, 1);

  // Replay while a retry is scheduled: sent now (still failing), the schedule stays.
  const replayed = await api.post(`/v1/webhooks/${webhookId}/deliveries/${delivery.id}/replay`, {});
  assert.is(replayed.status, 202, replayed.text);
  await eventually(() => forJob(jobId).length === 2, 5_000, 'the replay');
  assert.is(forJob(jobId)[1]!.body.id, delivery.event_id);
  assert.is(forJob(jobId)[1]!.headers['x-service-delivery-attempt'], '2');
  const missing = await api.post(`/v1/webhooks/${webhookId}/deliveries/dlv_nope/replay`, {});
  assert.equal(missing.body.error.details, { resource_type: 'webhook_delivery', id: 'dlv_nope' });

  // The server restarts with the retry pending; then the clock reaches it and the receiver has recovered.
  await server.restart();
  receiver.respond = () => 200;
  advance(60);
  await eventually(() => forJob(jobId).length === 3, 10_000, 'the retry after the restart');
  await eventually(async () => (await deliveries(webhookId)).data[0]?.status === 'delivered', 5_000, 'delivered');
  const after = (await api.get(`/v1/webhooks/${webhookId}`)).body;
  assert.equal(after.last_delivery.status, 'delivered');
  assert.is(after.last_delivery.http_status, 200);
  assert.is(after.retrying_deliveries, 0);
  await api.delete(`/v1/webhooks/${webhookId}`);
});

webhooks('delete during pending retries: 200, then 404, and the retry is never sent', async () => {
  receiver.respond = () => 503;
  const webhookId = (await api.post('/v1/webhooks', { url: `${receiver.url}/gone`, events: ['*'] })).body.id;
  const jobId = await transcriptionCompleted();
  await eventually(async () => (await deliveries(webhookId)).data[0]?.status === 'retrying', 10_000, 'a scheduled retry');
  const deleted = await api.delete(`/v1/webhooks/${webhookId}`);
  assert.is(deleted.status, 200);
  assert.equal(deleted.body, { id: webhookId, deleted: true });
  assert.is((await api.get(`/v1/webhooks/${webhookId}`)).status, 404);
  assert.is((await api.delete(`/v1/webhooks/${webhookId}`)).status, 404);
  advance(3600);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.is(forJob(jobId).length, 1);
});

webhooks('a receiver answering after 11 seconds has failed the attempt (10 s limit): a retry is scheduled', async () => {
  receiver.respond = () => ({ status: 200, delayMs: 11_000 });
  const webhookId = (await api.post('/v1/webhooks', { url: `${receiver.url}/slow`, events: ['transcription.completed'] })).body.id;
  await transcriptionCompleted();
  await eventually(async () => (await deliveries(webhookId)).data[0]?.status === 'retrying', 15_000, 'the timeout');
  const attempt = (await deliveries(webhookId)).data[0].attempts[0];
  assert.is(attempt.http_status, null);
  assert.is(attempt.error, 'timeout: no response within 10 s');
  assert.ok(attempt.duration_ms >= 9_900 && attempt.duration_ms < 11_000, String(attempt.duration_ms));
  receiver.respond = () => 200;
  await api.delete(`/v1/webhooks/${webhookId}`);
});

webhooks('SSRF: loopback, private, metadata and names resolving to loopback are refused when private targets are not allowed', async () => {
  const app = await inProcessApp();
  try {
    const { key } = await app.workspace();
    for (const url of ['https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest/meta-data', 'https://localhost:8443/hook', 'https://[::1]/hook']) {
      const response = await app.app.request('/v1/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['*'] }),
      });
      const body = (await response.json()) as { error: { code: string; details: Record<string, unknown> } };
      assert.is(response.status, 400, url);
      assert.is(body.error.code, 'invalid_parameter');
      assert.is(body.error.details.field, 'url');
      assert.is(body.error.details.provided, url);
      assert.match(String(body.error.details.expected), /public addresses/);
    }
  } finally {
    await app.close();
  }
});

webhooks('SSRF: the 400 for a name resolving to a private address does not say which address (no DNS oracle)', async () => {
  const app = await inProcessApp();
  try {
    const { key } = await app.workspace();
    for (const url of ['https://localhost:8443/hook', 'https://localhost/admin']) {
      const response = await app.app.request('/v1/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['*'] }),
      });
      const text = await response.text();
      assert.is(response.status, 400, url);
      const body = JSON.parse(text) as { error: { code: string; message: string } };
      assert.is(body.error.code, 'invalid_parameter');
      assert.match(body.error.message, /is not an allowed target/);
      assert.not.match(text, /127\.0\.0\.1|::1|resolves to/, `${url}: ${text}`);
    }
  } finally {
    await app.close();
  }
});

webhooks.run();

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type TestServer } from '../support/server.ts';

const operations = suite('health, readiness, metrics, request logs');
let server: TestServer;

operations.before(async () => {
  // Info level: one JSON log line per request on stdout.
  server = await startServer({ env: { LOG_LEVEL: 'info' } });
});
operations.after(async () => server.stop());

operations('/health and /ready need no key; /ready shows the projection lag', async () => {
  const anonymous = client(server);
  const health = await anonymous.get('/health');
  // A lone node (CLUSTER unset) always leads; its name was generated once and kept in DATA_DIR/node-id.
  const nodeId = readFileSync(join(server.dataDir, 'node-id'), 'utf8').trim();
  assert.match(nodeId, /^node-[0-9a-f]{12}$/);
  assert.equal([health.status, health.body], [200, { status: 'ok', node_id: nodeId, role: 'all', leader: true }]);
  const ready = await anonymous.get('/ready');
  assert.is(ready.status, 200);
  assert.is(ready.body.status, 'ready');
  assert.is(ready.body.event_store, 'ok');
  assert.is(ready.body.max_projection_lag, 0);
  assert.ok(ready.body.projections.some((projection: { name: string }) => projection.name === 'scripts'));
});

operations('/metrics: Prometheus text with request counts by route pattern, projection lag, backlog, timers', async () => {
  const workspace = await createWorkspace(server, 'Metrics');
  const api = client(server, workspace.key);
  await api.get('/v1/scripts/scr_one');
  await api.get('/v1/scripts/scr_two');
  const metrics = await client(server).get('/metrics');
  assert.is(metrics.status, 200);
  assert.match(metrics.headers.get('content-type') ?? '', 'text/plain');
  assert.match(metrics.text, 'http_requests_total{method="GET",route="/v1/scripts/:id",status="404"} 2');
  assert.match(metrics.text, /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/scripts\/:id",status="404"\}/);
  assert.match(metrics.text, 'projection_lag_events{projection="scripts"} 0');
  assert.match(metrics.text, 'process_manager_backlog_events');
  assert.match(metrics.text, /timers_pending \d+/);
  assert.match(metrics.text, /^node_leader 1$/m, 'a lone node leads');
  assert.not.match(metrics.text, 'scr_one', 'raw paths never become labels');
});

operations('one structured log line per request, without the key', async () => {
  const workspace = await createWorkspace(server, 'Logs');
  const api = client(server, workspace.key);
  const response = await api.get('/v1/scripts?limit=5', { headers: { 'x-request-id': 'log-line-test' } });
  assert.is(response.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.includes('"log-line-test"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.is(lines.length, 1);
  const line = lines[0]!;
  assert.is(line.msg, 'request');
  assert.is(line.method, 'GET');
  assert.is(line.route, '/v1/scripts');
  assert.is(line.status, 200);
  assert.is(line.workspace_id, workspace.workspaceId);
  assert.is(line.key_id, workspace.keyId);
  assert.is(typeof line.duration_ms, 'number');
  assert.not.match(server.output(), workspace.key);
  assert.not.match(server.output(), /authorization/i);
});

operations('an API key sent as X-Request-Id is replaced, never echoed or logged', async () => {
  const workspace = await createWorkspace(server, 'Key as request id');
  const response = await client(server, workspace.key).get('/v1/scripts', { headers: { 'x-request-id': workspace.key } });
  assert.is(response.status, 200);
  assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.not.match(server.output(), workspace.key);
});

operations('the access log masks an API key sent in the path and the phone numbers of suppression paths', async () => {
  const workspace = await createWorkspace(server, 'Masked');
  const api = client(server, workspace.key);
  const inPath = await api.get(`/v1/scripts/${workspace.key}`, { headers: { 'x-request-id': 'key-in-path' } });
  assert.is(inPath.status, 401);
  const phone = await api.get(`/v1/suppressions/${encodeURIComponent('+919876543217')}`, { headers: { 'x-request-id': 'phone-in-path' } });
  assert.is(phone.status, 404);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lineOf = (id: string) => JSON.parse(server.output().split('\n').find((line) => line.includes(`"${id}"`))!) as { path: string };
  assert.is(lineOf('key-in-path').path, '/v1/scripts/[redacted]');
  assert.is(lineOf('phone-in-path').path, '/v1/suppressions/***17');
  assert.not.match(server.output(), workspace.key);
  assert.not.match(server.output(), '919876543217');
});

operations('with METRICS_TOKEN, /metrics and /ready need it as a bearer token; /health stays open', async () => {
  const token = 'metrics-token-0123456789';
  const guarded = await startServer({ env: { METRICS_TOKEN: token } });
  try {
    const anonymous = client(guarded);
    for (const path of ['/metrics', '/ready']) {
      const refused = await anonymous.get(path);
      assert.is(refused.status, 401, path);
      assert.equal(refused.body.error.code, 'unauthorized');
      assert.is((await anonymous.get(path, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status, 401);
      assert.is((await anonymous.get(path, { headers: { authorization: `Bearer ${token}` } })).status, 200, path);
    }
    assert.is((await anonymous.get('/health')).status, 200);
  } finally {
    await guarded.stop();
  }
});

operations.run();

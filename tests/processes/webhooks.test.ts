/**
 * Webhook delivery at runtime level: a real runtime (SQLite event store, read models, timers, manual clock) with
 * the webhook process managers, real HTTPS receivers on loopback, and the aggregates driven through commands
 * (campaign, call, transcription job). The certificate is trusted by setting the CA of Node's global HTTPS agent
 * in this process — the in-process stand-in for NODE_EXTRA_CA_CERTS, which the end-to-end suite uses.
 */
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../composition.ts';
import { callDecider, callStream, type CallCommand } from '../../domain/call.ts';
import { attemptCallId, campaignDecider, campaignStream, type CampaignCommand } from '../../domain/campaign.ts';
import { RETRY_DELAYS_MS, webhookDeliveryDecider, webhookDeliveryStream } from '../../domain/webhook-delivery.ts';
import { webhookDecider, webhookStream } from '../../domain/webhook.ts';
import { registerWebhookCommand } from '../../commands/register-webhook.ts';
import type { ManualClock } from '../../infra/clock/manual.ts';
import { newId } from '../../infra/ids.ts';
import { SecretBox } from '../../infra/crypto/secret-box.ts';
import { pendingTimerCount } from '../../projections/timers.ts';
import { listDeliveries, type DeliveryDocument } from '../../projections/webhook-deliveries.ts';
import { webhookProcessManagers } from '../../processes/webhooks/index.ts';
import { DELIVERY_HEADER_DESCRIPTIONS } from '../../processes/webhooks/delivery-headers.ts';
import { WebhookDeliveryBodySchema } from '../../processes/webhooks/payload-schemas.ts';
import { createCommand } from '../domain/campaign-fixtures.ts';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../support/https-receiver.ts';
import { eventually, testRuntime } from '../support/runtime.ts';
import { placeableFacts } from '../support/call-facts.ts';

const webhooks = suite('webhook delivery (runtime)');
const SECRET = 'whsec_test_0123456789';
let certificate: Certificate;

webhooks.before(() => {
  certificate = makeCertificate();
  https.globalAgent.options.ca = certificate.cert;
});
webhooks.after(() => certificate.remove());

function start(dataDir?: string) {
  const made = testRuntime({
    dataDir,
    environment: { ALLOW_PRIVATE_TARGETS: 'true' },
    processes: (runtime) => webhookProcessManagers({ ...runtime, recordingLinks: { ...runtime.recordingLinks, urlFor: (callId, blobKey) => (blobKey ? `https://recordings.test/${callId}` : null) } }),
  });
  return made;
}

const clockOf = (runtime: Runtime) => runtime.clock as ManualClock;

async function register(runtime: Runtime, workspaceId: string, url: string, events: string[], secret: string | null = SECRET): Promise<string> {
  const now = runtime.clock.now();
  const webhookId = newId('wh', now);
  const result = await runtime.commands.handle(
    webhookDecider,
    webhookStream(webhookId),
    registerWebhookCommand(runtime.secrets, { webhook_id: webhookId, workspace_id: workspaceId, url, events, secret, created_at: now.toISOString()}),
    { workspaceId, actor: 'test', now },
  );
  await runtime.projections.waitForPosition(result.position);
  return webhookId;
}

async function campaign(runtime: Runtime, workspaceId: string, command: CampaignCommand, campaignId: string) {
  const now = runtime.clock.now();
  return runtime.commands.handle(campaignDecider, campaignStream(campaignId), command, { workspaceId, actor: 'test', now });
}

async function call(runtime: Runtime, workspaceId: string, callId: string, command: CallCommand) {
  return runtime.commands.handle(callDecider, callStream(callId), command, { workspaceId, actor: 'test', now: runtime.clock.now() });
}

async function transcriptionEvent(runtime: Runtime, workspaceId: string, type: 'TranscriptionJobCompleted' | 'TranscriptionJobFailed', jobId: string) {
  const now = runtime.clock.now().toISOString();
  const data =
    type === 'TranscriptionJobCompleted'
      ? { job_id: jobId, language: 'hi-IN', call_id: null, metadata: { crm_ticket: 'T-1' }, completed_at: now, transcript: [], summary: 'ok', sentiment: null, intent: null, qa_score: null, duration_seconds: 3, features: ['transcription'] }
      : { job_id: jobId, language: 'en-IN', call_id: 'cal_x', metadata: null, attempt: 1, error: { code: 'audio_unreadable', message: 'not audio' }, failed_at: now };
  return runtime.store.append(`transcription-${jobId}`, [{ type, data, metadata: { workspace_id: workspaceId, actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: now, schema_version: 1 } }], {
    expectedRevision: 'any',
  });
}

function placeCall(callId: string, campaignId: string | null, workspaceId: string, startedAt: string): CallCommand {
  return {
    type: 'PlaceCall',
    facts: placeableFacts(),
    data: {
      call_id: callId,
      workspace_id: workspaceId,
      campaign_id: campaignId,
      contact_index: campaignId ? 0 : null,
      attempt: campaignId ? 1 : null,
      contact: { phone: '+919876500006', name: 'Asha' },
      language: 'hi-IN',
      script_id: 'scr_1',
      script_version: 1,
      variables: {},
      recording_enabled: true,
      started_at: startedAt,
    },
  };
}

async function deliveriesOf(runtime: Runtime, webhookId: string): Promise<DeliveryDocument[]> {
  await runtime.projections.catchUp();
  return listDeliveries(runtime.readDb, webhookId, undefined, 100, 0).deliveries;
}

/** Waits until the delivery's `attempts`-th attempt is recorded and its retry timer scheduled. */
async function retryScheduled(runtime: Runtime, webhookId: string, attempts: number): Promise<void> {
  await eventually(
    async () => {
      const [delivery] = await deliveriesOf(runtime, webhookId);
      return delivery?.attempts.length === attempts && delivery.next_attempt_at !== null && pendingTimerCount(runtime.readDb) === 1;
    },
    20_000,
    `attempt ${attempts} recorded and its retry scheduled`,
  );
}

webhooks('every event type, with the exact payloads, signed; a specific subscription gets only its events; * gets all', async () => {
  const { runtime, remove } = start();
  await runtime.start();
  const all = await startReceiver(certificate, SECRET);
  const some = await startReceiver(certificate, SECRET);
  const ws = 'ws_events';
  try {
    await register(runtime, ws, `${all.url}/all`, ['*']);
    await register(runtime, ws, `${some.url}/some`, ['call.escalated', 'campaign.paused']);

    const campaignId = 'cmp_webhooks_1';
    const create = createCommand({ campaign_id: campaignId, workspace_id: ws, contacts: [{ phone: '+919876500006', name: 'Asha' }], max_attempts: 1, created_at: runtime.clock.now().toISOString() });
    await campaign(runtime, ws, create, campaignId);
    const t = runtime.clock.now().toISOString();
    await campaign(runtime, ws, { type: 'StartCampaign', data: { at: t, trigger: 'manual' } }, campaignId);
    const callId = attemptCallId(campaignId, 0, 1);
    await campaign(runtime, ws, { type: 'StartContactAttempt', data: { contact_index: 0, attempt: 1, call_id: callId, at: t } }, campaignId);
    await campaign(runtime, ws, { type: 'PauseCampaign', data: { at: t } }, campaignId);
    await call(runtime, ws, callId, placeCall(callId, campaignId, ws, t));
    await call(runtime, ws, callId, {
      type: 'RecordCallResult',
      data: {
        answered_at: t,
        turns: [{ speaker: 'customer', text: 'agent please', start_seconds: 1, end_seconds: 2, intent: 'request_human' }],
        escalation: { reason: 'customer_requested_agent', escalated_at: t, summary: 'Asked for a person.' },
        disposition: 'escalated',
        duration_seconds: 12,
        ended_at: t,
        recording: { blob_key: `recordings/${callId}.wav`, duration_seconds: 12, content_type: 'audio/wav' },
      },
    } as CallCommand);
    await campaign(runtime, ws, { type: 'RecordContactAttemptOutcome', data: { contact_index: 0, call_id: callId, outcome: 'connected', disposition: 'escalated', ended_at: t } }, campaignId);
    // A single call that was not answered, and one the carrier could not carry.
    await call(runtime, ws, 'cal_unanswered', placeCall('cal_unanswered', null, ws, t));
    await call(runtime, ws, 'cal_unanswered', { type: 'EndCall', data: { disposition: 'not_reachable', duration_seconds: 0, ended_at: t } });
    await call(runtime, ws, 'cal_failed', placeCall('cal_failed', null, ws, t));
    await call(runtime, ws, 'cal_failed', { type: 'FailCall', data: { reason: 'invalid_number', ended_at: t } });
    await transcriptionEvent(runtime, ws, 'TranscriptionJobCompleted', 'job_done');
    await transcriptionEvent(runtime, ws, 'TranscriptionJobFailed', 'job_broken');

    const expected = ['campaign.started', 'campaign.paused', 'call.escalated', 'call.completed', 'call.completed', 'call.completed', 'call.disposition_set', 'call.disposition_set', 'campaign.completed', 'transcription.completed', 'transcription.failed'];
    await eventually(() => all.requests.length === expected.length, 10_000, `${expected.length} deliveries to *`);
    assert.equal(all.requests.map((request) => request.body.event).sort(), [...expected].sort());
    await eventually(() => some.requests.length === 2, 5_000, 'the two subscribed events');
    assert.equal(some.requests.map((request) => request.body.event).sort(), ['call.escalated', 'campaign.paused']);

    for (const request of [...all.requests, ...some.requests]) {
      assert.is(request.signatureValid, true, `signature of ${request.body.event}`);
      assert.is(request.headers['content-type'], 'application/json');
      assert.is(request.headers['x-service-event'], request.body.event);
      assert.is(request.headers['x-service-event-id'], request.body.id);
      assert.is(request.headers['x-service-delivery-attempt'], '1');
      assert.match(request.headers['x-service-delivery'] as string, /^dlv_/);
      assert.match(request.body.id, /^evt_/);
      assert.equal(Object.keys(request.body).sort(), ['data', 'event', 'id', 'timestamp']);
      // The published contract (the OpenAPI document's `webhooks`): every real body and header matches it exactly.
      const parsed = WebhookDeliveryBodySchema.safeParse(request.body);
      assert.ok(parsed.success, `${request.body.event} matches its published schema: ${parsed.error?.message}`);
      for (const [name, header] of Object.entries(DELIVERY_HEADER_DESCRIPTIONS)) {
        const value = request.headers[name.toLowerCase()] as string | undefined;
        if (header.required) assert.ok(value, `${name} on ${request.body.event}`);
        if (value !== undefined && header.pattern) assert.match(value, new RegExp(header.pattern), `${name} as published`);
      }
    }
    assert.equal(new Set(all.requests.map((request) => request.body.event)).size, 8, 'every event type was checked');
    // The same notification has the same envelope id for every webhook.
    assert.is(some.of('call.escalated')[0]!.body.id, all.of('call.escalated')[0]!.body.id);

    const completed = all.of('call.completed').find((request) => request.body.data.call_id === callId)!.body.data;
    assert.equal(completed, {
      call_id: callId,
      campaign_id: campaignId,
      contact: { phone: '+919876500006', name: 'Asha' },
      status: 'completed',
      disposition: 'escalated',
      duration_seconds: 12,
      language: 'hi-IN',
      started_at: t,
      ended_at: t,
      transcript_job_id: completed.transcript_job_id,
      recording_url: `https://recordings.test/${callId}`,
    });
    assert.match(completed.transcript_job_id, /^job_/);
    const unanswered = all.of('call.completed').find((request) => request.body.data.call_id === 'cal_unanswered')!.body.data;
    assert.is(unanswered.transcript_job_id, null);
    assert.is(unanswered.recording_url, null);
    assert.is(unanswered.campaign_id, null);
    const failedCall = all.of('call.completed').find((request) => request.body.data.call_id === 'cal_failed')!.body.data;
    assert.is(failedCall.status, 'failed');
    assert.is(failedCall.disposition, 'not_reachable');
    assert.not.ok(all.of('call.disposition_set').some((request) => request.body.data.call_id === 'cal_failed'), 'no disposition_set for a failed call');

    assert.equal(all.of('call.escalated')[0]!.body.data, {
      call_id: callId,
      campaign_id: campaignId,
      contact: { phone: '+919876500006', name: 'Asha' },
      escalation_reason: 'customer_requested_agent',
      escalated_at: t,
      language: 'hi-IN',
      summary: 'Asked for a person.',
      agent_id: null,
      unassigned_reason: null,
    });
    assert.equal(all.of('call.disposition_set').find((request) => request.body.data.call_id === callId)!.body.data, {
      call_id: callId,
      campaign_id: campaignId,
      contact: { phone: '+919876500006', name: 'Asha' },
      disposition: 'escalated',
      set_at: t,
    });
    const paused = all.of('campaign.paused')[0]!.body.data;
    assert.is(paused.status, 'paused');
    assert.is(paused.calls_made, 1, 'progress as of the pause');
    const done = all.of('campaign.completed')[0]!.body.data;
    assert.equal(
      { status: done.status, reason: done.reason, calls_connected: done.calls_connected, escalated: done.disposition_summary.escalated, name: done.name, total: done.total_contacts },
      { status: 'completed', reason: 'all_contacts_final', calls_connected: 1, escalated: 1, name: 'Renewals', total: 1 },
    );
    assert.is(all.of('campaign.started')[0]!.body.data.status, 'running');
    assert.equal(all.of('transcription.completed')[0]!.body.data, {
      job_id: 'job_done',
      status: 'completed',
      language: 'hi-IN',
      call_id: null,
      metadata: { crm_ticket: 'T-1' },
      completed_at: t,
    });
    assert.equal(all.of('transcription.failed')[0]!.body.data.error, { code: 'audio_unreadable', message: 'not audio' });
  } finally {
    await all.close();
    await some.close();
    await runtime.close();
    remove();
  }
});

webhooks('only webhooks registered before the event, of the same workspace, get it', async () => {
  const { runtime, remove } = start();
  await runtime.start();
  const early = await startReceiver(certificate, SECRET);
  const late = await startReceiver(certificate, SECRET);
  const other = await startReceiver(certificate, SECRET);
  try {
    await register(runtime, 'ws_a', early.url, ['transcription.completed']);
    await register(runtime, 'ws_b', other.url, ['*']);
    await transcriptionEvent(runtime, 'ws_a', 'TranscriptionJobCompleted', 'job_first');
    await register(runtime, 'ws_a', late.url, ['transcription.completed']);
    await transcriptionEvent(runtime, 'ws_a', 'TranscriptionJobCompleted', 'job_second');
    await eventually(() => early.requests.length === 2 && late.requests.length === 1, 5_000, 'deliveries');
    assert.is(late.requests[0]!.body.data.job_id, 'job_second');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.is(other.requests.length, 0, 'another workspace sees nothing');
  } finally {
    await Promise.all([early.close(), late.close(), other.close()]);
    await runtime.close();
    remove();
  }
});

webhooks('the full retry schedule on the manual clock: 1 min, 5 min, 30 min, 2 h, 8 h, abandoned after the fifth retry; a replay then delivers it', async () => {
  const { runtime, remove } = start();
  await runtime.start();
  // The receiver answers after 300 ms: the receiver has a request before the sender has its answer.
  const receiver = await startReceiver(certificate, SECRET, () => ({ status: 500, delayMs: 300 }));
  try {
    const webhookId = await register(runtime, 'ws_retry', receiver.url, ['transcription.failed']);
    await transcriptionEvent(runtime, 'ws_retry', 'TranscriptionJobFailed', 'job_retry');
    await eventually(() => receiver.requests.length === 1, 20_000, 'the first attempt');
    const first = runtime.clock.now().getTime();
    let previous = first;
    for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
      // A retry is due `delay` after its attempt ended, on the clock: the clock moves only once the attempt has
      // ended and its retry is scheduled (moved earlier, the attempt ends later and its retry is due later: this
      // step timed out in CI when the sender took its answer after the clock had moved).
      await retryScheduled(runtime, webhookId, index + 1);
      clockOf(runtime).advance(delay / 1000 - 1);
      await runtime.timers.fireDue();
      await new Promise((resolve) => setTimeout(resolve, 250));
      assert.is(receiver.requests.length, index + 1, `retry ${index + 1} not sent a second early`);
      clockOf(runtime).advance(1);
      await eventually(() => receiver.requests.length === index + 2, 20_000, `retry ${index + 1}`);
      assert.is(receiver.requests[index + 1]!.headers['x-service-delivery-attempt'], String(index + 2));
      assert.is(runtime.clock.now().getTime() - previous, delay);
      previous = runtime.clock.now().getTime();
    }
    await eventually(async () => (await deliveriesOf(runtime, webhookId))[0]?.status === 'failed', 20_000, 'abandonment');
    const [delivery] = await deliveriesOf(runtime, webhookId);
    assert.is(delivery!.attempts.length, 6);
    const times = delivery!.attempts.map((attempt) => Date.parse(attempt.attempted_at));
    assert.equal(times.slice(1).map((time, index) => time - times[index]!), [...RETRY_DELAYS_MS]);
    assert.ok(delivery!.attempts.every((attempt) => attempt.http_status === 500 && !attempt.succeeded));
    assert.is(new Set(receiver.requests.map((request) => request.body.id)).size, 1, 'one envelope id on every retry');
    assert.is(new Set(receiver.requests.map((request) => request.raw)).size, 1, 'the same bytes every time');

    // Nothing more, however long we wait.
    clockOf(runtime).advance(48 * 3600);
    await runtime.timers.fireDue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.is(receiver.requests.length, 6);

    receiver.respond = () => 200;
    await runtime.commands.handle(webhookDeliveryDecider, webhookDeliveryStream(delivery!.id), { type: 'ReplayWebhookDelivery', data: { requested_at: runtime.clock.now().toISOString() } }, { workspaceId: 'ws_retry', actor: 'test', now: runtime.clock.now() });
    await eventually(async () => (await deliveriesOf(runtime, webhookId))[0]?.status === 'delivered', 20_000, 'the replay');
    const replayed = (await deliveriesOf(runtime, webhookId))[0]!;
    assert.equal(replayed.attempts[6], { ...replayed.attempts[6]!, attempt: 7, kind: 'replay', http_status: 200, error: null, succeeded: true });
    assert.is(receiver.requests[6]!.body.id, receiver.requests[0]!.body.id);
  } finally {
    await receiver.close();
    await runtime.close();
    remove();
  }
});

webhooks('secrets are sealed at rest; a registration from before sealing (plain secret) still signs; one that cannot be opened is never sent unsigned', async () => {
  const { runtime, remove, dataDir } = start();
  await runtime.start();
  const sealed = await startReceiver(certificate, SECRET);
  const legacy = await startReceiver(certificate, 'whsec_legacy_plain');
  const unreadable = await startReceiver(certificate, SECRET);
  const ws = 'ws_sealed';
  try {
    await register(runtime, ws, sealed.url, ['transcription.completed']);
    const legacyId = newId('wh', runtime.clock.now());
    const at = runtime.clock.now().toISOString();
    await runtime.store.append(
      webhookStream(legacyId),
      [
        {
          type: 'WebhookRegistered',
          data: { webhook_id: legacyId, workspace_id: ws, url: legacy.url, events: ['transcription.completed'], secret: 'whsec_legacy_plain', created_at: at },
          metadata: { workspace_id: ws, actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: at, schema_version: 1 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const lostId = newId('wh', runtime.clock.now());
    const anotherKey = new SecretBox(Buffer.from('a key this service does not have'));
    await runtime.commands.handle(
      webhookDecider,
      webhookStream(lostId),
      registerWebhookCommand(anotherKey, { webhook_id: lostId, workspace_id: ws, url: unreadable.url, events: ['transcription.completed'], secret: SECRET, created_at: at}),
      { workspaceId: ws, actor: 'test', now: runtime.clock.now() },
    );
    await transcriptionEvent(runtime, ws, 'TranscriptionJobCompleted', 'job_sealed');
    await eventually(() => sealed.requests.length === 1 && legacy.requests.length === 1, 5_000, 'signed deliveries');
    assert.is(sealed.requests[0]!.signatureValid, true, 'signed with the opened secret');
    assert.is(legacy.requests[0]!.signatureValid, true, 'signed with the plain legacy secret');
    await eventually(async () => (await deliveriesOf(runtime, lostId))[0]?.status === 'retrying', 5_000, 'the unreadable one to fail');
    const [failed] = await deliveriesOf(runtime, lostId);
    assert.match(String(failed!.attempts[0]!.error), /cannot be opened/);
    assert.is(unreadable.requests.length, 0, 'nothing sent unsigned');
    const stored = ['events.db', 'events.db-wal'].map((file) => (existsSync(join(dataDir, file)) ? readFileSync(join(dataDir, file)).toString('latin1') : '')).join('');
    assert.ok(stored.includes('whsec_legacy_plain'), 'the raw legacy event is in the store (the check can see plain text)');
    assert.not.ok(stored.includes(SECRET), 'no sealed secret is stored readable');
  } finally {
    await Promise.all([sealed.close(), legacy.close(), unreadable.close()]);
    await runtime.close();
    remove();
  }
});

webhooks('deleting a webhook cancels its pending retry: nothing is sent afterwards', async () => {
  const { runtime, remove } = start();
  await runtime.start();
  const receiver = await startReceiver(certificate, SECRET, () => 503);
  try {
    const webhookId = await register(runtime, 'ws_delete', receiver.url, ['*']);
    await transcriptionEvent(runtime, 'ws_delete', 'TranscriptionJobCompleted', 'job_delete');
    await eventually(async () => (await deliveriesOf(runtime, webhookId))[0]?.status === 'retrying', 5_000, 'a scheduled retry');
    const now = runtime.clock.now();
    await runtime.commands.handle(webhookDecider, webhookStream(webhookId), { type: 'DeleteWebhook', data: { webhook_id: webhookId, workspace_id: 'ws_delete', deleted_at: now.toISOString() } }, { workspaceId: 'ws_delete', actor: 'test', now });
    await eventually(async () => (await deliveriesOf(runtime, webhookId))[0]?.status === 'cancelled', 5_000, 'cancellation');
    await eventually(
      () => runtime.readDb.prepare<[], { status: string }>(`SELECT status FROM timers WHERE kind = 'webhook_delivery_retry'`).get()?.status === 'cancelled',
      5_000,
      'the retry timer to be cancelled',
    );
    clockOf(runtime).advance(3600);
    await runtime.timers.fireDue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.is(receiver.requests.length, 1);
  } finally {
    await receiver.close();
    await runtime.close();
    remove();
  }
});

webhooks('restart: a pending retry survives it; an attempt cut off by the shutdown is sent again with the same attempt number', async () => {
  const first = start();
  await first.runtime.start();
  const receiver = await startReceiver(certificate, SECRET, () => 500);
  try {
    const webhookId = await register(first.runtime, 'ws_restart', receiver.url, ['transcription.completed']);
    await transcriptionEvent(first.runtime, 'ws_restart', 'TranscriptionJobCompleted', 'job_restart_1');
    await eventually(async () => (await deliveriesOf(first.runtime, webhookId))[0]?.status === 'retrying', 5_000, 'a scheduled retry');
    // A second event whose first attempt is in flight (the receiver is slow) when the process stops.
    receiver.respond = () => ({ status: 200, delayMs: 3_000 });
    await transcriptionEvent(first.runtime, 'ws_restart', 'TranscriptionJobCompleted', 'job_restart_2');
    await eventually(() => receiver.requests.length === 2, 5_000, 'the second event in flight');
    await first.runtime.close();

    receiver.respond = () => 200;
    const second = start(first.dataDir);
    await second.runtime.start();
    try {
      await eventually(() => receiver.requests.length === 3, 10_000, 'the cut-off attempt sent again');
      assert.is(receiver.requests[2]!.body.data.job_id, 'job_restart_2');
      assert.is(receiver.requests[2]!.headers['x-service-delivery-attempt'], '1');
      assert.is(receiver.requests[2]!.body.id, receiver.requests[1]!.body.id);
      clockOf(second.runtime).advance(60);
      await eventually(() => receiver.requests.length === 4, 10_000, 'the pending retry after the restart');
      assert.is(receiver.requests[3]!.body.data.job_id, 'job_restart_1');
      assert.is(receiver.requests[3]!.headers['x-service-delivery-attempt'], '2');
      await eventually(async () => (await deliveriesOf(second.runtime, webhookId)).every((delivery) => delivery.status === 'delivered'), 5_000, 'both delivered');
    } finally {
      await second.runtime.close();
    }
  } finally {
    await receiver.close();
    first.remove();
  }
});

/** A receiver that accepts connections and never says a word (not even the TLS handshake): every attempt hangs. */
async function startSilentReceiver(): Promise<{ url: string; connections: Set<Socket>; close(): Promise<void> }> {
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => connections.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    close: () =>
      new Promise((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

webhooks('workspaces take turns: 20 webhooks of one workspace whose receivers never answer hold 16 attempts, and another workspace delivers within 2 s', async () => {
  const { runtime, remove } = start();
  await runtime.start();
  const silent = await startSilentReceiver();
  const healthy = await startReceiver(certificate, SECRET);
  try {
    for (let n = 0; n < 20; n++) await register(runtime, 'ws_dead', `${silent.url}/hook-${n}`, ['transcription.completed']);
    await register(runtime, 'ws_live', healthy.url, ['transcription.completed']);
    // 80 deliveries to receivers that never answer: enough to fill all 64 slots if nothing held them back.
    for (let event = 0; event < 4; event++) await transcriptionEvent(runtime, 'ws_dead', 'TranscriptionJobCompleted', `job_dead_${event}`);
    await eventually(() => silent.connections.size >= 16, 10_000, "the dead workspace's attempts to hang");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const hanging = silent.connections.size;
    assert.is(hanging, 16, 'the dead workspace holds its cap (a quarter of the 64 slots), no more');

    const appended = Date.now();
    await transcriptionEvent(runtime, 'ws_live', 'TranscriptionJobCompleted', 'job_live');
    await eventually(() => healthy.requests.length === 1, 15_000, "the live workspace's delivery");
    const latency = healthy.requests[0]!.receivedAt - appended;
    assert.ok(latency < 2_000, `delivered ${latency} ms after the event while ${hanging} attempts hang (each up to 10 s)`);
    assert.is(silent.connections.size, 16, 'still hanging meanwhile');
  } finally {
    await runtime.close();
    await Promise.all([silent.close(), healthy.close()]);
    remove();
  }
});

webhooks.run();

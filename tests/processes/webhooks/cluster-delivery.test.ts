/**
 * Webhook deliveries in a cluster (processes/webhooks/work-queue-delivery.ts): two nodes (each its own DATA_DIR and
 * store handle) on one events file, the leader admitting attempts to the `webhooks` work queue and every node
 * making them. A real HTTPS receiver on loopback counts the attempts under way per workspace.
 */
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { registerWebhookCommand } from '../../../commands/register-webhook.ts';
import { webhookDecider, webhookStream } from '../../../domain/webhook.ts';
import { webhookDeliveryDecider, webhookDeliveryStream } from '../../../domain/webhook-delivery.ts';
import { workItemStream } from '../../../domain/work-item.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { EventStoreWorkQueue } from '../../../infra/work-queue/event-store-queue.ts';
import { deliveryAttempt } from '../../../processes/webhooks/delivery-attempt.ts';
import { deliveryWorkItemId, WEBHOOK_ITEM_ATTEMPTS, WEBHOOKS_QUEUE } from '../../../processes/webhooks/work-queue-delivery.ts';
import { newId } from '../../../infra/ids.ts';
import { listDeliveries } from '../../../projections/webhook-deliveries.ts';
import { webhookProcessManagers } from '../../../processes/webhooks/index.ts';
import { makeCertificate, startReceiver, type Certificate } from '../../support/https-receiver.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';

const SECRET = 'whsec_cluster_0123456789';
// One certificate for the file: the outbound client keeps the CA it first trusted.
let certificate: Certificate;
test.before(() => {
  certificate = makeCertificate();
  https.globalAgent.options.ca = certificate.cert;
});
test.after(() => certificate.remove());
const PER_WORKSPACE = 2;

function clusterNode(directory: string, name: string) {
  return testRuntime({
    environment: {
      CLUSTER: 'true',
      NODE_ID: name,
      EVENTSTORE_FILE: join(directory, 'events.db'),
      SECRETS_KEY: 'k'.repeat(40),
      URL_SIGNING_SECRET: 's'.repeat(40),
      LEADER_LEASE_MS: '1500',
      WORK_CLAIM_TIMEOUT_MS: '1500',
      ALLOW_PRIVATE_TARGETS: 'true',
    },
    processes: (runtime) => webhookProcessManagers(runtime, { total: 64, perWorkspace: PER_WORKSPACE, perWebhook: PER_WORKSPACE }),
  });
}

async function register(runtime: Runtime, workspaceId: string, url: string): Promise<string> {
  const now = runtime.clock.now();
  const webhookId = newId('wh', now);
  const result = await runtime.commands.handle(
    webhookDecider,
    webhookStream(webhookId),
    registerWebhookCommand(runtime.secrets, { webhook_id: webhookId, workspace_id: workspaceId, url, events: ['transcription.completed'], secret: SECRET, created_at: now.toISOString(), registered_webhooks: 0 }),
    { workspaceId, actor: 'test', now },
  );
  await runtime.projections.waitForPosition(result.position);
  return webhookId;
}

async function transcriptionCompleted(runtime: Runtime, workspaceId: string, jobId: string) {
  const now = runtime.clock.now().toISOString();
  const data = { job_id: jobId, language: 'hi-IN', call_id: null, metadata: null, completed_at: now, transcript: [], summary: 'ok', sentiment: null, intent: null, qa_score: null, duration_seconds: 3, features: ['transcription'] };
  await runtime.store.append(`transcription-${jobId}`, [{ type: 'TranscriptionJobCompleted', data, metadata: { workspace_id: workspaceId, actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: now, schema_version: 1 } }], {
    expectedRevision: 'any',
  });
}

test('two nodes deliver the leader\'s admitted attempts; the per-workspace limit holds across them and through a leader handover; every event arrives once, signed, with one event id', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cluster-webhooks-'));
  const first = clusterNode(directory, 'n1');
  const second = clusterNode(directory, 'n2');
  const underWay = new Map<string, number>();
  let most = 0;
  const receiver = await startReceiver(certificate, SECRET, (request) => {
    const workspace = request.path.slice(1);
    const now = (underWay.get(workspace) ?? 0) + 1;
    underWay.set(workspace, now);
    most = Math.max(most, now);
    setTimeout(() => underWay.set(workspace, (underWay.get(workspace) ?? 1) - 1), 250);
    return { status: 200, delayMs: 250 };
  });
  let firstClosed = false;
  try {
    await first.runtime.start();
    await eventually(() => first.runtime.node.leading(), 10_000, 'n1 leading');
    await second.runtime.start();
    const webhooks = [await register(first.runtime, 'ws_a', `${receiver.url}/ws_a`), await register(first.runtime, 'ws_b', `${receiver.url}/ws_b`)];
    const jobs = Array.from({ length: 8 }, (_, index) => `job_${index}`);
    for (const job of jobs) {
      await transcriptionCompleted(first.runtime, 'ws_a', `${job}_a`);
      await transcriptionCompleted(first.runtime, 'ws_b', `${job}_b`);
    }
    await eventually(() => receiver.requests.length >= 4, 20_000, 'the first deliveries');
    // The leader stops cleanly mid-stream: its attempts under way finish, it releases the lease, n2 leads and
    // admits the rest (its recovery finds the deliveries still due).
    await first.runtime.close();
    firstClosed = true;
    await eventually(() => second.runtime.node.leading(), 10_000, 'n2 leading');
    const jobIds = () => new Set(receiver.requests.map((request) => request.body?.data?.job_id as string));
    await eventually(() => jobIds().size === 16, 30_000, 'every event delivered');
    assert.ok(receiver.requests.every((request) => request.signatureValid === true), 'signed');
    assert.ok(most <= PER_WORKSPACE, `at most ${PER_WORKSPACE} attempts under way per workspace (saw ${most})`);
    assert.is(most, PER_WORKSPACE, 'and the limit was used');
    // A clean handover repeats nothing: the stopping node's attempts under way finish and are recorded.
    const eventIdsByJob = new Map<string, Set<string>>();
    for (const request of receiver.requests) {
      const job = request.body.data.job_id as string;
      eventIdsByJob.set(job, (eventIdsByJob.get(job) ?? new Set()).add(request.body.id as string));
    }
    assert.ok([...eventIdsByJob.values()].every((ids) => ids.size === 1), 'one event id per event');
    assert.is(receiver.requests.length, 16, 'no attempt sent twice');
    await second.runtime.projections.catchUp();
    await eventually(async () => {
      await second.runtime.projections.catchUp();
      return webhooks.every((webhookId) => listDeliveries(second.runtime.readDb, webhookId, undefined, 100, 0).deliveries.every((delivery) => delivery.status === 'delivered'));
    }, 10_000, 'every delivery recorded as delivered');
    const consumers = new Set<string>();
    for (const stream of await second.runtime.store.listStreams({ prefix: 'work-webhooks-', limit: 1_000 })) {
      for (const event of await second.runtime.store.readStream(stream.stream)) if (event.type === 'WorkClaimed') consumers.add(event.data.consumer as string);
    }
    assert.equal([...consumers].sort(), ['n1', 'n2'], 'both nodes made attempts');
  } finally {
    if (!firstClosed) await first.runtime.close();
    await second.runtime.close();
    await receiver.close();
    first.remove();
    second.remove();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a node that died mid-attempt (the request sent, nothing recorded) loses its claim; another node sends the attempt again: same attempt number and event id, recorded once', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cluster-webhooks-dead-'));
  const node = clusterNode(directory, 'n1');
  const deadStore = createSqliteEventStore(join(directory, 'events.db'));
  const dead = new EventStoreWorkQueue(deadStore, { claimTimeoutMs: 1_500, nodeId: 'n0' });
  const receiver = await startReceiver(certificate, SECRET, () => ({ status: 200, delayMs: 30_000 }));
  try {
    const { runtime } = node;
    const now = runtime.clock.now();
    const webhookId = 'wh_dead_node';
    const workspaceId = 'ws_dead';
    const context = { workspaceId, actor: 'test', now };
    await runtime.commands.handle(
      webhookDecider,
      webhookStream(webhookId),
      registerWebhookCommand(runtime.secrets, { webhook_id: webhookId, workspace_id: workspaceId, url: `${receiver.url}/dead`, events: ['*'], secret: SECRET, created_at: now.toISOString(), registered_webhooks: 0 }),
      context,
    );
    const deliveryId = 'dlv_dead_node';
    const body = JSON.stringify({ event: 'transcription.completed', id: 'evt_dead_node', timestamp: now.toISOString(), data: { job_id: 'job_dead' } });
    await runtime.commands.handle(
      webhookDeliveryDecider,
      webhookDeliveryStream(deliveryId),
      { type: 'CreateWebhookDelivery', data: { delivery_id: deliveryId, webhook_id: webhookId, workspace_id: workspaceId, event_id: 'evt_dead_node', event: 'transcription.completed', body, source_event_id: 'src', source_position: 1, created_at: now.toISOString() } },
      context,
    );
    // n0 claimed the attempt, sent it, and died before the answer: nothing recorded, its claim never extended.
    const itemId = deliveryWorkItemId(deliveryId, 1);
    await dead.enqueue(WEBHOOKS_QUEUE, { id: itemId, payload: { delivery_id: deliveryId, webhook_id: webhookId, workspace_id: workspaceId, attempt: 1 }, maxAttempts: WEBHOOK_ITEM_ATTEMPTS });
    assert.is((await dead.claim(WEBHOOKS_QUEUE, { consumer: 'n0', max: 1 })).length, 1);
    const dying = new AbortController();
    const attempt = deliveryAttempt({ commands: runtime.commands, clock: runtime.clock, logger: runtime.logger, secrets: runtime.secrets, allowPrivateTargets: true });
    const cut = attempt(deliveryId, webhookId, dying.signal);
    await eventually(() => receiver.requests.length === 1, 10_000, 'n0\'s request received');
    dying.abort();
    assert.equal(await cut, { kind: 'interrupted' });
    receiver.respond = () => 200;

    await runtime.start();
    await eventually(() => receiver.requests.length >= 2, 20_000, 'the attempt sent again by n1');
    const [first, again] = receiver.requests;
    assert.equal([again!.body.id, again!.headers['x-service-delivery-attempt'], again!.raw], [first!.body.id, first!.headers['x-service-delivery-attempt'], first!.raw], 'the same attempt, envelope id and bytes');
    assert.is(again!.signatureValid, true);
    await eventually(async () => (await runtime.commands.load(webhookDeliveryDecider, webhookDeliveryStream(deliveryId))).state.status === 'delivered', 10_000, 'recorded');
    assert.is((await runtime.commands.load(webhookDeliveryDecider, webhookDeliveryStream(deliveryId))).state.attempts, 1, 'one attempt recorded');
    const claims = (await deadStore.readStream(workItemStream(WEBHOOKS_QUEUE, itemId))).filter((event) => event.type === 'WorkClaimed').map((event) => event.data as { consumer: string; took_over: string | null });
    assert.equal(claims.map((claim) => [claim.consumer, claim.took_over]), [['n0', null], ['n1', 'n0']]);
    assert.is(receiver.requests.length, 2);
  } finally {
    await node.runtime.close();
    await dead.close();
    await deadStore.close();
    await receiver.close();
    node.remove();
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();

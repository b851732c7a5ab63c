// @run-alone
/**
 * Issue 19's end-to-end: three real nodes on one embedded event store (a DATA_DIR each) share a 1,000-contact
 * sandbox campaign through the calls queue (infra/work-queue/): the leader decides what to dial, every node carries
 * calls. The leader is killed with SIGKILL twice and a node carrying calls once; the campaign completes, every
 * contact is dialed, none twice (a call whose claim expired after its dial began is failed as interrupted, never
 * redialed). A webhook receiver on loopback, subscribed to the campaign's events, sees every one of them at least
 * once (deliveries go through the webhooks queue: any node sends them, and a killed node's are sent again). Run
 * alone: three servers and 1,000 calls take both cores.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../support/https-receiver.ts';
import { cli, client, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { waitFor } from '../support/wait-for.ts';

const queue = suite('three nodes carry one campaign through the calls queue');

const CONTACTS = 1_000;
const WEBHOOK_SECRET = 'whsec_cluster_queue_0123456789';
let sharedDirectory: string;
let certificate: Certificate;
let receiver: Receiver;
let environment: Record<string, string>;
const nodes: Array<{ name: string; server: TestServer; alive: boolean }> = [];

queue.before(async () => {
  sharedDirectory = mkdtempSync(join(tmpdir(), 'cluster-queue-'));
  certificate = makeCertificate();
  receiver = await startReceiver(certificate, WEBHOOK_SECRET);
  environment = {
    // The webhook receiver is this process, on loopback, with a self-signed certificate.
    ALLOW_PRIVATE_TARGETS: 'true',
    NODE_EXTRA_CA_CERTS: certificate.certPath,
    CLUSTER: 'true',
    EVENTSTORE_FILE: join(sharedDirectory, 'events.db'),
    SECRETS_KEY: 'cluster-test-secrets-key-0123456789abcdef',
    URL_SIGNING_SECRET: 'cluster-test-url-signing-secret-0123456789',
    SANDBOX_SPEED: '1000000',
    // Short claims and lease: a killed node's calls go to another node after 5 s, a killed leader is replaced after 3 s.
    WORK_CLAIM_TIMEOUT_MS: '5000',
    LEADER_LEASE_MS: '3000',
    LOG_LEVEL: 'warn',
  };
  for (const [name, role] of [['n1', 'all'], ['n2', 'all'], ['n3', 'worker']] as const) {
    nodes.push({ name, server: await startServer({ env: { ...environment, NODE_ID: name, NODE_ROLE: role } }), alive: true });
  }
});

queue.after(async () => {
  for (const node of nodes) await node.server.stop();
  await receiver.close();
  certificate.remove();
  rmSync(sharedDirectory, { recursive: true, force: true });
});

async function health(server: TestServer): Promise<{ node_id: string; leader: boolean } | null> {
  try {
    const response = await fetch(`${server.baseUrl}/health`);
    return response.ok ? ((await response.json()) as { node_id: string; leader: boolean }) : null;
  } catch {
    return null;
  }
}

async function leader(): Promise<string | null> {
  const answers = await Promise.all(nodes.filter((node) => node.alive).map((node) => health(node.server)));
  const leading = answers.flatMap((answer) => (answer?.leader ? [answer.node_id] : []));
  return leading.length === 1 ? leading[0]! : null;
}

/** A round-robin client over the nodes that serve the API and answer. */
function roundRobin(apis: Record<string, ApiClient>) {
  let turn = 0;
  return async <T>(call: (api: ApiClient) => Promise<T>): Promise<T> => {
    for (let tries = 0; tries < 6; tries++) {
      const node = nodes.filter((candidate) => candidate.alive && apis[candidate.name])[turn++ % 2];
      if (!node) continue;
      try {
        return await call(apis[node.name]!);
      } catch {
        // A node killed under the request: the next one.
      }
    }
    throw new Error('no API node answered');
  };
}

/** What the shared store says about calls and the calls queue, printed when the campaign does not get on. */
function diagnose(): string {
  const events = new Database(environment.EVENTSTORE_FILE!, { readonly: true });
  try {
    const count = (sql: string) => (events.prepare(sql).get() as { n: number }).n;
    const parked = events.prepare("SELECT data FROM events WHERE type = 'WorkParked' LIMIT 5").all();
    return JSON.stringify({
      placed: count("SELECT count(*) AS n FROM events WHERE type = 'CallPlaced'"),
      dialing: count("SELECT count(*) AS n FROM events WHERE type = 'CallDialingStarted'"),
      ended: count("SELECT count(*) AS n FROM events WHERE type IN ('CallEnded', 'CallFailed')"),
      enqueued: count("SELECT count(*) AS n FROM events WHERE type = 'WorkEnqueued'"),
      claimed: count("SELECT count(*) AS n FROM events WHERE type = 'WorkClaimed'"),
      acked: count("SELECT count(*) AS n FROM events WHERE type = 'WorkAcked'"),
      nacked: count("SELECT count(*) AS n FROM events WHERE type = 'WorkNacked'"),
      parked,
      outcomes: count("SELECT count(*) AS n FROM events WHERE type = 'ContactAttemptEnded'"),
      terms: count("SELECT count(*) AS n FROM events WHERE stream = 'leadership-terms'"),
    });
  } finally {
    events.close();
  }
}

async function orDiagnose<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message.slice(0, 300) : String(error)}\nstore: ${diagnose()}`);
  }
}

async function kill(name: string): Promise<void> {
  const node = nodes.find((candidate) => candidate.name === name)!;
  process.kill(node.server.pid!, 'SIGKILL');
  node.alive = false;
  await waitFor(`${name} is gone`, () => health(node.server), (answer) => answer === null, 5_000);
}

async function rejoin(name: string): Promise<void> {
  const node = nodes.find((candidate) => candidate.name === name)!;
  await node.server.restart();
  node.alive = true;
}

queue('a 1,000-contact campaign completes while the leader is killed twice and a node carrying calls once; no contact dialed twice; every subscribed event reaches the webhook', async () => {
  const created = await cli(nodes[0]!.server.dataDir, ['workspaces', 'create', '--name', 'Queue', '--json'], environment);
  assert.is(created.code, 0, created.stderr);
  const { key, workspace_id: workspaceId } = JSON.parse(created.stdout) as { key: string; workspace_id: string };
  const concurrency = await cli(nodes[0]!.server.dataDir, ['workspaces', 'set-concurrency', workspaceId, '30'], environment);
  assert.is(concurrency.code, 0, concurrency.stderr);
  const apis = { n1: client(nodes[0]!.server, key), n2: client(nodes[1]!.server, key) };
  const api = roundRobin(apis);
  await waitFor('both API nodes know the key', () => Promise.all([apis.n1.get('/v1/scripts'), apis.n2.get('/v1/scripts')]), (answers) => answers.every((r) => r.status === 200), 15_000);
  const script = await apis.n1.post('/v1/scripts', loanRenewalScript());
  assert.is(script.status, 201, script.text);
  await waitFor('n2 reads the script', () => apis.n2.get(`/v1/scripts/${script.body.id}`), (r) => r.status === 200, 15_000);
  const webhook = await apis.n2.post('/v1/webhooks', { url: `${receiver.url}/calls`, events: ['call.completed', 'campaign.started', 'campaign.completed'], secret: WEBHOOK_SECRET });
  assert.is(webhook.status, 201, webhook.text);

  const phones = Array.from({ length: CONTACTS }, (_, index) => `+91${9_600_000_000 + index * 10 + 3 + (index % 5)}`);
  const campaign = await api((client) =>
    client.post('/v1/campaigns', {
      name: 'Queue failover',
      script_id: script.body.id,
      language: 'hi-IN',
      recording_enabled: false,
      max_attempts: 1,
      contacts: phones.map((phone, index) => ({ phone, name: `Customer ${index}`, amount: 50_000, lender: 'Sahay Finance' })),
    }),
  );
  assert.is(campaign.status, 201, campaign.text);
  const id = campaign.body.id as string;
  await waitFor('both API nodes read the campaign', () => Promise.all([apis.n1.get(`/v1/campaigns/${id}`), apis.n2.get(`/v1/campaigns/${id}`)]), (answers) => answers.every((r) => r.status === 200), 15_000);
  assert.is((await api((client) => client.patch(`/v1/campaigns/${id}`, { action: 'start' }))).status, 200);
  const progress = () => api((client) => client.get(`/v1/campaigns/${id}`));

  const startedAt = Date.now();
  const killed: string[] = [];
  for (const [when, whom] of [[150, 'leader'], [400, 'leader'], [650, 'carrier']] as const) {
    await orDiagnose(waitFor(`${when} calls made`, progress, (r) => r.status === 200 && r.body.calls_made >= when, 120_000));
    const leading = await waitFor('one leader', leader, (name) => name !== null, 30_000);
    // The carrier killed is a node carrying calls that does not lead: the worker node unless it leads now.
    const victim = whom === 'leader' ? leading! : leading === 'n3' ? 'n2' : 'n3';
    await kill(victim);
    killed.push(`${whom} ${victim}`);
    if (process.env.CLUSTER_VERBOSE) console.log(`${((Date.now() - startedAt) / 1000).toFixed(1)} s: killed ${whom} ${victim} after ${when} calls`);
    if (whom === 'leader') await waitFor('another leader', leader, (name) => name !== null && name !== victim, 30_000);
    await rejoin(victim);
    if (process.env.CLUSTER_VERBOSE) console.log(`${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${victim} rejoined`);
  }
  const done = await orDiagnose(waitFor('the campaign completed', progress, (r) => r.status === 200 && r.body.status === 'completed', 300_000));
  const seconds = (Date.now() - startedAt) / 1000;
  if (process.env.CLUSTER_VERBOSE) console.log(`${CONTACTS} contacts in ${seconds.toFixed(1)} s; killed ${killed.join(', ')}`);

  const calls: Array<{ id: string; status: string; contact: { phone: string } }> = [];
  for (let offset = 0; ; offset += 100) {
    const page = await waitFor('a page of calls', () => api((client) => client.get(`/v1/calls?campaign_id=${id}&limit=100&offset=${offset}`)), (r) => r.status === 200 && r.body.total === done.body.calls_made, 30_000);
    calls.push(...page.body.data);
    if (offset + 100 >= page.body.total) break;
  }
  assert.is(calls.length, done.body.calls_made);
  const perPhone = new Map<string, number>();
  for (const call of calls) perPhone.set(call.contact.phone, (perPhone.get(call.contact.phone) ?? 0) + 1);
  assert.is(perPhone.size, CONTACTS, 'every contact dialed');
  assert.equal([...perPhone.values()].filter((count) => count > 1), [], 'no contact dialed twice');

  // Every subscribed event reached the receiver at least once, signed; a repeat (an attempt sent again by the node
  // that took over a killed node's claim) carries the same event id.
  const expectedCalls = new Set(calls.map((call) => call.id));
  const heardCalls = () => new Set(receiver.of('call.completed').filter((request) => request.body.data.campaign_id === id).map((request) => request.body.data.call_id as string));
  await waitFor('every call.completed delivered', async () => heardCalls(), (heard) => [...expectedCalls].every((callId) => heard.has(callId)), 120_000);
  for (const event of ['campaign.started', 'campaign.completed']) {
    await waitFor(`${event} delivered`, async () => receiver.of(event).filter((request) => request.body.data.campaign_id === id).length, (count) => count >= 1, 60_000);
  }
  assert.ok(receiver.requests.every((request) => request.signatureValid === true), 'every delivery signed');
  const eventIds = new Map<string, Set<string>>();
  for (const request of receiver.of('call.completed')) eventIds.set(request.body.data.call_id, (eventIds.get(request.body.data.call_id) ?? new Set()).add(request.body.id));
  assert.equal([...eventIds.values()].filter((ids) => ids.size > 1), [], 'one event id per call.completed, repeats included');
  if (process.env.CLUSTER_VERBOSE) console.log(`webhook: ${receiver.requests.length} requests for ${expectedCalls.size + 2} events`);

  // From the shared store: every call dialed at most once (one CallDialingStarted per call stream), and the calls
  // were carried by more than one node.
  const events = new Database(environment.EVENTSTORE_FILE!, { readonly: true });
  try {
    const dialedTwice = events.prepare("SELECT stream, count(*) AS n FROM events WHERE type = 'CallDialingStarted' GROUP BY stream HAVING n > 1").all();
    assert.equal(dialedTwice, [], 'no call dialed twice');
    const carriers = events
      .prepare("SELECT json_extract(data, '$.consumer') AS consumer, count(*) AS n FROM events WHERE type = 'WorkClaimed' AND json_extract(data, '$.queue') = 'calls' GROUP BY consumer")
      .all() as Array<{ consumer: string; n: number }>;
    if (process.env.CLUSTER_VERBOSE) console.log('claims per node', carriers);
    assert.ok(carriers.length >= 2, `calls carried by ${carriers.map((row) => row.consumer).join(', ')}`);
    const senders = events
      .prepare("SELECT json_extract(data, '$.consumer') AS consumer, count(*) AS n FROM events WHERE type = 'WorkClaimed' AND json_extract(data, '$.queue') = 'webhooks' GROUP BY consumer")
      .all() as Array<{ consumer: string; n: number }>;
    if (process.env.CLUSTER_VERBOSE) console.log('webhook attempts claimed per node', senders);
  } finally {
    events.close();
  }
});

queue.run();

/**
 * CLOCK=manual in a cluster: the manual time lives in the shared event store (infra/clock/event-store-manual.ts),
 * so a move made through one node is every node's time, and the leader's timers fire on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, client, startServer, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { waitFor } from '../support/wait-for.ts';

const clock = suite('two nodes on one manual clock');
const START = '2026-03-02T09:00:00.000Z';
let sharedDirectory: string;
let environment: Record<string, string>;
const servers: TestServer[] = [];

clock.before(async () => {
  sharedDirectory = mkdtempSync(join(tmpdir(), 'cluster-clock-'));
  environment = {
    CLUSTER: 'true',
    EVENTSTORE_FILE: join(sharedDirectory, 'events.db'),
    SECRETS_KEY: 'cluster-test-secrets-key-0123456789abcdef',
    URL_SIGNING_SECRET: 'cluster-test-url-signing-secret-0123456789',
    CLOCK: 'manual',
    CLOCK_START: START,
    LEADER_LEASE_MS: '3000',
  };
  servers.push(await startServer({ env: { ...environment, NODE_ID: 'n1' } }));
  // The second node's own CLOCK_START is ignored: the cluster's clock was set by the first.
  servers.push(await startServer({ env: { ...environment, NODE_ID: 'n2', NODE_ROLE: 'api', CLOCK_START: '2030-01-01T00:00:00.000Z' } }));
});

clock.after(async () => {
  for (const server of servers) await server.stop();
  rmSync(sharedDirectory, { recursive: true, force: true });
});

clock('a move through the api node is the leader\'s time too: the campaign scheduled an hour ahead starts on the leader\'s timer', async () => {
  const created = await cli(servers[0]!.dataDir, ['workspaces', 'create', '--name', 'Clock', '--json'], environment);
  assert.is(created.code, 0, created.stderr);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const [n1, n2] = servers.map((server) => client(server, key));
  await waitFor('n2 knows the key', () => n2!.get('/v1/scripts'), (r) => r.status === 200, 15_000);
  await waitFor('n1 leads', async () => (await fetch(`${servers[0]!.baseUrl}/health`)).json() as Promise<{ leader: boolean }>, (h) => h.leader, 15_000);

  const both = await Promise.all([n1!.post('/v1/sandbox/clock', { advance_seconds: 0 }), n2!.post('/v1/sandbox/clock', { advance_seconds: 0 })]);
  assert.equal(both.map((r) => r.body.now), [START, START], 'one time on both nodes');

  const script = await n2!.post('/v1/scripts', loanRenewalScript());
  assert.is(script.status, 201, script.text);
  const campaign = await n2!.post('/v1/campaigns', {
    name: 'Clock',
    script_id: script.body.id,
    language: 'hi-IN',
    recording_enabled: false,
    contacts: [{ phone: '+919840000003', name: 'Customer', amount: 50_000, lender: 'Sahay Finance' }],
    schedule: { start_time: '2026-03-02T10:00:00.000Z', timezone: 'UTC' },
  });
  assert.is(campaign.status, 201, campaign.text);
  await waitFor('n1 reads it', () => n1!.get(`/v1/campaigns/${campaign.body.id}`), (r) => r.status === 200, 15_000);

  const moved = await n2!.post('/v1/sandbox/clock', { advance_seconds: 3_600 });
  assert.is(moved.body.now, '2026-03-02T10:00:00.000Z');
  const started = await waitFor('the start timer fired on the leader', () => n2!.get(`/v1/campaigns/${campaign.body.id}`), (r) => r.body.status !== 'scheduled', 20_000);
  assert.ok(['running', 'completed'].includes(started.body.status), started.text);
  const onLeader = await waitFor('the leader sees the move', () => n1!.post('/v1/sandbox/clock', { advance_seconds: 0 }), (r) => r.body.now === '2026-03-02T10:00:00.000Z', 5_000);
  assert.is(onLeader.status, 200);
});

clock.run();

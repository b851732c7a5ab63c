import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../support/runtime.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

// A crash between a request's append and its response (FAILPOINT_KILL_AFTER_APPEND kills the server right after
// the append, before the response or its stored replay) loses nothing and creates nothing twice on retry.

const crash = suite('Idempotency-Key across a crash after the append');
let server: TestServer;
let api: ApiClient;
let scriptId: string;

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
const phones = ['+919876510003', '+919876510004', '+919876510005'];
const body = (name = 'Crash-safe') => ({ name, script_id: scriptId, language: 'en-IN', contacts: phones.map((phone, index) => ({ phone, name: `C ${index}`, amount: 100, lender: 'Sahay' })) });

crash.before(async () => {
  server = await startServer();
  const workspace = await createWorkspace(server, 'Crashy');
  api = client(server, workspace.key);
  const script = await api.post('/v1/scripts', loanRenewalScript());
  scriptId = script.body.id;
});
crash.after(async () => server.stop());

crash('a campaign created, then the server killed before answering: the retry answers that campaign, which dials each contact once', async () => {
  await server.restart({ env: { FAILPOINT_KILL_AFTER_APPEND: 'CampaignCreated' } });
  const lost = await api.post('/v1/campaigns', body(), withKey('campaign-once')).catch((error: unknown) => error);
  assert.instance(lost, Error, 'the server died before it answered');
  await server.restart({ env: { FAILPOINT_KILL_AFTER_APPEND: '' } });

  // Another request with the key the dead request began with is refused, as any reuse of a key is.
  const other = await api.post('/v1/campaigns', body('Another'), withKey('campaign-once'));
  assert.is(other.status, 409);
  assert.is(other.body.error.code, 'idempotency_key_reused');

  const retry = await api.post('/v1/campaigns', body(), withKey('campaign-once'));
  assert.is(retry.status, 201, retry.text);
  assert.is(retry.body.name, 'Crash-safe');
  const listed = await api.get('/v1/campaigns');
  assert.equal(listed.body.data.map((campaign: { id: string }) => campaign.id), [retry.body.id], 'one campaign');
  assert.is((await api.post('/v1/campaigns', body(), withKey('campaign-once'))).headers.get('idempotent-replayed'), 'true');

  assert.is((await api.patch(`/v1/campaigns/${retry.body.id}`, { action: 'start' })).status, 200);
  // Each sandbox call synthesises its prompts with the real Festival (7-11 s for these three on a quiet machine, the
  // speech thread at nice 10 on a loaded CI): a generous bound, asked twice a second, well inside the rate limit (at
  // every 20 ms the polling reached 1,000 requests a minute and the next test met the 429s).
  await eventually(async () => (await api.get(`/v1/campaigns/${retry.body.id}`)).body.status === 'completed', 90_000, 'the campaign', 500);
  const calls = (await api.get(`/v1/calls?campaign_id=${retry.body.id}&limit=100`)).body.data as Array<{ contact: { phone: string } }>;
  assert.equal(calls.map((call) => call.contact.phone).sort(), [...phones].sort(), 'each contact dialed exactly once');
});

crash('an API key created with an Idempotency-Key: the replay has no secret, and no secret is stored', async () => {
  const first = await api.post('/v1/api-keys', { name: 'ci', scope: 'Read-Only' }, withKey('key-once'));
  assert.is(first.status, 201);
  assert.match(first.body.key, /^vcs_/);
  const replay = await api.post('/v1/api-keys', { name: 'ci', scope: 'Read-Only' }, withKey('key-once'));
  assert.is(replay.status, 201);
  assert.is(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal({ ...replay.body, key: undefined }, { ...first.body, key: undefined });
  assert.is(replay.body.key, null);
  const stored = ['read.db', 'read.db-wal', 'events.db', 'events.db-wal'].map((file) => {
    try {
      return readFileSync(join(server.dataDir, file)).toString('latin1');
    } catch {
      return '';
    }
  });
  assert.ok(stored.every((bytes) => !bytes.includes(first.body.key)), 'the secret is in no database file');
});

crash('an API key created, then the server killed before answering: the retry answers that key without its secret', async () => {
  await server.restart({ env: { FAILPOINT_KILL_AFTER_APPEND: 'ApiKeyCreated' } });
  const lost = await api.post('/v1/api-keys', { name: 'lost', scope: 'Read-Only' }, withKey('key-crash')).catch((error: unknown) => error);
  assert.instance(lost, Error);
  await server.restart({ env: { FAILPOINT_KILL_AFTER_APPEND: '' } });
  const retry = await api.post('/v1/api-keys', { name: 'lost', scope: 'Read-Only' }, withKey('key-crash'));
  assert.is(retry.status, 201, retry.text);
  assert.is(retry.body.key, null, 'the secret was shown to nobody and is not stored: revoke the key and create another');
  const keys = (await api.get('/v1/api-keys?limit=100')).body.data as Array<{ id: string; name: string }>;
  assert.equal(keys.filter((key) => key.name === 'lost').map((key) => key.id), [retry.body.id]);
});

crash.run();

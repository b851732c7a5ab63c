import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../infra/clock/manual.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

const idempotency = suite('Idempotency-Key');
let server: TestServer;
let api: ApiClient;
let otherApi: ApiClient;

async function scriptCount(caller: ApiClient = api): Promise<number> {
  return (await caller.get('/v1/scripts')).body.total;
}

function withKey(key: string) {
  return { headers: { 'idempotency-key': key } };
}

idempotency.before(async () => {
  // A manual clock, moved from this process through its shared file, lets the 24-hour window pass in a test.
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z' } });
  api = client(server, (await createWorkspace(server, 'Idempotent')).key);
  otherApi = client(server, (await createWorkspace(server, 'Other')).key);
});
idempotency.after(async () => server.stop());

idempotency('a retry returns the original status and body, marked replayed, and creates nothing', async () => {
  const first = await api.post('/v1/scripts', loanRenewalScript(), withKey('create-1'));
  assert.is(first.status, 201);
  assert.is(first.headers.get('idempotent-replayed'), null);
  const before = await scriptCount();
  const retry = await api.post('/v1/scripts', loanRenewalScript(), withKey('create-1'));
  assert.is(retry.status, 201);
  assert.is(retry.text, first.text);
  assert.is(retry.headers.get('idempotent-replayed'), 'true');
  assert.ok(retry.headers.get('x-ratelimit-remaining'), 'a replay still carries the rate-limit headers');
  assert.is(await scriptCount(), before);
});

idempotency('key order and whitespace do not make a different request', async () => {
  const body = loanRenewalScript();
  const first = await api.post('/v1/scripts', body, withKey('create-order'));
  const reordered = { steps: body.steps, single_call_enabled: body.single_call_enabled, name: body.name };
  const retry = await api.request('POST', '/v1/scripts', {
    rawBody: JSON.stringify(reordered, null, 4),
    headers: { 'content-type': 'application/json', 'idempotency-key': 'create-order' },
  });
  assert.is(retry.status, 201);
  assert.is(retry.body.id, first.body.id);
});

idempotency('the same key with a different body is 409 idempotency_key_reused', async () => {
  await api.post('/v1/scripts', loanRenewalScript(), withKey('create-2'));
  const changed = { ...loanRenewalScript(), name: 'Something else' };
  const before = await scriptCount();
  const reused = await api.post('/v1/scripts', changed, withKey('create-2'));
  assert.is(reused.status, 409);
  assert.equal(reused.body, {
    error: { code: 'idempotency_key_reused', message: 'This Idempotency-Key was already used for a different request.', details: { idempotency_key: 'create-2' } },
  });
  const otherPath = await api.post('/v1/api-keys', { name: 'x', scope: 'Read-Only' }, withKey('create-2'));
  assert.is(otherPath.status, 409, 'another endpoint is another request');
  assert.is(await scriptCount(), before);
});

idempotency('keys belong to a workspace: another workspace may use the same key', async () => {
  const mine = await api.post('/v1/scripts', loanRenewalScript(), withKey('shared-name'));
  const theirs = await otherApi.post('/v1/scripts', loanRenewalScript(), withKey('shared-name'));
  assert.is(theirs.status, 201);
  assert.is(theirs.headers.get('idempotent-replayed'), null);
  assert.is.not(theirs.body.id, mine.body.id);
});

idempotency('two concurrent requests with one key create one resource', async () => {
  const before = await scriptCount();
  const responses = await Promise.all(Array.from({ length: 5 }, () => api.post('/v1/scripts', loanRenewalScript(), withKey('concurrent-1'))));
  assert.equal(responses.map((response) => response.status), [201, 201, 201, 201, 201]);
  assert.is(new Set(responses.map((response) => response.body.id)).size, 1);
  assert.is(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true').length, 4);
  assert.is(await scriptCount(), before + 1);
});

idempotency('a client error is remembered too; an invalid key is 400', async () => {
  const bad = { ...loanRenewalScript(), steps: [] };
  const first = await api.post('/v1/scripts', bad, withKey('bad-1'));
  assert.is(first.status, 400);
  const retry = await api.post('/v1/scripts', bad, withKey('bad-1'));
  assert.is(retry.status, 400);
  assert.is(retry.headers.get('idempotent-replayed'), 'true');
  // A key sent as UTF-8 bytes (as curl sends what was typed) is echoed as typed, not as Latin-1 mojibake.
  const utf8Key = await api.post('/v1/scripts', loanRenewalScript(), withKey(Buffer.from('कुंजी-1', 'utf8').toString('latin1')));
  assert.is(utf8Key.status, 400);
  assert.is(utf8Key.body.error.details.provided, 'कुंजी-1');
  for (const key of ['x'.repeat(256), 'tab\tinside', 'naïve']) {
    const refused = await api.post('/v1/scripts', loanRenewalScript(), withKey(key));
    assert.is(refused.status, 400, key);
    assert.equal(refused.body.error.details, {
      field: 'Idempotency-Key',
      provided: key.length > 256 ? `${key.slice(0, 256)}…` : key,
      expected: '1 to 255 printable ASCII characters (a UUID is recommended)',
    });
  }
});

idempotency('replays survive a restart; after 24 hours (runtime clock) the key is free again', async () => {
  const first = await api.post('/v1/scripts', loanRenewalScript(), withKey('durable-1'));
  await server.restart();
  const afterRestart = await api.post('/v1/scripts', loanRenewalScript(), withKey('durable-1'));
  assert.is(afterRestart.status, 201);
  assert.is(afterRestart.headers.get('idempotent-replayed'), 'true');
  assert.is(afterRestart.body.id, first.body.id);

  new ManualClock(join(server.dataDir, 'manual-clock.json')).advance(24 * 3600 + 1);
  const expired = await api.post('/v1/scripts', loanRenewalScript(), withKey('durable-1'));
  assert.is(expired.status, 201);
  assert.is(expired.headers.get('idempotent-replayed'), null);
  assert.is.not(expired.body.id, first.body.id);
});

idempotency.run();

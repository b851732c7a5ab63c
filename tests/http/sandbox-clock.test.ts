import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';

const clock = suite('sandbox clock');
let server: TestServer;
let admin: ApiClient;

clock.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z' } });
  admin = client(server, (await createWorkspace(server, 'Clock')).key);
});
clock.after(async () => server.stop());

clock('Admin moves the clock forward and gets the new time; the service clock stays there across a restart', async () => {
  const moved = await admin.post('/v1/sandbox/clock', { advance_seconds: 14_400 });
  assert.is(moved.status, 200, moved.text);
  assert.equal(moved.body, { now: '2026-03-01T14:00:00.000Z' });
  assert.equal((await admin.post('/v1/sandbox/clock', { advance_seconds: 0.25 })).body, { now: '2026-03-01T14:00:00.250Z' });
  assert.equal((await admin.post('/v1/sandbox/clock', { advance_seconds: 0 })).body, { now: '2026-03-01T14:00:00.250Z' });
  await server.restart();
  const script = await admin.post('/v1/scripts', { name: 'Clock', steps: [{ id: 'a', say: 'Hi', end: true }] });
  assert.is(script.body.created_at, '2026-03-01T14:00:00.250Z', 'resources are stamped with the service clock');
});

clock('the body is checked: no going back, no strings, no unknown fields', async () => {
  const expected = 'a number of seconds from 0 to 315360000';
  for (const [body, details] of [
    [{ advance_seconds: -1 }, { field: 'advance_seconds', provided: -1, expected }],
    [{ advance_seconds: 315_360_001 }, { field: 'advance_seconds', provided: 315_360_001, expected }],
    [{ advance_seconds: '60' }, { field: 'advance_seconds', provided: '60', expected: 'a number' }],
    [{}, { field: 'advance_seconds', provided: null, expected: 'a number' }],
    [{ advance_seconds: 1, minutes: 2 }, { field: 'minutes', provided: 2, expected: 'only the documented fields' }],
  ] as const) {
    const response = await admin.post('/v1/sandbox/clock', body);
    assert.is(response.status, 400, JSON.stringify(body));
    assert.equal(response.body.error.details, details);
  }
});

clock('Admin only: a Read-Write key is 403, a Read-Only key too', async () => {
  for (const scope of ['Read-Write', 'Read-Only']) {
    const created = await admin.post('/v1/api-keys', { name: scope, scope });
    const response = await client(server, created.body.key).post('/v1/sandbox/clock', { advance_seconds: 60 });
    assert.is(response.status, 403);
    assert.equal(response.body.error.details, { required_scope: 'Admin', current_scope: scope });
  }
});

clock('documented in the OpenAPI document of a manual-clock server, with the Admin scope', async () => {
  const document = await client(server).get('/v1/openapi.json');
  assert.is(document.body.paths['/v1/sandbox/clock'].post['x-required-scope'], 'Admin');
});

clock.run();

const systemClock = suite('sandbox clock on the system clock');

systemClock('the endpoint does not exist: 404 not_found like any unknown path, and is not documented', async () => {
  const plain = await startServer();
  try {
    const api = client(plain, (await createWorkspace(plain, 'System clock')).key);
    const response = await api.post('/v1/sandbox/clock', { advance_seconds: 60 });
    assert.is(response.status, 404);
    assert.equal(response.body.error, { code: 'not_found', message: response.body.error.message, details: { path: '/v1/sandbox/clock' } });
    assert.is((await client(plain).get('/v1/openapi.json')).body.paths['/v1/sandbox/clock'], undefined);
  } finally {
    await plain.stop();
  }
});

systemClock.run();

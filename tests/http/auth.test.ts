import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { inProcessApp } from '../support/app.ts';
import { cli, client, createWorkspace, setRateLimit, startServer, type ApiClient, type TestServer, type Workspace } from '../support/server.ts';

const UNAUTHORIZED = {
  error: { code: 'unauthorized', message: 'A valid API key is required: header Authorization: Bearer <key>.', details: {} },
};

/** Every (method, pattern) the app serves, read from the app itself. */
async function servedRoutes(): Promise<Array<{ method: string; path: string }>> {
  const harness = await inProcessApp();
  try {
    const seen = new Map<string, { method: string; path: string }>();
    for (const route of harness.app.routes) {
      if (route.method === 'ALL') continue;
      seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
    }
    return [...seen.values()];
  } finally {
    await harness.close();
  }
}

const auth = suite('authentication, scopes and revocation');
let server: TestServer;
let admin: Workspace;
let api: ApiClient;

async function createKey(scope: string, name = `${scope} key`): Promise<{ id: string; key: string }> {
  const response = await api.post('/v1/api-keys', { name, scope });
  assert.is(response.status, 201, response.text);
  return { id: response.body.id, key: response.body.key };
}

auth.before(async () => {
  server = await startServer();
  admin = await createWorkspace(server, 'Auth');
  api = client(server, admin.key);
});
auth.after(async () => server.stop());

auth('missing header, other schemes, malformed tokens and unknown keys: the same bare 401', async () => {
  const wellFormedUnknown = `vcs_${'a'.repeat(40)}`;
  const attempts: Array<Record<string, string>> = [
    {},
    { authorization: '' },
    { authorization: 'Bearer' },
    { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    { authorization: 'Bearer not-a-key' },
    { authorization: `Bearer ${admin.key}x` },
    { authorization: `Bearer ${wellFormedUnknown}` },
    { authorization: `Token ${admin.key}` },
  ];
  for (const headers of attempts) {
    const response = await client(server).get('/v1/scripts', { headers });
    assert.is(response.status, 401, JSON.stringify(headers));
    assert.equal(response.body, UNAUTHORIZED);
  }
  assert.is((await api.get('/v1/scripts')).status, 200);
  assert.is((await client(server).get('/v1/scripts', { headers: { authorization: `bearer ${admin.key}` } })).status, 200, 'the scheme is case-insensitive');
});

auth('a key in the URL is refused whatever else the request carries', async () => {
  for (const query of [`api_key=${admin.key}`, `key=${admin.key}`, `token=${admin.key}`, `access_token=${admin.key}`, `apikey=${admin.key}`, 'token=anything', `q=${admin.key}`]) {
    const response = await api.get(`/v1/scripts?${query}`);
    assert.is(response.status, 401, query);
    assert.equal(response.body, UNAUTHORIZED);
  }
  const post = await api.post(`/v1/scripts?api_key=${admin.key}`, { name: 'x' });
  assert.is(post.status, 401);
});

auth('a key revoked through the API fails on the very next request', async () => {
  const spare = await createKey('Read-Write');
  const spareApi = client(server, spare.key);
  assert.is((await spareApi.get('/v1/scripts')).status, 200);
  const revoked = await api.delete(`/v1/api-keys/${spare.id}`);
  assert.is(revoked.status, 200);
  const after = await spareApi.get('/v1/scripts');
  assert.is(after.status, 401);
  assert.equal(after.body, UNAUTHORIZED);
});

auth('a key revoked by the operator CLI in another process fails on the very next request', async () => {
  const spare = await createKey('Admin');
  const spareApi = client(server, spare.key);
  assert.is((await spareApi.get('/v1/api-keys')).status, 200);
  const result = await cli(server.dataDir, ['keys', 'revoke', spare.id, '--json']);
  assert.is(result.code, 0, result.stderr);
  assert.is((await spareApi.get('/v1/api-keys')).status, 401);
});

auth('under load (many requests per event-loop turn), a key revoked by the CLI fails on the very next request', async () => {
  // A workspace of its own, its limit raised: the load must not use up the other tests' rate limit.
  const busy = await createWorkspace(server, 'Busy');
  await setRateLimit(server, busy.workspaceId, 1_000_000);
  const created = await client(server, busy.key).post('/v1/api-keys', { name: 'spare', scope: 'Read-Write' });
  assert.is(created.status, 201, created.text);
  const spare = { id: created.body.id as string, key: created.body.key as string };
  const spareApi = client(server, spare.key);
  let loading = true;
  let served = 0;
  const load = Promise.all(
    Array.from({ length: 16 }, async () => {
      while (loading) {
        await spareApi.get('/v1/scripts?limit=5');
        served++;
      }
    }),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const result = await cli(server.dataDir, ['keys', 'revoke', spare.id, '--json']);
    assert.is(result.code, 0, result.stderr);
    const after = await spareApi.get('/v1/scripts');
    assert.is(after.status, 401);
  } finally {
    loading = false;
    await load;
  }
  assert.ok(served > 50, `the server was under load (${served} requests)`);
});

auth('a Read-Only key is refused with 403 on every non-GET route the app serves', async () => {
  const readOnly = client(server, (await createKey('Read-Only')).key);
  const routes = (await servedRoutes()).filter((route) => route.method !== 'GET' && route.method !== 'HEAD');
  assert.ok(routes.length >= 4, `found ${routes.length} routes`);
  for (const route of routes) {
    const path = route.path.replaceAll(/:[A-Za-z_]+/g, 'xyz_1');
    const response = await readOnly.request(route.method, path, { body: {} });
    assert.is(response.status, 403, `${route.method} ${route.path}: ${response.text}`);
    assert.is(response.body.error.code, 'forbidden');
    assert.equal(response.body.error.details.current_scope, 'Read-Only');
    assert.ok(['Read-Write', 'Admin'].includes(response.body.error.details.required_scope));
  }
  assert.is((await readOnly.get('/v1/scripts')).status, 200);
  assert.is((await readOnly.request('HEAD', '/v1/scripts')).status, 200);
});

auth('key management needs Admin: a Read-Write key gets 403 with both scopes', async () => {
  const readWrite = client(server, (await createKey('Read-Write')).key);
  for (const [method, path] of [['GET', '/v1/api-keys'], ['POST', '/v1/api-keys'], ['DELETE', `/v1/api-keys/${admin.keyId}`]] as const) {
    const response = await readWrite.request(method, path, method === 'POST' ? { body: { name: 'x', scope: 'Admin' } } : {});
    assert.is(response.status, 403);
    assert.equal(response.body.error.details, { required_scope: 'Admin', current_scope: 'Read-Write' });
  }
  const readOnly = client(server, (await createKey('Read-Only')).key);
  const listed = await readOnly.get('/v1/api-keys');
  assert.equal(listed.body.error.details, { required_scope: 'Admin', current_scope: 'Read-Only' });
  // Read-Write may write everything else.
  assert.is((await readWrite.post('/v1/scripts', { name: 'x', steps: [{ id: 'a', say: 'Hi', end: true }] })).status, 201);
});

auth('last_used_at is recorded', async () => {
  const listed = await api.get('/v1/api-keys?limit=100');
  const own = listed.body.data.find((key: { id: string }) => key.id === admin.keyId);
  assert.ok(own.last_used_at, 'the admin key has been used');
  assert.not.ok(Number.isNaN(Date.parse(own.last_used_at)));
});

auth.run();

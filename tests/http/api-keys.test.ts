import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isWellFormedApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer, type Workspace } from '../support/server.ts';

const keys = suite('API keys resource');
let server: TestServer;
let admin: Workspace;
let api: ApiClient;

keys.before(async () => {
  server = await startServer();
  admin = await createWorkspace(server, 'Keys');
  api = client(server, admin.key);
});
keys.after(async () => server.stop());

keys('create: 201 with the secret, shown once; the new key works', async () => {
  const created = await api.post('/v1/api-keys', { name: '  CRM integration ', scope: 'Read-Write' });
  assert.is(created.status, 201);
  assert.equal(Object.keys(created.body).sort(), ['created_at', 'id', 'key', 'last_used_at', 'name', 'revoked_at', 'scope']);
  assert.match(created.body.id, /^key_/);
  assert.is(created.body.name, 'CRM integration');
  assert.is(created.body.scope, 'Read-Write');
  assert.is(created.body.last_used_at, null);
  assert.is(created.body.revoked_at, null);
  assert.ok(isWellFormedApiKeySecret(created.body.key));
  assert.is((await client(server, created.body.key).get('/v1/scripts')).status, 200);
});

keys('list: the list envelope, newest first, never a secret', async () => {
  const listed = await api.get('/v1/api-keys');
  assert.is(listed.status, 200);
  assert.equal(Object.keys(listed.body).sort(), ['data', 'limit', 'offset', 'total']);
  assert.is(listed.body.limit, 20);
  assert.is(listed.body.offset, 0);
  assert.is(listed.body.total, listed.body.data.length);
  assert.ok(listed.body.total >= 2);
  for (const key of listed.body.data) {
    assert.equal(Object.keys(key).sort(), ['created_at', 'id', 'last_used_at', 'name', 'revoked_at', 'scope']);
  }
  assert.not.match(listed.text, /vcs_[0-9a-z]{40}/);
  assert.not.match(listed.text, 'secret_hash');
  assert.is(listed.body.data.at(-1).id, admin.keyId, 'the first key is the oldest');
});

keys('validation: name and scope', async () => {
  const badScope = await api.post('/v1/api-keys', { name: 'x', scope: 'Owner' });
  assert.is(badScope.status, 400);
  assert.equal(badScope.body.error.details, { field: 'scope', provided: 'Owner', expected: 'one of "Read-Only", "Read-Write", "Admin"' });
  const noName = await api.post('/v1/api-keys', { scope: 'Admin' });
  assert.equal(noName.body.error.details, { field: 'name', provided: null, expected: 'a string' });
  const blankName = await api.post('/v1/api-keys', { name: '   ', scope: 'Admin' });
  assert.equal(blankName.body.error.details, { field: 'name', provided: '   ', expected: 'a string of at least 1 character' });
  const extra = await api.post('/v1/api-keys', { name: 'x', scope: 'Admin', expires: 'never' });
  assert.equal(extra.body.error.details, { field: 'expires', provided: 'never', expected: 'only the documented fields' });
});

keys('revoke: 200 with revoked_at; again: the same record', async () => {
  const created = await api.post('/v1/api-keys', { name: 'temporary', scope: 'Read-Only' });
  const revoked = await api.delete(`/v1/api-keys/${created.body.id}`);
  assert.is(revoked.status, 200);
  assert.is(revoked.body.id, created.body.id);
  assert.ok(revoked.body.revoked_at);
  assert.is(revoked.body.key, undefined);
  const again = await api.delete(`/v1/api-keys/${created.body.id}`);
  assert.is(again.status, 200);
  assert.is(again.body.revoked_at, revoked.body.revoked_at);
});

keys('the last active Admin key cannot revoke itself (409 invalid_state)', async () => {
  const solo = await createWorkspace(server, 'Solo');
  const soloApi = client(server, solo.key);
  const refused = await soloApi.delete(`/v1/api-keys/${solo.keyId}`);
  assert.is(refused.status, 409);
  assert.equal(refused.body.error.code, 'invalid_state');
  assert.equal(refused.body.error.details, { resource_type: 'api_key', id: solo.keyId });
  assert.is((await soloApi.get('/v1/api-keys')).status, 200, 'still works');
  // With a second Admin key it may go.
  const second = await soloApi.post('/v1/api-keys', { name: 'second admin', scope: 'Admin' });
  assert.is((await soloApi.delete(`/v1/api-keys/${solo.keyId}`)).status, 200);
  assert.is((await soloApi.get('/v1/api-keys')).status, 401);
  // Now `second` is the last one.
  const secondApi = client(server, second.body.key);
  assert.is((await secondApi.delete(`/v1/api-keys/${second.body.id}`)).status, 409);
});

keys('another workspace\'s key is not found, exactly like a key that never existed', async () => {
  const other = await createWorkspace(server, 'Other');
  const foreign = await client(server, other.key).delete(`/v1/api-keys/${admin.keyId}`);
  assert.is(foreign.status, 404);
  assert.equal(foreign.body, {
    error: { code: 'resource_not_found', message: `No api_key with id ${admin.keyId}.`, details: { resource_type: 'api_key', id: admin.keyId } },
  });
  const unknown = await api.delete('/v1/api-keys/key_doesnotexist');
  assert.equal(unknown.body.error.details, { resource_type: 'api_key', id: 'key_doesnotexist' });
  const listed = await client(server, other.key).get('/v1/api-keys');
  assert.is(listed.body.total, 1, 'a workspace lists only its own keys');
  assert.is((await api.get('/v1/scripts')).status, 200, 'the foreign attempt revoked nothing');
});

keys.run();

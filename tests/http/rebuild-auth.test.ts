import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openReadModelDatabase } from '../../composition.ts';
import { createSqliteEventStore } from '../../infra/eventstore/sqlite.ts';
import { eventually } from '../support/runtime.ts';
import { cli, client, createWorkspace, startServer, type TestServer, type Workspace } from '../support/server.ts';

// Rebuilding the API-key read model never re-enables a revoked key: the CLI's rebuild replays into a separate file
// and swaps it in at once; a projection rebuilt in place (its version changed) answers 503 until it has caught up.

const rebuild = suite('read-model rebuilds and authentication');
let server: TestServer;
let workspace: Workspace;

rebuild.before(async () => {
  server = await startServer();
  workspace = await createWorkspace(server, 'Rebuilt');
});
rebuild.after(async () => server.stop());

rebuild('a key revoked 2,000 events after its creation stays refused on every request while the CLI rebuilds api_keys', async () => {
  const api = client(server, workspace.key);
  const created = await api.post('/v1/api-keys', { name: 'to revoke', scope: 'Read-Only' });
  const revoked = client(server, created.body.key);
  // Unrelated events between the key's creation and its revocation: a replay that commits in batches (1,000
  // events each) would show the key created but not yet revoked for a while.
  const store = createSqliteEventStore(join(server.dataDir, 'events.db'), { synchronous: 'normal' });
  const metadata = { workspace_id: workspace.workspaceId, actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: new Date().toISOString(), schema_version: 1 };
  await store.append('filler-1', Array.from({ length: 2_000 }, (_, index) => ({ type: 'Filler', data: { index }, metadata })), { expectedRevision: 'any' });
  await store.close();
  assert.is((await api.delete(`/v1/api-keys/${created.body.id}`)).status, 200);
  assert.is((await revoked.get('/v1/scripts')).status, 401);

  let rebuilding = true;
  const rebuilt = cli(server.dataDir, ['projections', 'rebuild', 'api_keys', '--json']).finally(() => (rebuilding = false));
  const statuses = new Map<number, number>();
  while (rebuilding) {
    const status = (await revoked.get('/v1/scripts')).status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const result = await rebuilt;
  assert.is(result.code, 0, result.stderr);
  assert.equal([...statuses.keys()], [401], `during the rebuild: ${JSON.stringify([...statuses])}`);
  assert.is((await api.get('/v1/scripts')).status, 200, 'the valid key works after the rebuild');
  assert.is((await revoked.get('/v1/scripts')).status, 401);
});

rebuild('while the key tables are rebuilt in place and behind the store, requests are 503 with Retry-After, then served again', async () => {
  const api = client(server, workspace.key);
  // What the projection runner records when a projection's version changed at start (projections/runner.ts).
  const db = openReadModelDatabase(join(server.dataDir, 'read.db'));
  try {
    db.prepare("UPDATE projection_checkpoints SET rebuilding = 1 WHERE name = 'api_keys'").run();
  } finally {
    db.close();
  }
  const refused = await api.get('/v1/scripts');
  assert.is(refused.status, 503);
  assert.is(refused.headers.get('retry-after'), '5');
  assert.equal(refused.body.error.code, 'service_unavailable');
  // The server's runner clears the flag once it has caught up with the store (at most its idle wait, 1 s).
  await eventually(async () => (await api.get('/v1/scripts')).status === 200, 5_000, 'served again');
});

rebuild.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { openReadModelDatabase } from '../../composition.ts';
import { apiKeyDecider, apiKeyStream } from '../../domain/api-key.ts';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import { findApiKeyBySecretHash } from '../../projections/api-keys.ts';
import { ReadModelCache, ReadModelVersion } from '../../projections/read-model-version.ts';
import { cli } from '../support/server.ts';
import { testRuntime } from '../support/runtime.ts';

const version = suite('read-model version: changes exactly when something was committed');
const setup = testRuntime();
const { runtime } = setup;
const readModels = new ReadModelVersion(runtime.readDb);
const context = { workspaceId: 'ws_version', actor: 'test', now: new Date() };

version.before(async () => {
  await runtime.start();
});
version.after(async () => {
  await runtime.close();
  setup.remove();
});

version('stays the same while nothing is written, reads included', () => {
  const before = readModels.current();
  runtime.readDb.prepare('SELECT count(*) FROM api_keys').get();
  assert.is(readModels.current(), before);
});

version('our projection runner applying events (a revocation through the API)', async () => {
  const now = runtime.clock.now();
  await runtime.commands.handle(workspaceDecider, workspaceStream('ws_version'), { type: 'CreateWorkspace', workspaceId: 'ws_version', name: 'V', now }, context);
  const created = await runtime.commands.handle(
    apiKeyDecider,
    apiKeyStream('key_version'),
    { type: 'CreateApiKey', keyId: 'key_version', workspaceId: 'ws_version', name: 'k', scope: 'Admin', secretHash: 'hash_version', now },
    context,
  );
  assert.ok(await runtime.projections.waitForPosition(created.position));
  const before = readModels.current();
  const revoked = await runtime.commands.handle(apiKeyDecider, apiKeyStream('key_version'), { type: 'RevokeApiKey', now }, context);
  assert.ok(await runtime.projections.waitForPosition(revoked.position));
  assert.is.not(readModels.current(), before);
  assert.is.not(findApiKeyBySecretHash(runtime.readDb, 'hash_version')?.revoked_at, null);
});

version('another connection of this process commits', () => {
  const before = readModels.current();
  const other = openReadModelDatabase(join(setup.dataDir, 'read.db'));
  try {
    other.prepare("UPDATE api_keys SET name = 'renamed' WHERE key_id = 'key_version'").run();
  } finally {
    other.close();
  }
  assert.is.not(readModels.current(), before);
});

version('the operator CLI commits from another process', async () => {
  const before = readModels.current();
  const result = await cli(setup.dataDir, ['workspaces', 'create', '--name', 'From the CLI', '--json']);
  assert.is(result.code, 0, result.stderr);
  assert.is.not(readModels.current(), before);
});

version('a projection rebuild', async () => {
  const before = readModels.current();
  await runtime.projections.rebuild('api_keys');
  assert.is.not(readModels.current(), before);
});

version('for requests: another connection\'s commit is seen from the next event-loop turn, our own at once', async () => {
  const before = readModels.forRequest();
  const other = openReadModelDatabase(join(setup.dataDir, 'read.db'));
  try {
    const renamed = other.prepare("UPDATE workspaces SET name = 'Renamed' WHERE workspace_id = 'ws_version'").run();
    assert.is(renamed.changes, 1);
  } finally {
    other.close();
  }
  assert.is(readModels.forRequest(), before, 'requests served in this turn arrived before the commit');
  assert.is.not(readModels.current(), before, 'current() still looks every time');
  await new Promise((resolve) => setImmediate(resolve));
  const nextTurn = readModels.forRequest();
  assert.is.not(nextTurn, before);
  assert.is(runtime.readDb.prepare("UPDATE workspaces SET name = 'Ours' WHERE workspace_id = 'ws_version'").run().changes, 1);
  assert.is.not(readModels.forRequest(), nextTurn, 'a write through our connection counts on the next call');
});

version('for requests: the operator CLI commits from another process', async () => {
  const before = readModels.forRequest();
  const result = await cli(setup.dataDir, ['workspaces', 'create', '--name', 'From the CLI again', '--json']);
  assert.is(result.code, 0, result.stderr);
  assert.is.not(readModels.forRequest(), before);
});

version.run();

const cache = suite('read-model cache');

cache('answers from memory at one generation, loads again at the next', () => {
  const entries = new ReadModelCache<string, number | undefined>();
  let loads = 0;
  const load = (key: string) => (loads++, key === 'missing' ? undefined : key.length);
  assert.is(entries.get(1, 'abc', load), 3);
  assert.is(entries.get(1, 'abc', load), 3);
  assert.is(entries.get(1, 'missing', load), undefined);
  assert.is(entries.get(1, 'missing', load), undefined);
  assert.is(loads, 2, 'a miss is remembered too, until the next commit');
  assert.is(entries.get(2, 'abc', () => 42), 42);
});

cache('is bounded: when full it starts over', () => {
  const entries = new ReadModelCache<number, number>(3);
  let loads = 0;
  for (let key = 0; key < 4; key++) entries.get(1, key, (value) => (loads++, value));
  entries.get(1, 3, (value) => (loads++, value));
  assert.is(loads, 4, 'the newest entry is kept');
  entries.get(1, 0, (value) => (loads++, value));
  assert.is(loads, 5, 'older ones were dropped');
});

cache.run();

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../../infra/config.ts';
import { nodeIdOf } from '../../../infra/cluster/node-id.ts';
import { createService } from '../../../http/service.ts';
import { testRuntime } from '../../support/runtime.ts';

const config = suite('cluster configuration: EVENTSTORE_FILE, CLUSTER, NODE_ID, NODE_ROLE');

const keys = { SECRETS_KEY: 'k'.repeat(32), URL_SIGNING_SECRET: 'u'.repeat(32) };

config('EVENTSTORE_FILE names the embedded store; by default it is DATA_DIR/events.db', () => {
  assert.is(loadConfig({ DATA_DIR: '/srv/node1' }).eventsPath, '/srv/node1/events.db');
  assert.is(loadConfig({ DATA_DIR: '/srv/node1', EVENTSTORE_FILE: '/srv/shared/events.db' }).eventsPath, '/srv/shared/events.db');
  assert.is(loadConfig({ EVENTSTORE_FILE: 'shared/events.db' }).eventsPath, resolve('shared/events.db'));
});

config('BLOB_DIR: DATA_DIR/blobs on a lone node; beside the shared EVENTSTORE_FILE in a cluster on the embedded store; the setting wins', () => {
  assert.is(loadConfig({ DATA_DIR: '/srv/node1' }).blobDirectory, '/srv/node1/blobs');
  assert.is(loadConfig({ DATA_DIR: '/srv/node1', EVENTSTORE_FILE: '/srv/shared/events.db' }).blobDirectory, '/srv/node1/blobs', 'a lone node keeps its own');
  assert.is(loadConfig({ DATA_DIR: '/srv/node1', EVENTSTORE_FILE: '/srv/shared/events.db', CLUSTER: 'true', ...keys }).blobDirectory, '/srv/shared/blobs');
  assert.is(loadConfig({ DATA_DIR: '/srv/node1', CLUSTER: 'true', ...keys, BLOB_DIR: '/mnt/nfs/blobs' }).blobDirectory, '/mnt/nfs/blobs');
  assert.is(loadConfig({ DATA_DIR: '/srv/node1', CLUSTER: 'true', ...keys, EVENTSTORE_URL: 'esdb://db:2113' }).blobDirectory, '/srv/node1/blobs', 'EventStoreDB: no shared file to sit beside; set BLOB_DIR');
});

config('defaults: a lone node of role all with a five-second-class lease', () => {
  const defaults = loadConfig({});
  assert.equal([defaults.CLUSTER, defaults.NODE_ROLE, defaults.NODE_ID, defaults.LEADER_LEASE_MS], [false, 'all', undefined, 6_000]);
});

config('refused: a role other than all without CLUSTER, a cluster without shared keys, a bad NODE_ID or role', () => {
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ NODE_ROLE: 'api' }, /NODE_ROLE: api needs CLUSTER=true/],
    [{ NODE_ROLE: 'worker' }, /NODE_ROLE: worker needs CLUSTER=true/],
    [{ NODE_ROLE: 'primary', CLUSTER: 'true', ...keys }, /NODE_ROLE/],
    [{ CLUSTER: 'true', URL_SIGNING_SECRET: keys.URL_SIGNING_SECRET }, /SECRETS_KEY: required when CLUSTER=true/],
    [{ CLUSTER: 'true', SECRETS_KEY: keys.SECRETS_KEY }, /URL_SIGNING_SECRET: required when CLUSTER=true/],
    [{ NODE_ID: 'node one' }, /NODE_ID/],
    [{ NODE_ID: '-x' }, /NODE_ID/],
    [{ LEADER_LEASE_MS: '500' }, /LEADER_LEASE_MS/],
  ];
  for (const [environment, pattern] of refused) assert.throws(() => loadConfig(environment), pattern, JSON.stringify(environment));
  assert.is(loadConfig({ CLUSTER: 'true', NODE_ROLE: 'worker', NODE_ID: 'worker-1.eu', ...keys }).NODE_ROLE, 'worker');
  // A cluster's manual clock lives in the event store (infra/clock/event-store-manual.ts).
  assert.is(loadConfig({ CLUSTER: 'true', ...keys, CLOCK: 'manual' }).CLOCK, 'manual');
});

config('NODE_ID: the configured one, else generated once and kept in DATA_DIR/node-id', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'node-id-'));
  try {
    assert.is(nodeIdOf(dataDir, 'n7'), 'n7');
    const generated = nodeIdOf(dataDir, undefined);
    assert.match(generated, /^node-[0-9a-f]{12}$/);
    assert.is(readFileSync(join(dataDir, 'node-id'), 'utf8').trim(), generated);
    assert.is(nodeIdOf(dataDir, undefined), generated, 'kept across restarts');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

config('a worker node answers the operations endpoints only; /health tells its role and that it does not lead before it won the lease', async () => {
  const { runtime, remove } = testRuntime({ environment: { CLOCK: 'system', CLUSTER: 'true', NODE_ROLE: 'worker', NODE_ID: 'w1', ...keys } });
  try {
    const service = createService(runtime);
    const health = await service.fetch(new Request('http://node/health'));
    assert.equal(await health.json(), { status: 'ok', node_id: 'w1', role: 'worker', leader: false });
    for (const path of ['/v1/scripts', '/', '/v1/openapi.json']) {
      const refused = await service.fetch(new Request(`http://node${path}`));
      assert.is(refused.status, 404, path);
      const body = (await refused.json()) as { error: { code: string; details: { path: string } } };
      assert.equal([body.error.code, body.error.details.path], ['not_found', path]);
    }
  } finally {
    await runtime.close();
    remove();
  }
});

config.run();

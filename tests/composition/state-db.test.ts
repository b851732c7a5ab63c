import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRuntime } from '../support/runtime.ts';

test('an older DATA_DIR: process checkpoints, dead letters and idempotency records move from read.db to state.db once', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'state-db-'));
  try {
    // What a server before state.db left in read.db.
    const old = new Database(join(dataDir, 'read.db'));
    old.exec(`CREATE TABLE process_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL);
      INSERT INTO process_checkpoints VALUES ('calling-dialer', 42), ('webhooks-fan-out', 40);
      CREATE TABLE idempotency_keys (workspace_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL, content_type TEXT NOT NULL, body TEXT NOT NULL, created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, idempotency_key));
      INSERT INTO idempotency_keys VALUES ('ws_1', 'k1', 'f', 201, 'application/json', '{}', 1);`);
    old.close();

    const first = testRuntime({ dataDir });
    const checkpoints = first.runtime.stateDb.prepare('SELECT name, position FROM process_checkpoints ORDER BY name').all();
    assert.equal(checkpoints, [
      { name: 'calling-dialer', position: 42 },
      { name: 'webhooks-fan-out', position: 40 },
    ]);
    assert.is((first.runtime.stateDb.prepare('SELECT count(*) AS n FROM idempotency_keys').get() as { n: number }).n, 1);
    assert.is(first.runtime.readDb.prepare(`SELECT name FROM sqlite_master WHERE name IN ('process_checkpoints', 'idempotency_keys')`).all().length, 0, 'gone from read.db');
    first.runtime.stateDb.prepare('UPDATE process_checkpoints SET position = 50').run();
    await first.runtime.close();

    // A second start moves nothing and keeps what moved.
    const second = testRuntime({ dataDir });
    assert.equal(second.runtime.stateDb.prepare('SELECT DISTINCT position FROM process_checkpoints').all(), [{ position: 50 }]);
    await second.runtime.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();

/**
 * Checkpoints away from the writer (infra/eventstore/wal-checkpoints.ts): with `walCheckpoints: 'elsewhere'` the
 * store's own commits never copy the WAL into the database file, and the other connection's loop does, so the WAL
 * starts again from its beginning instead of growing.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { startWalCheckpoints } from '../../../infra/eventstore/wal-checkpoints.ts';
import { event } from './contract.ts';

const test = suite('WAL checkpoints on another connection');

/** About 1.2 MB of event data per batch, about a 20,000-contact campaign's contacts. */
const contacts = Array.from({ length: 1_000 }, (_, i) => ({ phone: `+9198${String(i).padStart(8, '0')}`, name: `Contact ${i}`, amount: 1_000 + i }));

async function appendMegabytes(store: ReturnType<typeof createSqliteEventStore>, stream: string, batches: number): Promise<void> {
  for (let batch = 0; batch < batches; batch++) {
    await store.append(`${stream}-${batch}`, Array.from({ length: 20 }, () => event('ContactsAdded', { contacts })), { expectedRevision: 'no_stream' });
  }
}

const walBytes = (path: string): number => statSync(`${path}-wal`).size;

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('inline: the store checkpoints in its commits, so its WAL stays near the 1,000-page threshold', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'wal-inline-'));
  const path = join(directory, 'events.db');
  const store = createSqliteEventStore(path, { synchronous: 'normal' });
  try {
    await appendMegabytes(store, 'inline', 8);
    assert.ok(walBytes(path) < 6 * 1024 * 1024, `the WAL is ${walBytes(path)} bytes`);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('elsewhere: the store\'s commits leave the WAL whole, and the loop on another connection checkpoints it', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'wal-elsewhere-'));
  const path = join(directory, 'events.db');
  const store = createSqliteEventStore(path, { synchronous: 'normal', walCheckpoints: 'elsewhere' });
  try {
    await appendMegabytes(store, 'first', 8);
    const grown = walBytes(path);
    assert.ok(grown > 9 * 1024 * 1024, `no checkpoint in the writer's commits: the WAL holds all ${grown} bytes`);

    const checkpoints = startWalCheckpoints(path, { everyMs: 20 });
    try {
      await until(() => checkpoints.stats.framesCheckpointed >= Math.floor(grown / 4_200));
      // Every frame is in the database file: the next commit writes the WAL from its beginning again.
      await appendMegabytes(store, 'second', 8);
      assert.ok(walBytes(path) <= grown + 64 * 1024, `the WAL was reused (${walBytes(path)} bytes), not grown`);
      const events = await store.readAll({ after: 0, limit: 1_000 });
      assert.is(events.length, 320);
    } finally {
      checkpoints.stop();
    }
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();

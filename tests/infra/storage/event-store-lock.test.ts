// Servers sharing one EVENTSTORE_FILE: cluster nodes share it; a lone server (CLUSTER=false) has it to itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreFileInUse, lockEventStoreFile } from '../../../infra/storage/event-store-lock.ts';

test('cluster nodes share the store file; a lone server is refused beside them, and they beside it', () => {
  const directory = mkdtempSync(join(tmpdir(), 'store-lock-'));
  const events = join(directory, 'shared', 'events.db');
  try {
    const nodeOne = lockEventStoreFile(events, 'shared');
    const nodeTwo = lockEventStoreFile(events, 'shared');
    assert.throws(() => lockEventStoreFile(events, 'exclusive'), (error: unknown) => error instanceof EventStoreFileInUse && error.message.includes('need CLUSTER=true'));
    nodeOne.release();
    assert.throws(() => lockEventStoreFile(events, 'exclusive'), (error: unknown) => error instanceof EventStoreFileInUse, 'one node still runs');
    nodeTwo.release();
    const lone = lockEventStoreFile(events, 'exclusive');
    assert.throws(() => lockEventStoreFile(events, 'shared'), (error: unknown) => error instanceof EventStoreFileInUse && error.message.includes('without CLUSTER=true'));
    assert.throws(() => lockEventStoreFile(events, 'exclusive'), (error: unknown) => error instanceof EventStoreFileInUse);
    lone.release();
    lockEventStoreFile(events, 'shared').release();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { EventStoreWorkQueue } from '../../../infra/work-queue/event-store-queue.ts';
import { sqliteIndexStart } from '../../../infra/work-queue/sqlite-index-start.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineWorkQueueContract } from './contract.ts';

// Each node its own store handle on one file (as cluster nodes are) and its own queue index; one moved clock.
defineWorkQueueContract('embedded (claims as events on the shared sqlite store)', async ({ claimTimeoutMs }) => {
  const directory = mkdtempSync(join(tmpdir(), 'work-queue-'));
  const path = join(directory, 'events.db');
  let now = Date.parse('2026-03-01T10:00:00Z');
  const stores: Array<ReturnType<typeof createSqliteEventStore>> = [];
  const nodes = new Map<string, EventStoreWorkQueue>();
  return {
    node(name) {
      let queue = nodes.get(name);
      if (!queue) {
        const store = createSqliteEventStore(path);
        stores.push(store);
        nodes.set(name, (queue = new EventStoreWorkQueue(store, { claimTimeoutMs, now: () => now, nodeId: name })));
      }
      return queue;
    },
    async elapse(ms) {
      now += ms;
    },
    async cleanup() {
      for (const queue of nodes.values()) await queue.close();
      for (const store of stores) await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

const restart = suite('embedded work queue: a restarted node reads from its saved start mark');

restart('the mark stays at the oldest unfinished item; a queue opened from it still sees that item and not the finished ones', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'work-queue-mark-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const state = new Database(join(directory, 'state.db'));
  try {
    const first = new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'a', indexStart: sqliteIndexStart(state) });
    for (const id of ['c1', 'c2', 'c3']) await first.enqueue('calls', { id, payload: { id } });
    const claimed = await first.claim('calls', { consumer: 'a', max: 3 });
    const byId = new Map(claimed.map((item) => [item.id, item]));
    await first.ack(byId.get('c1')!);
    await first.ack(byId.get('c3')!);
    await first.unfinished('calls');
    const mark = sqliteIndexStart(state).load();
    const [c2Enqueued] = await store.readStream('work-calls-c2');
    assert.is(mark, c2Enqueued!.position - 1, 'just before the oldest unfinished item');

    const restarted = new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'a2', indexStart: sqliteIndexStart(state), now: () => Date.now() + 5_000 });
    assert.is(await restarted.unfinished('calls'), 1);
    const [takenOver] = await restarted.claim('calls', { consumer: 'a2', max: 3 });
    assert.equal([takenOver?.id, takenOver?.attempt, takenOver?.tookOverFrom], ['c2', 2, 'a']);
  } finally {
    state.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

restart('an item parked before a node\'s start mark and requeued is claimable on that node (the requeue event carries the whole item)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'work-queue-requeue-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const state = new Database(join(directory, 'state.db'));
  try {
    const first = new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'a', indexStart: sqliteIndexStart(state) });
    await first.enqueue('jobs', { id: 'p1', payload: { job_id: 'p1' }, maxAttempts: 1 });
    const [claimed] = await first.claim('jobs', { consumer: 'a', max: 1 });
    await first.park(claimed!, 'unreadable');
    await first.unfinished('jobs');
    const restarted = new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'a2', indexStart: sqliteIndexStart(state) });
    assert.equal(await restarted.parked('jobs'), [], 'parked before the mark: not indexed');
    await new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: 'cli' }).requeue('jobs', 'p1', 'operator');
    const [again] = await restarted.claim('jobs', { consumer: 'a2', max: 1 });
    assert.equal([again?.id, again?.payload, again?.attempt], ['p1', { job_id: 'p1' }, 1]);
  } finally {
    state.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

restart.run();

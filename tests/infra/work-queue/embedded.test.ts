import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { EventStoreWorkQueue } from '../../../infra/work-queue/event-store-queue.ts';
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

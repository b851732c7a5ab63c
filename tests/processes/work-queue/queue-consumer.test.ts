import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { createLogger } from '../../../infra/logger.ts';
import { EventStoreWorkQueue } from '../../../infra/work-queue/event-store-queue.ts';
import { QueueConsumer } from '../../../processes/work-queue/queue-consumer.ts';
import { waitFor } from '../../support/wait-for.ts';

// Two consumers (two nodes: each its own store handle and queue index) on one store file, real time, short claims.
function twoNodes() {
  const directory = mkdtempSync(join(tmpdir(), 'queue-consumer-'));
  const path = join(directory, 'events.db');
  const stores = [createSqliteEventStore(path), createSqliteEventStore(path)];
  const queues = stores.map((store, index) => new EventStoreWorkQueue(store, { claimTimeoutMs: 1_000, nodeId: `n${index}` }));
  return {
    queues,
    async close() {
      for (const store of stores) await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

const logger = createLogger('silent');

test('a handler slower than the claim timeout keeps its item (the claim is extended); a failing one is retried on a node; every item done once', async () => {
  const { queues, close } = twoNodes();
  const done: string[] = [];
  let failures = 0;
  const handler = (node: string) => async (item: { id: string; attempt: number }) => {
    if (item.id === 'slow') await new Promise((resolve) => setTimeout(resolve, 2_500));
    if (item.id === 'flaky' && item.attempt === 1) {
      failures++;
      throw new Error('the speech engine is busy');
    }
    done.push(`${item.id}@${node}`);
    return { kind: 'ack' as const };
  };
  const consumers = queues.map((queue, index) => new QueueConsumer({ queue, logger }, { queue: 'jobs', consumer: `n${index}`, concurrency: 2, idleWaitMs: 100 }, handler(`n${index}`)));
  try {
    for (const consumer of consumers) consumer.start();
    for (const id of ['slow', 'flaky', 'a', 'b', 'c']) await queues[0]!.enqueue('jobs', { id, payload: {} });
    await waitFor('every item done', async () => done.length, (count) => count >= 5, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(done.map((entry) => entry.split('@')[0]).sort(), ['a', 'b', 'c', 'flaky', 'slow'], 'each once: the slow one was not taken over');
    assert.is(failures, 1);
    assert.is(await queues[1]!.unfinished('jobs'), 0);
  } finally {
    for (const consumer of consumers) await consumer.stop();
    await close();
  }
});

test('stop waits for the items in flight and their acknowledgement; a node that stopped claiming leaves new items to the others', async () => {
  const { queues, close } = twoNodes();
  const done: string[] = [];
  const slowHandler = (node: string) => async (item: { id: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    done.push(`${item.id}@${node}`);
    return { kind: 'ack' as const };
  };
  const [first, second] = queues.map((queue, index) => new QueueConsumer({ queue, logger }, { queue: 'jobs', consumer: `n${index}`, concurrency: 1, idleWaitMs: 100 }, slowHandler(`n${index}`)));
  try {
    first!.start();
    await queues[0]!.enqueue('jobs', { id: 'x', payload: {} });
    await waitFor('x claimed', async () => first!.busy, (busy) => busy === 1, 5_000);
    await first!.stop();
    assert.equal(done, ['x@n0']);
    assert.is(await queues[0]!.unfinished('jobs'), 0, 'acknowledged before stop returned');
    await queues[0]!.enqueue('jobs', { id: 'y', payload: {} });
    second!.start();
    await waitFor('y done', async () => done.length, (count) => count === 2, 5_000);
    assert.equal(done, ['x@n0', 'y@n1']);
  } finally {
    await second!.stop();
    await close();
  }
});

test.run();

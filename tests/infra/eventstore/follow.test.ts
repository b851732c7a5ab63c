import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FILTERED_SCAN_WINDOW, followAllBatches } from '../../../infra/eventstore/follow.ts';
import type { EventStore, RecordedEvent } from '../../../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { event } from './contract.ts';

// A follower of a few types (a process manager) reads only those, in bounded windows, and still sees each once,
// in order, then waits for more instead of spinning over the events it skips.

interface Batch {
  types: string[];
  scannedTo: number;
}

function follow(store: EventStore, types: ReadonlySet<string>, after = 0) {
  const batches: Batch[] = [];
  const controller = new AbortController();
  let reads = 0;
  const counted: EventStore = { ...store, readAll: (options) => (reads++, store.readAll(options)) };
  const done = followAllBatches(counted, after, (events: RecordedEvent[], scannedTo) => void batches.push({ types: events.map((e) => String(e.data.n)), scannedTo }), controller.signal, 100, types);
  return { batches, reads: () => reads, stop: async () => (controller.abort(), await done) };
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('a filtered follower gets only its types, once and in order, catching up in windows and then live', async () => {
  const store = createSqliteEventStore(':memory:');
  await store.append('a', [event('Wanted', { n: 1 })], { expectedRevision: 'any' });
  // More than two windows of events it does not handle.
  const others = Array.from({ length: 2.5 * FILTERED_SCAN_WINDOW }, (_, index) => event('Other', { index }));
  for (let start = 0; start < others.length; start += 5_000) await store.append('b', others.slice(start, start + 5_000), { expectedRevision: 'any' });
  await store.append('a', [event('Wanted', { n: 2 })], { expectedRevision: 'any' });
  const head = await store.headPosition();

  const follower = follow(store, new Set(['Wanted']));
  await until(() => follower.batches.at(-1)?.scannedTo === head);
  assert.equal(follower.batches.flatMap((batch) => batch.types), ['1', '2']);
  const steps = follower.batches.map((batch, index) => batch.scannedTo - (index === 0 ? 0 : follower.batches[index - 1]!.scannedTo));
  assert.ok(steps.every((step) => step > 0 && step <= FILTERED_SCAN_WINDOW), `windows of at most ${FILTERED_SCAN_WINDOW}: ${steps.join(', ')}`);

  // Idle: it waits for appends instead of reading again and again.
  const readsBefore = follower.reads();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(follower.reads() - readsBefore <= 1, `${follower.reads() - readsBefore} reads while nothing was appended`);

  await store.append('b', [event('Other', {})], { expectedRevision: 'any' });
  await store.append('a', [event('Wanted', { n: 3 })], { expectedRevision: 'any' });
  await until(() => follower.batches.flatMap((batch) => batch.types).length === 3);
  assert.equal(follower.batches.flatMap((batch) => batch.types), ['1', '2', '3']);
  assert.is(follower.batches.at(-1)!.scannedTo, await store.headPosition());
  await follower.stop();
  await store.close();
});

test('a full batch ends at its last event: the rest of the window is read next, nothing skipped', async () => {
  const store = createSqliteEventStore(':memory:');
  await store.append('a', Array.from({ length: 250 }, (_, n) => event('Wanted', { n })), { expectedRevision: 'any' });
  await store.append('b', [event('Other', {})], { expectedRevision: 'any' });
  const follower = follow(store, new Set(['Wanted']));
  await until(() => follower.batches.at(-1)?.scannedTo === 251);
  assert.equal(follower.batches.flatMap((batch) => batch.types), Array.from({ length: 250 }, (_, n) => String(n)));
  assert.equal(follower.batches.map((batch) => batch.scannedTo), [100, 200, 251]);
  await follower.stop();
  await store.close();
});

test('resuming from a position reads only what follows it', async () => {
  const store = createSqliteEventStore(':memory:');
  const first = await store.append('a', [event('Wanted', { n: 1 }), event('Other', {}), event('Wanted', { n: 2 })], { expectedRevision: 'any' });
  const follower = follow(store, new Set(['Wanted']), first.position - 1);
  await until(() => follower.batches.at(-1)?.scannedTo === first.position);
  assert.equal(follower.batches.flatMap((batch) => batch.types), ['2']);
  await follower.stop();
  await store.close();
});

test.run();

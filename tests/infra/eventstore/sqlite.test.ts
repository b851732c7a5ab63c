import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, take, toArray, timeout } from 'rxjs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WrongExpectedVersion } from '../../../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { defineEventStoreContract, event } from './contract.ts';

defineEventStoreContract('sqlite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-contract-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

const WRITER = `
import { createSqliteEventStore } from './infra/eventstore/sqlite.ts';
const store = createSqliteEventStore(process.argv[1]);
const metadata = { workspace_id: null, actor: 'child', correlation_id: 'c', causation_id: null, occurred_at: new Date().toISOString(), schema_version: 1 };
for (let index = 0; index < 300; index++) {
  for (;;) {
    try { await store.append('shared', [{ type: 'FromChild', data: { index }, metadata }], { expectedRevision: 'any' }); break; }
    catch (error) { if (!String(error).includes('busy')) throw error; }
  }
}
await store.close();
`;

test('two processes append to one file without losing or reordering events; the live subscriber sees both', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-processes-'));
  const path = join(directory, 'events.db');
  const store = createSqliteEventStore(path);
  try {
    const all = firstValueFrom(store.subscribeAll({ after: 0 }).pipe(take(600), toArray(), timeout(60_000)));
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER, path], { stdio: ['ignore', 'inherit', 'inherit'] });
    const childDone = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    for (let index = 0; index < 300; index++) {
      await store.append('shared', [{ ...event('FromParent', { index }) }], { expectedRevision: 'any' });
    }
    assert.is(await childDone, 0);
    const events = await all;
    const positions = events.map((e) => e.position);
    assert.equal(positions, [...positions].sort((a, b) => a - b));
    assert.is(new Set(positions).size, 600);
    const revisions = (await store.readStream('shared')).map((e) => e.revision);
    assert.equal(revisions, Array.from({ length: 600 }, (_, index) => index), 'one revision per event, no holes');
    for (const type of ['FromParent', 'FromChild']) {
      const indexes = events.filter((e) => e.type === type).map((e) => e.data.index);
      assert.equal(indexes, Array.from({ length: 300 }, (_, index) => index), `${type} in order`);
    }
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a stale expected revision loses against a write by another connection', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-race-'));
  const path = join(directory, 'events.db');
  const first = createSqliteEventStore(path);
  const second = createSqliteEventStore(path);
  try {
    await first.append('race', [event('A')], { expectedRevision: 'no_stream' });
    await second.append('race', [event('B')], { expectedRevision: 0 });
    try {
      await first.append('race', [event('C')], { expectedRevision: 0 });
      assert.unreachable('should conflict');
    } catch (error) {
      assert.is((error as { code?: string }).code, 'wrong_expected_version');
    }
  } finally {
    await first.close();
    await second.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('appends of one turn share a transaction: a refused one fails alone and leaves no position gap', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-group-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  try {
    await store.append('a', [event('First')], { expectedRevision: 'no_stream' });
    // All issued before any await: one group, each with its own expected-revision check.
    const results = await Promise.allSettled([
      store.append('a', [event('Second')], { expectedRevision: 0 }),
      store.append('a', [event('Stale')], { expectedRevision: 0 }),
      store.append('b', [event('B1'), event('B2')], { expectedRevision: 'no_stream' }),
      store.append('a', [event('Third')], { expectedRevision: 1 }),
      store.append('b', [event('Again')], { expectedRevision: 'no_stream' }),
    ]);
    assert.equal(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected']);
    for (const index of [1, 4]) {
      const reason = (results[index] as PromiseRejectedResult).reason;
      assert.instance(reason, WrongExpectedVersion);
    }
    assert.is(((results[1] as PromiseRejectedResult).reason as WrongExpectedVersion).actual, 1);
    const positions = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.position] : []));
    assert.equal(positions, [2, 4, 5], 'positions in call order');
    const all = await store.readAll({ after: 0, limit: 100 });
    assert.equal(all.map((e) => e.position), [1, 2, 3, 4, 5], 'gap-free');
    assert.equal(all.map((e) => e.type), ['First', 'Second', 'B1', 'B2', 'Third']);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a woken follower reads a burst of appends as one batch', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-coalesce-'));
  const store = createSqliteEventStore(join(directory, 'events.db'), { wakeCoalesceMs: 20 });
  try {
    const woken = store.waitForEvents(0, 5_000);
    await store.append('s', [event('One')], { expectedRevision: 'any' });
    const rest = Promise.all([1, 2, 3].map(() => new Promise((r) => setTimeout(r, 2)).then(() => store.append('s', [event('More')], { expectedRevision: 'any' }))));
    await woken;
    // Read at wake-up time, before waiting for the rest: the wait held on until the burst had landed.
    const batch = await store.readAll({ after: 0, limit: 100 });
    await rest;
    assert.is(batch.length, 4);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('group commit: when an append of the group fails for the disk (SQLITE_FULL), every caller told "stored" finds its events and every caller told "failed" finds none', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-full-'));
  // A database that cannot grow past a few pages: a large append fills it in the middle of a group.
  const store = createSqliteEventStore(join(directory, 'events.db'), { pragmas: ['max_page_count = 12'] });
  try {
    await store.append('warm', [event('Warm')], { expectedRevision: 'no_stream' });
    const big = 'x'.repeat(200_000);
    // Appended in one event-loop turn: one group, one transaction, each in its own savepoint.
    const outcomes = await Promise.allSettled([
      store.append('small-1', [event('Small')], { expectedRevision: 'no_stream' }),
      store.append('big', [event('Big', { big })], { expectedRevision: 'no_stream' }),
      store.append('small-2', [event('Small')], { expectedRevision: 'no_stream' }),
    ]);
    assert.is(outcomes[1]!.status, 'rejected', 'the large append does not fit');
    for (const [index, stream] of ['small-1', 'big', 'small-2'].entries()) {
      const stored = (await store.readStream(stream)).length > 0;
      assert.is(stored, outcomes[index]!.status === 'fulfilled', `${stream}: reported ${outcomes[index]!.status}, stored ${stored}`);
    }
    // The store is still usable afterwards.
    await store.append('after', [event('After')], { expectedRevision: 'no_stream' });
    assert.is((await store.readStream('after')).length, 1);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a follower reads large events as fast as small ones until it uses their data or metadata, and then reads both right', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-large-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  try {
    const contacts = Array.from({ length: 15_000 }, (_, index) => ({ phone: `+91980000${index}`, name: `C${index}` }));
    for (let index = 0; index < 40; index++) await store.append(`large-${index}`, [event('Large', { index, contacts })], { expectedRevision: 'no_stream' });
    for (let index = 0; index < 40; index++) await store.append(`small-${index}`, [event('Small', { index })], { expectedRevision: 'no_stream' });
    // The fastest of five reads each: metadata stored after a megabyte of data took ~0.5 ms an event to reach.
    const fastest = async (after: number) => {
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        assert.is((await store.readAll({ after, limit: 40 })).length, 40);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const [large, small] = [await fastest(0), await fastest(40)];
    assert.ok(large < Math.max(1, small) * 8, `40 large events read in ${large.toFixed(2)} ms, 40 small ones in ${small.toFixed(2)} ms`);
    const [first] = await store.readAll({ after: 0, limit: 1 });
    assert.is(first!.metadata.actor, event('Large').metadata.actor);
    assert.is((first!.data.contacts as unknown[]).length, 15_000);
    assert.is(first!.metadata.schema_version, 1);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

/** Whether `wait` resolved within `ms` (it is left running otherwise; the caller's timeout ends it). */
async function resolvesWithin(wait: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([wait.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

test('a waiter for a few types sleeps through appends of other types and wakes on one of its own', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-typed-wait-'));
  const store = createSqliteEventStore(join(directory, 'events.db'), { crossProcessPollMs: 20 });
  try {
    await store.append('s', [event('Before')], { expectedRevision: 'any' });
    const head = await store.headPosition();
    const mine = new Set(['Wanted']);
    const waiting = store.waitForEvents(head, 10_000, undefined, mine);
    await store.append('s', [event('Other'), event('Another')], { expectedRevision: 'any' });
    await store.append('t', [event('Other')], { expectedRevision: 'any' });
    assert.not.ok(await resolvesWithin(waiting, 300), 'asleep through three events of other types (and fifteen polls of the head)');
    await store.append('u', [event('Other'), event('Wanted')], { expectedRevision: 'any' });
    assert.ok(await resolvesWithin(waiting, 2_000), 'woken by its type');
    // An event of its type already appended after `after`: no wait at all; before `after`: it sleeps again.
    assert.ok(await resolvesWithin(store.waitForEvents(head, 10_000, undefined, mine), 50));
    assert.not.ok(await resolvesWithin(store.waitForEvents(await store.headPosition(), 200, undefined, mine), 100));
    // Without types, any append wakes.
    const any = store.waitForEvents(await store.headPosition(), 10_000);
    await store.append('s', [event('Other')], { expectedRevision: 'any' });
    assert.ok(await resolvesWithin(any, 2_000));
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a waiter for a few types wakes on what another process appended, whose types this store cannot know', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-typed-foreign-'));
  const path = join(directory, 'events.db');
  const polling = createSqliteEventStore(path, { crossProcessPollMs: 20 });
  // Polls too rarely to notice: only the gap before its own next append can tell it.
  const notPolling = createSqliteEventStore(path, { crossProcessPollMs: 600_000 });
  const other = createSqliteEventStore(path);
  try {
    await polling.append('s', [event('Before')], { expectedRevision: 'any' });
    const mine = new Set(['Wanted']);
    const polled = polling.waitForEvents(await polling.headPosition(), 10_000, undefined, mine);
    await other.append('o', [event('Foreign')], { expectedRevision: 'any' });
    assert.ok(await resolvesWithin(polled, 2_000), 'woken by a foreign append seen by polling');

    const gap = notPolling.waitForEvents(await notPolling.headPosition(), 10_000, undefined, mine);
    await other.append('o', [event('Foreign')], { expectedRevision: 'any' });
    assert.not.ok(await resolvesWithin(gap, 200), 'not seen yet');
    await notPolling.append('s', [event('Other')], { expectedRevision: 'any' });
    assert.ok(await resolvesWithin(gap, 2_000), 'woken by its own append of another type: the gap before it is a position it cannot type');
  } finally {
    await Promise.all([polling.close(), notPolling.close(), other.close()]);
    rmSync(directory, { recursive: true, force: true });
  }
});

test.run();

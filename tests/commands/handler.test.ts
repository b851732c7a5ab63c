import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommandHandler, wasRefused } from '../../commands/handler.ts';
import type { Decider, DomainEvent } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { createSqliteEventStore } from '../../infra/eventstore/sqlite.ts';

type CounterEvent = DomainEvent<'Incremented', { by: number }>;
type CounterCommand = { type: 'Increment'; by: number; max: number };
const counter: Decider<CounterCommand, CounterEvent, { total: number }> = {
  initialState: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide: (command, state) => {
    if (state.total + command.by > command.max) throw new DomainError('invalid_state', 'over the maximum');
    return [{ type: 'Incremented', data: { by: command.by } }];
  },
};
const context = { workspaceId: 'ws_1', actor: 'test', now: new Date('2026-03-01T10:00:00Z'), correlationId: 'corr' };

test('loads, folds, decides, appends with metadata and returns the position', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'handler-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const handler = new CommandHandler(store);
  const result = await handler.handle(counter, 'counter-1', { type: 'Increment', by: 2, max: 10 }, context);
  assert.equal(result.state, { total: 2 });
  assert.is(result.revision, 0);
  assert.is(result.position, await store.headPosition());
  const [event] = await store.readStream('counter-1');
  assert.equal(event!.metadata, { workspace_id: 'ws_1', actor: 'test', correlation_id: 'corr', causation_id: null, occurred_at: '2026-03-01T10:00:00.000Z', schema_version: 1 });
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

test('concurrent commands through separate handlers (two processes) retry on conflict and keep the invariant', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'handler-'));
  const path = join(directory, 'events.db');
  const storeA = createSqliteEventStore(path);
  const storeB = createSqliteEventStore(path);
  const a = new CommandHandler(storeA);
  const b = new CommandHandler(storeB);
  const outcomes = await Promise.allSettled(
    Array.from({ length: 20 }, (_, index) => (index % 2 ? a : b).handle(counter, 'counter-2', { type: 'Increment', by: 1, max: 15 }, context)),
  );
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  assert.is(refused.length, 5, 'exactly the commands past the maximum are refused');
  for (const outcome of refused) assert.is(((outcome as PromiseRejectedResult).reason as DomainError).code, 'invalid_state');
  assert.is((await storeA.readStream('counter-2')).length, 15);
  await storeA.close();
  await storeB.close();
  rmSync(directory, { recursive: true, force: true });
});

test('tolerate: a listed refusal is returned as {refused}; an unlisted one is still thrown', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'handler-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const handler = new CommandHandler(store);
  await handler.handle(counter, 'counter-3', { type: 'Increment', by: 5, max: 5 }, context);
  const tolerated = await handler.handle(counter, 'counter-3', { type: 'Increment', by: 1, max: 5 }, context, { tolerate: ['invalid_state'] });
  assert.ok(wasRefused(tolerated));
  if (wasRefused(tolerated)) assert.is(tolerated.refused.code, 'invalid_state');
  const done = await handler.handle(counter, 'counter-3', { type: 'Increment', by: 1, max: 9 }, context, { tolerate: ['invalid_state'] });
  assert.not.ok(wasRefused(done));
  try {
    await handler.handle(counter, 'counter-3', { type: 'Increment', by: 9, max: 9 }, context, { tolerate: ['already_exists'] });
    assert.unreachable('an unlisted refusal is thrown');
  } catch (error) {
    assert.instance(error, DomainError);
    assert.is((error as DomainError).code, 'invalid_state');
  }
  assert.is((await store.readStream('counter-3')).length, 2);
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

test('the cache of folded states is bounded by bytes (the deciders\' estimates), least recently used out; an oversized state is not kept', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'handler-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  // A state whose size is what the command says: a stand-in for a campaign of that many contacts.
  type SizedEvent = DomainEvent<'Sized', { bytes: number }>;
  const sized: Decider<{ type: 'Size'; bytes: number }, SizedEvent, { bytes: number }> = {
    initialState: () => ({ bytes: 0 }),
    evolve: (_state, event) => ({ bytes: event.data.bytes }),
    decide: (command) => [{ type: 'Sized', data: { bytes: command.bytes } }],
    sizeOf: (state) => state.bytes,
  };
  const handler = new CommandHandler(store, 10_000);
  for (let index = 0; index < 30; index++) await handler.handle(sized, `sized-${index}`, { type: 'Size', bytes: 1_000 }, context);
  assert.ok(handler.cachedStateBytes <= 10_000, `${handler.cachedStateBytes} bytes cached`);
  assert.is(handler.cachedStateBytes, 10_000, 'the ten most recent states');
  await handler.handle(sized, 'sized-huge', { type: 'Size', bytes: 50_000 }, context);
  assert.is(handler.cachedStateBytes, 10_000, 'a state over the whole budget is folded on each use, not cached');
  // An evicted or uncached state is folded again from the store, correctly.
  assert.equal((await handler.load(sized, 'sized-0')).state, { bytes: 1_000 });
  assert.equal((await handler.load(sized, 'sized-huge')).state, { bytes: 50_000 });
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

test('a decider without sizeOf is counted by its states\' walked size: states that grow with their input stay within the budget', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'handler-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  // A stand-in for a script holding its latest version: its state is as large as what the command carried.
  type DefinedEvent = DomainEvent<'Defined', { definition: string }>;
  const defined: Decider<{ type: 'Define'; definition: string }, DefinedEvent, { definition: string }> = {
    initialState: () => ({ definition: '' }),
    evolve: (_state, event) => ({ definition: event.data.definition }),
    decide: (command) => [{ type: 'Defined', data: { definition: command.definition } }],
  };
  const handler = new CommandHandler(store, 1_000_000);
  await handler.handle(defined, 'defined-0', { type: 'Define', definition: 'z'.repeat(200_000) }, context);
  assert.ok(handler.cachedStateBytes >= 400_000, `a 200,000-character state counted as ${handler.cachedStateBytes} bytes`);
  for (let index = 1; index < 20; index++) await handler.handle(defined, `defined-${index}`, { type: 'Define', definition: 'z'.repeat(200_000) }, context);
  assert.ok(handler.cachedStateBytes <= 1_000_000, `${handler.cachedStateBytes} bytes cached`);
  assert.equal((await handler.load(defined, 'defined-0')).state.definition.length, 200_000, 'an evicted state is folded again');
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

test.run();

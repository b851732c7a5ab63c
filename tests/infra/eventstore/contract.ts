/**
 * The contract every EventStore adapter passes. `sqlite.test.ts` runs it against the embedded store; `esdb.test.ts`
 * against EventStoreDB when EVENTSTORE_URL is set.
 */
import { firstValueFrom, take, toArray, timeout } from 'rxjs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fieldAsJson, hasField } from '../../../infra/eventstore/detached-field.ts';
import { WrongExpectedVersion, type EventMetadata, type EventStore, type EventToAppend } from '../../../infra/eventstore/port.ts';

export interface StoreFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return {
    workspace_id: 'ws_test',
    actor: 'test',
    correlation_id: 'corr-1',
    causation_id: null,
    occurred_at: '2026-01-01T00:00:00.000Z',
    schema_version: 1,
    ...overrides,
  };
}

export function event(type: string, data: Record<string, unknown> = {}): EventToAppend {
  return { type, data, metadata: metadata() };
}

async function expectWrongVersion(promise: Promise<unknown>): Promise<WrongExpectedVersion> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, WrongExpectedVersion);
    return error as WrongExpectedVersion;
  }
  assert.unreachable('expected WrongExpectedVersion');
  throw new Error('unreachable');
}

export function defineEventStoreContract(name: string, makeStore: () => Promise<StoreFixture>): void {
  const contract = suite<{ fixture: StoreFixture }>(`${name} event store contract`);
  contract.before.each(async (context) => {
    context.fixture = await makeStore();
  });
  contract.after.each(async (context) => {
    await context.fixture.cleanup();
  });

  contract('appends to a new stream with no_stream and reads it back with type, data, metadata, revision, position', async ({ fixture }) => {
    const { store } = fixture;
    const result = await store.append('order-1', [event('OrderPlaced', { total: 5 }), event('OrderPaid', { amount: 5 })], {
      expectedRevision: 'no_stream',
    });
    assert.is(result.nextExpectedRevision, 1);
    const events = await store.readStream('order-1');
    assert.equal(events.map((e) => e.type), ['OrderPlaced', 'OrderPaid']);
    assert.equal(events.map((e) => e.revision), [0, 1]);
    assert.equal(events[0]!.data, { total: 5 });
    assert.equal(events[0]!.metadata, metadata());
    assert.is(events[0]!.stream, 'order-1');
    assert.ok(events[0]!.position > 0 && events[1]!.position > events[0]!.position);
    assert.is(result.position, events[1]!.position);
    assert.type(events[0]!.id, 'string');
  });

  contract('no_stream on an existing stream is refused', async ({ fixture }) => {
    await fixture.store.append('s-1', [event('A')], { expectedRevision: 'no_stream' });
    const error = await expectWrongVersion(fixture.store.append('s-1', [event('B')], { expectedRevision: 'no_stream' }));
    assert.is(error.stream, 's-1');
    assert.is(error.actual, 0);
  });

  contract('an exact revision must match the last event', async ({ fixture }) => {
    const { store } = fixture;
    await store.append('s-2', [event('A'), event('B')], { expectedRevision: 'no_stream' });
    await expectWrongVersion(store.append('s-2', [event('C')], { expectedRevision: 0 }));
    await expectWrongVersion(store.append('s-2', [event('C')], { expectedRevision: 5 }));
    const ok = await store.append('s-2', [event('C')], { expectedRevision: 1 });
    assert.is(ok.nextExpectedRevision, 2);
    await expectWrongVersion(store.append('s-missing', [event('A')], { expectedRevision: 0 }));
  });

  contract('stream_exists and any', async ({ fixture }) => {
    const { store } = fixture;
    const missing = await expectWrongVersion(store.append('s-3', [event('A')], { expectedRevision: 'stream_exists' }));
    assert.is(missing.actual, 'no_stream');
    await store.append('s-3', [event('A')], { expectedRevision: 'any' });
    await store.append('s-3', [event('B')], { expectedRevision: 'any' });
    const ok = await store.append('s-3', [event('C')], { expectedRevision: 'stream_exists' });
    assert.is(ok.nextExpectedRevision, 2);
  });

  contract('reading a missing stream gives no events; fromRevision and limit', async ({ fixture }) => {
    const { store } = fixture;
    assert.equal(await store.readStream('nothing-here'), []);
    await store.append('s-4', [event('A'), event('B'), event('C'), event('D')], { expectedRevision: 'no_stream' });
    const tail = await store.readStream('s-4', { fromRevision: 2 });
    assert.equal(tail.map((e) => e.type), ['C', 'D']);
    const head = await store.readStream('s-4', { limit: 2 });
    assert.equal(head.map((e) => e.type), ['A', 'B']);
  });

  contract('readAll returns every stream in global order after a position', async ({ fixture }) => {
    const { store } = fixture;
    await store.append('a-1', [event('A1')], { expectedRevision: 'no_stream' });
    await store.append('b-1', [event('B1')], { expectedRevision: 'no_stream' });
    await store.append('a-1', [event('A2')], { expectedRevision: 0 });
    const all = await store.readAll({ after: 0, limit: 100 });
    assert.equal(all.map((e) => e.type), ['A1', 'B1', 'A2']);
    const rest = await store.readAll({ after: all[0]!.position, limit: 100 });
    assert.equal(rest.map((e) => e.type), ['B1', 'A2']);
    const one = await store.readAll({ after: 0, limit: 1 });
    assert.equal(one.map((e) => e.type), ['A1']);
    assert.is(await store.headPosition(), all[2]!.position);
  });

  contract('readAll of some types, up to a position: only those events, in global order, none past upTo', async ({ fixture }) => {
    const { store } = fixture;
    await store.append('a-1', [event('Wanted', { n: 1 }), event('Other')], { expectedRevision: 'no_stream' });
    await store.append('b-1', [event('Also', { n: 2 }), event('Other')], { expectedRevision: 'no_stream' });
    await store.append('a-1', [event('Wanted', { n: 3 })], { expectedRevision: 1 });
    const all = await store.readAll({ after: 0, limit: 100 });
    const types = new Set(['Wanted', 'Also']);
    const filtered = await store.readAll({ after: 0, limit: 100, types });
    assert.equal(filtered.map((e) => e.data.n), [1, 2, 3]);
    assert.equal(filtered.map((e) => e.position), all.filter((e) => types.has(e.type)).map((e) => e.position));
    assert.equal((await store.readAll({ after: 0, limit: 2, types })).map((e) => e.data.n), [1, 2], 'limit');
    assert.equal((await store.readAll({ after: all[0]!.position, limit: 100, types })).map((e) => e.data.n), [2, 3], 'after is exclusive');
    assert.equal((await store.readAll({ after: 0, limit: 100, types, upTo: all[3]!.position })).map((e) => e.data.n), [1, 2], 'upTo is inclusive');
    assert.equal((await store.readAll({ after: 0, limit: 100, types, upTo: all[2]!.position })).map((e) => e.data.n), [1, 2]);
    assert.equal((await store.readAll({ after: 0, limit: 100, upTo: all[1]!.position })).map((e) => e.type), ['Wanted', 'Other'], 'upTo without types');
    assert.equal(await store.readAll({ after: 0, limit: 100, types: new Set(['Nothing']) }), []);
    assert.equal((filtered[2]!.data as { n: number }).n, 3, 'data of a filtered event reads as any other');
  });

  contract('readAll with a field to detach: fieldAsJson gives its JSON text, every other field reads as before', async ({ fixture }) => {
    const { store } = fixture;
    const transcript = [{ text: 'She said "no", then {left}.', start: 1.5 }, { text: 'transcript', start: 2 }];
    await store.append('j-1', [event('Done', { job_id: 'j-1', transcript, summary: 'ok' }), event('Done', { job_id: 'j-2', transcript: null }), event('Other', { transcript })], { expectedRevision: 'no_stream' });
    const events = await store.readAll({ after: 0, limit: 10, detach: new Map([['Done', 'transcript']]) });
    assert.equal(events.map((e) => fieldAsJson(e, 'transcript')), [JSON.stringify(transcript), null, JSON.stringify(transcript)]);
    assert.equal(events.map((e) => hasField(e, 'transcript')), [true, false, true]);
    assert.equal({ job_id: events[0]!.data.job_id, summary: events[0]!.data.summary }, { job_id: 'j-1', summary: 'ok' });
    // A store may leave the field in `data` (EventStoreDB does); one that detaches leaves it out.
    if (events[0]!.detached !== undefined) assert.not.ok('transcript' in events[0]!.data, 'a detached field is not in data');
    assert.equal(events[2]!.data.transcript, transcript, 'a type not named is read whole');
  });

  contract('subscribeAll catches up, then stays live, without gaps or duplicates under concurrent appends', async ({ fixture }) => {
    const { store } = fixture;
    for (let index = 0; index < 20; index++) await store.append(`early-${index % 3}`, [event('Early', { index })], { expectedRevision: 'any' });
    const total = 220;
    const received = firstValueFrom(store.subscribeAll({ after: 0 }).pipe(take(total), toArray(), timeout(20_000)));
    // Concurrent writers on several streams while the subscriber catches up.
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let index = 0; index < 50; index++) {
          await store.append(`live-${writer}`, [event('Live', { writer, index })], { expectedRevision: 'any' });
        }
      }),
    );
    const events = await received;
    assert.is(events.length, total);
    const positions = events.map((e) => e.position);
    assert.equal(positions, [...positions].sort((a, b) => a - b), 'in global order');
    assert.is(new Set(positions).size, total, 'no duplicates');
    assert.equal(positions, (await store.readAll({ after: 0, limit: 1000 })).map((e) => e.position), 'no gaps');
    for (let writer = 0; writer < 4; writer++) {
      const indexes = events.filter((e) => e.data.writer === writer).map((e) => e.data.index);
      assert.equal(indexes, Array.from({ length: 50 }, (_, index) => index), `writer ${writer} in order`);
    }
  });

  contract('subscribeAll from a position starts after it', async ({ fixture }) => {
    const { store } = fixture;
    const first = await store.append('p-1', [event('One'), event('Two')], { expectedRevision: 'no_stream' });
    await store.append('p-1', [event('Three')], { expectedRevision: 1 });
    const events = await firstValueFrom(store.subscribeAll({ after: first.position }).pipe(take(1), toArray(), timeout(5_000)));
    assert.equal(events.map((e) => e.type), ['Three']);
  });

  contract('waitForEvents wakes up on an append and times out otherwise', async ({ fixture }) => {
    const { store } = fixture;
    const head = await store.headPosition();
    const started = Date.now();
    await store.waitForEvents(head, 150);
    assert.ok(Date.now() - started >= 100, 'waited for the timeout');
    const woken = store.waitForEvents(head, 10_000);
    const appendedAt = Date.now();
    await store.append('w-1', [event('Wake')], { expectedRevision: 'any' });
    await woken;
    assert.ok(Date.now() - appendedAt < 5_000, 'woken by the append');
  });

  contract('lists streams by prefix', async ({ fixture }) => {
    const { store } = fixture;
    await store.append('campaign-1', [event('A'), event('B')], { expectedRevision: 'no_stream' });
    await store.append('campaign-2', [event('A')], { expectedRevision: 'no_stream' });
    await store.append('call-1', [event('A')], { expectedRevision: 'no_stream' });
    const streams = await store.listStreams({ prefix: 'campaign-' });
    assert.equal(streams, [
      { stream: 'campaign-1', revision: 1, events: 2 },
      { stream: 'campaign-2', revision: 0, events: 1 },
    ]);
    assert.ok(await store.ping());
  });

  contract.run();
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EventStoreManualClock } from '../../../infra/clock/event-store-manual.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { waitFor } from '../../support/wait-for.ts';

const shared = suite('a cluster\'s manual clock in the event store: one time for every node');
const start = new Date('2026-03-01T09:00:00.000Z');

shared('the first node sets the start; a node moves it and the others adopt it; moves made at once add up', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'shared-clock-'));
  const path = join(directory, 'events.db');
  const stores = [createSqliteEventStore(path), createSqliteEventStore(path), createSqliteEventStore(path)];
  const [a, b, c] = [new EventStoreManualClock(stores[0]!, start), new EventStoreManualClock(stores[1]!, new Date('2030-01-01T00:00:00Z')), new EventStoreManualClock(stores[2]!, start)];
  try {
    await a.sync();
    await b.sync();
    await c.sync();
    assert.is(b.now().toISOString(), start.toISOString(), 'a later node takes the shared time, not its own CLOCK_START');
    const seenByB = firstValueFrom(b.moved);
    assert.is((await a.move(3_600)).toISOString(), '2026-03-01T10:00:00.000Z', 'the mover sees its move at once');
    assert.is((await seenByB).toISOString(), '2026-03-01T10:00:00.000Z', 'another node\'s moved emits (its timers fire)');
    await Promise.all([b.move(60), c.move(60)]);
    for (const clock of [a, b, c]) await waitFor('every node at 10:02', async () => clock.now().toISOString(), (now) => now === '2026-03-01T10:02:00.000Z', 5_000);
    assert.throws(() => a.advance(), /move\(\)/);
  } finally {
    for (const clock of [a, b, c]) await clock.stop();
    for (const store of stores) await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

shared('a move backwards is refused', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'shared-clock-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  const clock = new EventStoreManualClock(store, start);
  try {
    await clock.sync();
    const error = await clock.move(-1).catch((caught: unknown) => caught);
    assert.instance(error, RangeError);
    assert.is(clock.now().toISOString(), start.toISOString());
  } finally {
    await clock.stop();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

shared.run();

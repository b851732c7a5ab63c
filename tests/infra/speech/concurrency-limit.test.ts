import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConcurrencyLimit } from '../../../infra/speech/concurrency-limit.ts';

test('never runs more than the limit at once, and runs everything', async () => {
  const limit = new ConcurrencyLimit(2);
  let running = 0;
  let highest = 0;
  const results = await Promise.all(
    Array.from({ length: 7 }, (_, index) =>
      limit.run(async () => {
        running++;
        highest = Math.max(highest, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (index === 3) throw new Error('one task fails');
        return index;
      }).catch(() => -1),
    ),
  );
  assert.is(highest, 2);
  assert.equal(results, [0, 1, 2, -1, 4, 5, 6]);
});

test('tryAcquire: a slot at once or null, never a wait; giving it back twice counts once; queued runs get it', async () => {
  const limit = new ConcurrencyLimit(1);
  const release = limit.tryAcquire()!;
  assert.ok(release);
  assert.is(limit.tryAcquire(), null);
  let ran = false;
  const queued = limit.run(async () => (ran = true));
  release();
  release();
  await queued;
  assert.ok(ran);
  const again = limit.tryAcquire();
  assert.ok(again, 'free again after the queued run');
  assert.is(limit.tryAcquire(), null, 'the double release did not add a slot');
});

test('a limit below one is refused', () => {
  assert.throws(() => new ConcurrencyLimit(0), (error: unknown) => error instanceof RangeError);
});

test.run();

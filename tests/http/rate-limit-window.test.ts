import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WINDOW_MS, consume, resetSeconds, retryAfterSeconds, windowStart } from '../../http/rate-limit-window.ts';

const minute = Date.UTC(2026, 2, 1, 10, 0, 0);

test('windows are whole wall-clock minutes', () => {
  assert.is(windowStart(minute), minute);
  assert.is(windowStart(minute + 59_999), minute);
  assert.is(windowStart(minute + 60_000), minute + WINDOW_MS);
});

test('counts up to the limit, then refuses; remaining never goes below 0', () => {
  let counter;
  const decisions = [];
  for (let index = 0; index < 4; index++) {
    const decision = consume(counter, minute + index * 1000, 3);
    counter = decision.counter;
    decisions.push([decision.allowed, decision.remaining]);
  }
  assert.equal(decisions, [[true, 2], [true, 1], [true, 0], [false, 0]]);
});

test('a new minute starts from zero', () => {
  const full = consume({ windowStartMs: minute, count: 3 }, minute + 30_000, 3);
  assert.is(full.allowed, false);
  const next = consume(full.counter, minute + 60_000, 3);
  assert.is(next.allowed, true);
  assert.is(next.remaining, 2);
  assert.is(next.resetAtMs, minute + 120_000);
});

test('reset is the window end in Unix seconds; Retry-After the whole seconds until then, at least 1', () => {
  const decision = consume(undefined, minute + 45_500, 10);
  assert.is(resetSeconds(decision), (minute + 60_000) / 1000);
  assert.is(retryAfterSeconds(decision, minute + 45_500), 15);
  assert.is(retryAfterSeconds(decision, minute + 59_999), 1);
});

test('a lowered limit applies to the running window', () => {
  const decision = consume({ windowStartMs: minute, count: 10 }, minute + 1000, 5);
  assert.is(decision.allowed, false);
  assert.is(decision.limit, 5);
});

test.run();

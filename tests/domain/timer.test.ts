import { test } from 'uvu';
import { timerDecider as decider } from '../../domain/timer.ts';
import { given } from './given-when-then.ts';

const due = new Date('2026-03-01T14:00:00Z');
const scheduled = { type: 'TimerScheduled' as const, data: { timer_id: 't1', kind: 'retry', due_at: due.toISOString(), payload: { n: 1 } } };
const fired = { type: 'TimerFired' as const, data: { timer_id: 't1', kind: 'retry', due_at: due.toISOString(), fired_at: due.toISOString(), payload: { n: 1 } } };

test('schedules once; scheduling the same timer again changes nothing', () => {
  given(decider).when({ type: 'ScheduleTimer', timerId: 't1', kind: 'retry', dueAt: due, payload: { n: 1 } }).then([scheduled]);
  given(decider, [scheduled]).when({ type: 'ScheduleTimer', timerId: 't1', kind: 'retry', dueAt: due, payload: { n: 1 } }).thenNothing();
});
test('fires when due, exactly once', () => {
  given(decider, [scheduled]).when({ type: 'FireTimer', now: due }).then([fired]);
  given(decider, [scheduled, fired]).when({ type: 'FireTimer', now: due }).thenNothing();
});
test('refuses to fire early', () => {
  given(decider, [scheduled]).when({ type: 'FireTimer', now: new Date(due.getTime() - 1) }).thenThrows('invalid_state');
});
test('a cancelled timer does not fire', () => {
  const cancelled = { type: 'TimerCancelled' as const, data: { timer_id: 't1', kind: 'retry', cancelled_at: due.toISOString(), reason: 'x' } };
  given(decider, [scheduled]).when({ type: 'CancelTimer', now: due, reason: 'x' }).then([cancelled]);
  given(decider, [scheduled, cancelled]).when({ type: 'FireTimer', now: due }).thenNothing();
});
test.run();

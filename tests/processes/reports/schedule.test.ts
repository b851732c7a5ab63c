import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recommendedFocus } from '../../../processes/reports/types/coaching-focus.ts';
import { latestOccurrence, nextOccurrence, periodEndingAt, validateSchedule } from '../../../processes/reports/schedule.ts';

const weekly = { cron: '0 8 * * 1', timezone: 'Asia/Kolkata' };

test('a weekly run covers last Monday to Sunday; daily yesterday; monthly last month', () => {
  const next = nextOccurrence(weekly, new Date('2026-04-01T10:00:00Z'))!;
  assert.is(next.toISOString(), '2026-04-06T02:30:00.000Z');
  assert.equal(periodEndingAt(weekly, next), { from: '2026-03-30', to: '2026-04-05' });
  assert.equal(periodEndingAt({ cron: '0 6 * * *', timezone: 'UTC' }, new Date('2026-04-02T06:00:00Z')), { from: '2026-04-01', to: '2026-04-01' });
  assert.equal(periodEndingAt({ cron: '0 7 1 * *', timezone: 'UTC' }, new Date('2026-03-01T07:00:00Z')), { from: '2026-02-01', to: '2026-02-28' });
});

test('DST: a 08:00 London schedule fires at 08:00 local on both sides of the change', () => {
  const london = { cron: '0 8 * * *', timezone: 'Europe/London' };
  assert.is(nextOccurrence(london, new Date('2026-03-28T12:00:00Z'))!.toISOString(), '2026-03-29T07:00:00.000Z');
  assert.is(nextOccurrence(london, new Date('2026-03-27T12:00:00Z'))!.toISOString(), '2026-03-28T08:00:00.000Z');
});

test('catch-up: after downtime over several occurrences, the latest one is the run', () => {
  assert.is(latestOccurrence(weekly, new Date('2026-04-22T00:00:00Z'))!.toISOString(), '2026-04-20T02:30:00.000Z');
  assert.is(latestOccurrence(weekly, new Date('2026-04-20T02:30:00Z'))!.toISOString(), '2026-04-20T02:30:00.000Z', 'an occurrence at exactly now counts');
});

test('validation: unparsable, more often than daily', () => {
  assert.throws(() => validateSchedule({ cron: 'every monday', timezone: 'UTC' }, new Date()), /5 fields/);
  assert.throws(() => validateSchedule({ cron: '*/30 * * * *', timezone: 'UTC' }, new Date()), /at most once a day/);
  validateSchedule(weekly, new Date());
});

test('coaching focus: the weakest parameter below 80%, with advice by check type; none when all are strong', () => {
  const focus = recommendedFocus([
    { parameter: 'greeting', score_rate: 0.7, pass_rate: 0.7, check_type: 'agent_says' },
    { parameter: 'talk_balance', score_rate: 0.4, pass_rate: 0.4, check_type: 'talk_ratio' },
  ]);
  assert.is(focus?.parameter, 'talk_balance');
  assert.match(focus!.advice, /listen more/);
  assert.match(focus!.reason, /40% of its maximum/);
  assert.is(recommendedFocus([{ parameter: 'greeting', score_rate: 0.85, pass_rate: 0.9, check_type: 'agent_says' }]), null);
  assert.is(recommendedFocus([]), null);
});

test.run();

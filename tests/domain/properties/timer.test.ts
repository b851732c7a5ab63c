import * as fc from 'fast-check';
import { suite } from 'uvu';
import { timerDecider, type TimerCommand } from '../../../domain/timer.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { computedDate, date, id } from './domain-values.ts';

const properties = suite('timer decider: properties');

const schedule: fc.Arbitrary<TimerCommand> = fc.record({
  type: fc.constant('ScheduleTimer' as const),
  timerId: id('tmr_1', 'tmr_2'),
  kind: fc.constantFrom('campaign_start', 'webhook_delivery_retry', ''),
  dueAt: computedDate,
  payload: fc.dictionary(fc.constantFrom('campaign_id', 'attempt'), fc.oneof(fc.string({ maxLength: 5 }), fc.integer())),
});
const command: fc.Arbitrary<TimerCommand> = fc.oneof(
  schedule,
  fc.record({ type: fc.constant('FireTimer' as const), now: date }),
  fc.record({ type: fc.constant('CancelTimer' as const), now: date, reason: fc.constantFrom('superseded', '') }),
);

const isFinal = (status: string) => status === 'fired' || status === 'cancelled';

properties('random command sequences: only domain refusals, a timer fires at most once and never before it is due', () => {
  checkDeciderProperties({
    decider: timerDecider,
    command,
    opening: schedule,
    invariants: [
      { name: 'fired and cancelled are final', broken: (after, before) => (isFinal(before.status) && after.status !== before.status ? `${before.status} → ${after.status}` : null) },
      {
        name: 'never fired early',
        broken: (_after, _before, events) => {
          const fired = events.find((event) => event.type === 'TimerFired');
          return fired && fired.type === 'TimerFired' && Date.parse(fired.data.fired_at) < Date.parse(fired.data.due_at) ? JSON.stringify(fired.data) : null;
        },
      },
      { name: 'a scheduled timer has a real due time', broken: (after) => (after.status !== 'none' && Number.isNaN(Date.parse(after.dueAt)) ? after.dueAt : null) },
    ],
  });
});

properties.run();

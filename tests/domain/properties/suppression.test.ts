import * as fc from 'fast-check';
import { suite } from 'uvu';
import { suppressionDecider, type SuppressionCommand } from '../../../domain/suppression.ts';
import { isE164 } from '../../../domain/shared/phone.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { phone, time, nullable } from './domain-values.ts';

const properties = suite('suppression decider: properties');

const suppress: fc.Arbitrary<SuppressionCommand> = fc.record({
  type: fc.constant('SuppressNumber' as const),
  data: fc.record(
    { phone, source: fc.constantFrom('call_outcome' as const, 'api' as const), call_id: nullable(fc.constant('cal_1')), reason: nullable(fc.string({ maxLength: 10 })), at: time },
    { requiredKeys: ['phone', 'source', 'at'] },
  ),
});
const unsuppress: fc.Arbitrary<SuppressionCommand> = fc.record({ type: fc.constant('UnsuppressNumber' as const), data: fc.record({ phone, at: time }) });

properties('random command sequences: only domain refusals, the list holds E.164 numbers, each event changes exactly one', () => {
  checkDeciderProperties({
    decider: suppressionDecider,
    command: fc.oneof(suppress, unsuppress),
    invariants: [
      { name: 'only E.164 numbers', broken: (after) => [...after.numbers.keys()].find((number) => !isE164(number)) ?? null },
      {
        name: 'suppressing adds one new number, unsuppressing removes one listed number',
        broken: (after, before, events) => {
          const expected = new Set(before.numbers.keys());
          for (const event of events) {
            if (event.type === 'NumberSuppressed') {
              if (expected.has(event.data.phone)) return `${event.data.phone} suppressed twice`;
              expected.add(event.data.phone);
            } else {
              if (!expected.delete(event.data.phone)) return `${event.data.phone} unsuppressed but not listed`;
            }
          }
          const actual = [...after.numbers.keys()].sort();
          return JSON.stringify(actual) === JSON.stringify([...expected].sort()) ? null : `list ${actual.join(',')}`;
        },
      },
    ],
  });
});

properties.run();

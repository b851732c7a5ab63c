import * as fc from 'fast-check';
import { suite } from 'uvu';
import { qaScorecardDecider, type QaScorecardCommand, type QaScorecardDefinition } from '../../../domain/qa-scorecard.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { date, id, name } from './domain-values.ts';

const properties = suite('QA scorecard decider: properties');

// The shape of a definition is the edge's job (infra/analysis/scorecard-schema.ts); the aggregate compares them.
const definition: fc.Arbitrary<QaScorecardDefinition> = fc.record(
  {
    name,
    description: fc.string({ maxLength: 10 }),
    pass_threshold: fc.constantFrom(0, 50, 70, 100),
    parameters: fc.array(
      fc.record({ name: fc.constantFrom('greeting', 'closing'), max_score: fc.constantFrom(5, 10), check: fc.record({ type: fc.constantFrom('phrase', 'sentiment'), phrases: fc.array(fc.constantFrom('hello', 'thanks'), { maxLength: 2 }) }) }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['name', 'pass_threshold', 'parameters'] },
);
const ids = { scorecardId: id('qsc_1', 'qsc_2'), workspaceId: id('ws_1', 'ws_2') };
const create: fc.Arbitrary<QaScorecardCommand> = fc.record({ type: fc.constant('CreateQaScorecard' as const), ...ids, definition, now: date });
const command: fc.Arbitrary<QaScorecardCommand> = fc.oneof(
  create,
  fc.record({ type: fc.constant('ReplaceQaScorecard' as const), ...ids, definition, now: date }),
  fc.record({ type: fc.constant('DeleteQaScorecard' as const), ...ids, now: date }),
);

properties('random command sequences: only domain refusals, versions count up by one, deletion is final', () => {
  checkDeciderProperties({
    decider: qaScorecardDecider,
    command,
    opening: create,
    invariants: [
      { name: 'deletion is final', broken: (after, before) => (before.status === 'deleted' && after.status !== 'deleted' ? after.status : null) },
      {
        name: 'each replacement is the next version',
        broken: (after, before, events) => {
          const replaced = events.filter((event) => event.type === 'QaScorecardReplaced').length;
          return before.status === 'active' && after.version !== before.version + replaced ? `${before.version} → ${after.version}` : null;
        },
      },
      { name: 'the owner is fixed at creation', broken: (after, before) => (before.status !== 'none' && after.workspaceId !== before.workspaceId ? 'changed' : null) },
    ],
  });
});

properties.run();

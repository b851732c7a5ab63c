import * as fc from 'fast-check';
import { suite } from 'uvu';
import { workspaceDecider, type WorkspaceCommand } from '../../../domain/workspace.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, date, id, name } from './domain-values.ts';

const properties = suite('workspace decider: properties');

const create: fc.Arbitrary<WorkspaceCommand> = fc.record({ type: fc.constant('CreateWorkspace' as const), workspaceId: id('ws_1', 'ws_2'), name, now: date });
const limit = fc.oneof(count, fc.constantFrom(1, 1_000, 10_000, 10_000_000, 10_000_001));
const command: fc.Arbitrary<WorkspaceCommand> = fc.oneof(
  create,
  fc.record({ type: fc.constant('RenameWorkspace' as const), name }),
  fc.record({ type: fc.constant('SetRateLimit' as const), perMinute: limit }),
  fc.record({ type: fc.constant('SetDialingConcurrency' as const), limit }),
  fc.record({ type: fc.constant('SetDefaultQaScorecard' as const), scorecardId: fc.constantFrom('qsc_1', 'qsc_2', null), scorecardFound: fc.boolean() }),
);

const inRange = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max;

properties('random command sequences: only domain refusals, limits stay in range, the name stays valid', () => {
  checkDeciderProperties({
    decider: workspaceDecider,
    command,
    opening: create,
    invariants: [
      { name: 'rate limit in 1..10,000,000', broken: (after) => (inRange(after.rateLimitPerMinute, 10_000_000) ? null : String(after.rateLimitPerMinute)) },
      { name: 'dialing concurrency in 1..10,000', broken: (after) => (inRange(after.dialingConcurrency, 10_000) ? null : String(after.dialingConcurrency)) },
      {
        name: 'a named workspace',
        broken: (after) => (!after.exists || (after.name.trim().length > 0 && after.name.length <= 255) ? null : JSON.stringify(after.name)),
      },
      { name: 'the id is fixed at creation', broken: (after, before) => (before.exists && after.workspaceId !== before.workspaceId ? 'changed' : null) },
    ],
  });
});

properties.run();

import * as fc from 'fast-check';
import { suite } from 'uvu';
import { scriptDecider, validateScript, type ScriptCommand } from '../../../domain/script.ts';
import { SCRIPT_INTENTS, type Script, type ScriptStep } from '../../../domain/script-types.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, date, disposition, id, name } from './domain-values.ts';

const properties = suite('script decider: properties');

// Step ids from a small pool, so that `next` targets sometimes resolve and sometimes do not.
const stepId = fc.constantFrom('greet', 'ask', 'bye', 'missing');
const say = fc.constantFrom('Hello {name}', 'Your amount is {amount}.', 'Goodbye', '', '  ', '{{literal}}', '{1,2}');
const route = fc.record(
  { intent: fc.constantFrom(...SCRIPT_INTENTS), dtmf: fc.constantFrom('1', '2'), keywords: fc.array(fc.constantFrom('yes', 'haan'), { maxLength: 2 }), disposition, next: stepId, escalate: fc.boolean() },
  { requiredKeys: ['intent'] },
);
const step: fc.Arbitrary<ScriptStep> = fc.record(
  {
    id: stepId,
    say,
    next: stepId,
    end: fc.boolean(),
    disposition,
    listen: fc.record({
      timeout_seconds: fc.constantFrom(3, 5),
      routes: fc.array(route, { maxLength: 3 }),
      no_input: fc.record({ retries: fc.nat(2), disposition, next: stepId }, { requiredKeys: ['retries'] }),
    }),
  },
  { requiredKeys: ['id', 'say'] },
);
// A runnable script now and then, so that sequences get past creation and publish real versions.
const runnable: fc.Arbitrary<Script> = fc.record({
  name,
  single_call_enabled: fc.boolean(),
  steps: fc.constantFrom<ScriptStep[][]>(
    [{ id: 'greet', say: 'Hello {name}', end: true }],
    [{ id: 'greet', say: 'Hello {name}', next: 'bye' }, { id: 'bye', say: 'Your amount is {amount}.', end: true }],
  ),
});
const script: fc.Arbitrary<Script> = fc.oneof(runnable, fc.record({ name, single_call_enabled: fc.boolean(), steps: fc.array(step, { maxLength: 4 }) }));

const ids = { scriptId: id('scr_1', 'scr_2'), workspaceId: id('ws_1', 'ws_2') };
const create: fc.Arbitrary<ScriptCommand> = fc.record({ type: fc.constant('CreateScript' as const), ...ids, script: runnable, now: date });
const command: fc.Arbitrary<ScriptCommand> = fc.oneof(
  fc.record({ type: fc.constant('CreateScript' as const), ...ids, script, now: date }),
  { weight: 3, arbitrary: fc.record({ type: fc.constant('PublishScriptVersion' as const), ...ids, script, now: date }) },
  fc.record({ type: fc.constant('DeleteScript' as const), ...ids, activeCampaigns: count, now: date }),
);

properties('random command sequences: only domain refusals, every stored version is runnable, versions count up by one', () => {
  checkDeciderProperties({
    decider: scriptDecider,
    command,
    opening: create,
    invariants: [
      { name: 'deletion is final', broken: (after, before) => (before.status === 'deleted' && after.status !== 'deleted' ? after.status : null) },
      { name: 'the latest version is runnable', broken: (after) => (after.latest && validateScript(after.latest).length > 0 ? JSON.stringify(validateScript(after.latest)[0]) : null) },
      {
        name: 'each publication is the next version',
        broken: (after, before, events) => {
          const published = events.filter((event) => event.type === 'ScriptVersionPublished').length;
          return before.status === 'active' && after.version !== before.version + published ? `${before.version} → ${after.version}` : null;
        },
      },
    ],
  });
});

properties.run();

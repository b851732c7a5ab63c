import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { scriptDecider, scriptVariables, validateScript, type ScriptEvent } from '../../domain/script.ts';
import type { Script } from '../../domain/script-types.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { given } from './given-when-then.ts';

const now = new Date('2026-03-01T10:00:00Z');
const later = new Date('2026-03-02T10:00:00Z');

function created(script: Script = loanRenewalScript()): ScriptEvent {
  return {
    type: 'ScriptCreated',
    data: {
      script_id: 'scr_1',
      workspace_id: 'ws_1',
      version: 1,
      name: script.name,
      single_call_enabled: script.single_call_enabled,
      steps: script.steps,
      variables: ['amount', 'lender', 'name'],
      created_at: now.toISOString(),
    },
  };
}

const validation = suite('script validation');

validation('the example script is runnable and uses three variables', () => {
  assert.equal(validateScript(loanRenewalScript()), []);
  assert.equal(scriptVariables(loanRenewalScript()), ['amount', 'lender', 'name']);
});

validation('a route naming an unknown step: the path of that route', () => {
  const script = loanRenewalScript();
  script.steps[1]!.listen!.routes[2]!.next = 'nowhere';
  const [violation] = validateScript(script);
  assert.is(violation?.field, 'steps[1].listen.routes[2].next');
  assert.is(violation?.provided, 'nowhere');
  assert.match(violation!.expected, 'greet, offer, thanks, bye');
});

validation('duplicate step ids', () => {
  const script = loanRenewalScript();
  script.steps[3]!.id = 'thanks';
  assert.equal(validateScript(script)[0], {
    field: 'steps[3].id',
    message: 'Step id thanks is used twice.',
    provided: 'thanks',
    expected: 'a step id used by no other step',
  });
});

validation('a step without listen must continue or end', () => {
  const script = loanRenewalScript();
  delete script.steps[0]!.next;
  assert.is(validateScript(script)[0]?.field, 'steps[0].next');
});

validation('a step that ends has no next', () => {
  const script = loanRenewalScript();
  script.steps[2]!.next = 'bye';
  assert.is(validateScript(script)[0]?.field, 'steps[2].next');
});

validation('at least one step ends', () => {
  const script: Script = {
    name: 'Loop',
    single_call_enabled: false,
    steps: [
      { id: 'a', say: 'A', next: 'b' },
      { id: 'b', say: 'B', next: 'a' },
    ],
  };
  assert.equal(validateScript(script), [{ field: 'steps', message: 'No step ends the call.', provided: null, expected: 'at least one step with end: true' }]);
});

validation('every step is reachable from the first', () => {
  const script = loanRenewalScript();
  script.steps.push({ id: 'orphan', say: 'Nobody hears this.', end: true });
  assert.equal(validateScript(script).map((violation) => violation.field), ['steps[4].id']);
});

validation('keypad digits and intents are unique within one listen', () => {
  const script = loanRenewalScript();
  script.steps[1]!.listen!.routes[1]!.dtmf = '1';
  script.steps[1]!.listen!.routes[4]!.intent = 'affirm';
  assert.equal(validateScript(script).map((violation) => violation.field), ['steps[1].listen.routes[1].dtmf', 'steps[1].listen.routes[4].intent']);
});

validation('a route without next on a listening step that neither continues nor ends leads nowhere', () => {
  const script = loanRenewalScript();
  delete script.steps[1]!.listen!.routes[0]!.next;
  assert.is(validateScript(script)[0]?.field, 'steps[1].listen.routes[0].next');
  // Escalating routes need no next; a step-level next gives the others a fallback.
  script.steps[1]!.next = 'thanks';
  assert.equal(validateScript(script), []);
});

validation('the no-input route must lead somewhere', () => {
  const script = loanRenewalScript();
  delete script.steps[1]!.listen!.no_input.next;
  assert.is(validateScript(script)[0]?.field, 'steps[1].listen.no_input.next');
});

validation('an empty say', () => {
  const script = loanRenewalScript();
  script.steps[2]!.say = '  ';
  assert.is(validateScript(script)[0]?.field, 'steps[2].say');
});

validation.run();

const decider = suite('script decider');

decider('given nothing, when created, then ScriptCreated version 1 with its variables', () => {
  given(scriptDecider)
    .when({ type: 'CreateScript', scriptId: 'scr_1', workspaceId: 'ws_1', script: loanRenewalScript(), now })
    .then([created()]);
});

decider('given nothing, when created with a broken graph, then invalid_parameter naming the field', () => {
  const script = loanRenewalScript();
  script.steps[0]!.next = 'missing';
  given(scriptDecider)
    .when({ type: 'CreateScript', scriptId: 'scr_1', workspaceId: 'ws_1', script, now })
    .thenThrows('invalid_parameter', { field: 'steps[0].next', provided: 'missing' });
});

decider('given a script, when created again, then already_exists', () => {
  given(scriptDecider, [created()])
    .when({ type: 'CreateScript', scriptId: 'scr_1', workspaceId: 'ws_1', script: loanRenewalScript(), now })
    .thenThrows('already_exists');
});

decider('given a script, when a changed version is published, then version 2', () => {
  const script = loanRenewalScript();
  script.steps[3]!.say = 'Goodbye {name}.';
  given(scriptDecider, [created()])
    .when({ type: 'PublishScriptVersion', scriptId: 'scr_1', workspaceId: 'ws_1', script, now: later })
    .then([
      {
        type: 'ScriptVersionPublished',
        data: {
          script_id: 'scr_1',
          workspace_id: 'ws_1',
          version: 2,
          name: 'Loan renewal',
          single_call_enabled: true,
          steps: script.steps,
          variables: ['amount', 'lender', 'name'],
          published_at: later.toISOString(),
        },
      },
    ]);
});

decider('given a script, when the same content is published, then nothing (a retried PUT)', () => {
  given(scriptDecider, [created()])
    .when({ type: 'PublishScriptVersion', scriptId: 'scr_1', workspaceId: 'ws_1', script: loanRenewalScript(), now: later })
    .thenNothing();
});

decider('given a script of another workspace, when published or deleted, then resource_not_found', () => {
  given(scriptDecider, [created()])
    .when({ type: 'PublishScriptVersion', scriptId: 'scr_1', workspaceId: 'ws_2', script: loanRenewalScript(), now })
    .thenThrows('resource_not_found', { resource_type: 'script', id: 'scr_1' });
  given(scriptDecider, [created()])
    .when({ type: 'DeleteScript', scriptId: 'scr_1', workspaceId: 'ws_2', activeCampaigns: 0, now })
    .thenThrows('resource_not_found');
});

decider('given a script used by an active campaign, when deleted, then invalid_state', () => {
  given(scriptDecider, [created()])
    .when({ type: 'DeleteScript', scriptId: 'scr_1', workspaceId: 'ws_1', activeCampaigns: 2, now })
    .thenThrows('invalid_state', { active_campaigns: 2 });
});

decider('given a script, when deleted, then ScriptDeleted; afterwards it is gone', () => {
  given(scriptDecider, [created()])
    .when({ type: 'DeleteScript', scriptId: 'scr_1', workspaceId: 'ws_1', activeCampaigns: 0, now: later })
    .then([{ type: 'ScriptDeleted', data: { script_id: 'scr_1', workspace_id: 'ws_1', deleted_at: later.toISOString() } }]);
  const deleted: ScriptEvent = { type: 'ScriptDeleted', data: { script_id: 'scr_1', workspace_id: 'ws_1', deleted_at: later.toISOString() } };
  given(scriptDecider, [created(), deleted])
    .when({ type: 'PublishScriptVersion', scriptId: 'scr_1', workspaceId: 'ws_1', script: loanRenewalScript(), now: later })
    .thenThrows('resource_not_found');
  given(scriptDecider, [created(), deleted])
    .when({ type: 'DeleteScript', scriptId: 'scr_1', workspaceId: 'ws_1', activeCampaigns: 0, now: later })
    .thenThrows('resource_not_found');
});

decider.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyEdit, draftsFromForm, draftsFromSteps, inputIdOf, stepsFromDrafts } from '../../http/dashboard/script-form.ts';
import { editorFieldNames, placeError } from '../../http/dashboard/pages/script-editor.tsx';

const steps = [
  {
    id: 'greet',
    say: 'Namaste {name}',
    listen: {
      timeout_seconds: 6,
      routes: [
        { intent: 'affirm', dtmf: '1', keywords: ['haan', 'yes please'], disposition: 'interested', next: 'thanks' },
        { intent: 'request_human', escalate: true },
      ],
      no_input: { retries: 1, disposition: 'callback_requested', next: 'bye' },
    },
  },
  { id: 'thanks', say: 'Thank you.', end: true, disposition: 'interested' },
  { id: 'bye', say: 'Goodbye.', next: 'thanks' },
];

/** The form a browser would submit for these drafts: every field by its API path. */
function formOf(drafts: ReturnType<typeof draftsFromSteps>): Record<string, string> {
  const form: Record<string, string> = {};
  drafts.forEach((step, index) => {
    const at = `steps[${index}]`;
    Object.assign(form, { [`${at}.id`]: step.id, [`${at}.say`]: step.say, [`${at}.next`]: step.next, [`${at}.end`]: String(step.end), [`${at}.disposition`]: step.disposition });
    if (!step.listen) return;
    Object.assign(form, {
      [`${at}.has_listen`]: 'true',
      [`${at}.listen.timeout_seconds`]: step.listen.timeout_seconds,
      [`${at}.listen.no_input.retries`]: step.listen.no_input.retries,
      [`${at}.listen.no_input.disposition`]: step.listen.no_input.disposition,
      [`${at}.listen.no_input.next`]: step.listen.no_input.next,
    });
    step.listen.routes.forEach((route, at2) => {
      for (const [key, value] of Object.entries(route)) form[`${at}.listen.routes[${at2}].${key}`] = String(value);
    });
  });
  return form;
}

test('a script survives steps → drafts → form → drafts → steps unchanged', () => {
  const drafts = draftsFromSteps(steps);
  assert.equal(stepsFromDrafts(drafts), steps);
  assert.equal(draftsFromForm(formOf(drafts)), drafts);
  assert.equal(stepsFromDrafts(draftsFromForm(formOf(drafts))), steps);
});

test('what is not a number is sent as typed, so the API names the field; empty optional fields are left out', () => {
  const drafts = draftsFromSteps(steps);
  drafts[0]!.listen!.timeout_seconds = 'soon';
  drafts[0]!.listen!.routes[0]!.keywords = ' , ';
  const [first] = stepsFromDrafts(drafts) as Array<{ listen: { timeout_seconds: unknown; routes: Record<string, unknown>[] } }>;
  assert.is(first!.listen.timeout_seconds, 'soon');
  assert.not.ok('keywords' in first!.listen.routes[0]!);
});

test('editing: add, move, remove steps and routes; out-of-range operations change nothing', () => {
  const drafts = draftsFromSteps(steps);
  const added = applyEdit(drafts, 'add-step');
  assert.equal(added.map((step) => step.id), ['greet', 'thanks', 'bye', 'step_4']);
  assert.equal(drafts.length, 3, 'the input is not changed');
  assert.equal(applyEdit(added, 'up:3').map((step) => step.id), ['greet', 'thanks', 'step_4', 'bye']);
  assert.equal(applyEdit(added, 'down:0').map((step) => step.id), ['thanks', 'greet', 'bye', 'step_4']);
  assert.equal(applyEdit(added, 'remove-step:1').map((step) => step.id), ['greet', 'bye', 'step_4']);
  assert.equal(applyEdit(added, 'up:0'), added);
  assert.equal(applyEdit(added, 'remove-step:9'), added);
  assert.equal(applyEdit(added, 'nonsense'), added);
  assert.is(applyEdit(drafts, 'add-route:0')[0]!.listen!.routes.length, 3);
  assert.is(applyEdit(drafts, 'remove-route:0:1')[0]!.listen!.routes.length, 1);
  assert.is(applyEdit(drafts, 'remove-listen:0')[0]!.listen, undefined);
  assert.ok(applyEdit(drafts, 'add-listen:1')[1]!.listen);
  assert.equal(applyEdit([drafts[1]!], 'remove-step:0').length, 1, 'the last step stays');
});

test('a tampered form with holes in its indices closes up', () => {
  assert.equal(draftsFromForm({ 'steps[5].id': 'a', 'steps[5].say': 'Hi', 'steps[900].id': 'x', other: 'y' }).map((step) => step.id), ['a']);
});

test('an API error goes to the input it names, else to its step, else above', () => {
  const drafts = draftsFromSteps(steps);
  assert.equal(placeError('steps[0].listen.routes[1].next', drafts), { input: 'steps[0].listen.routes[1].next' });
  assert.equal(placeError('steps[0].listen.routes[0].keywords[1]', drafts), { input: 'steps[0].listen.routes[0].keywords' });
  assert.equal(placeError('steps[2].listen', drafts), { step: 2 });
  assert.equal(placeError('steps', drafts), {});
  assert.equal(placeError('steps[7].id', drafts), {});
  assert.ok(editorFieldNames(drafts).has('steps[1].say'));
  assert.is(inputIdOf('steps[0].listen.routes[1].next'), 'f-steps-0-listen-routes-1-next');
});

test.run();

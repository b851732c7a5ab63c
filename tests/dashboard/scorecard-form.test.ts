import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyParameterEdit, draftsFromForm, draftsFromParameters, parameterInputOfError, parametersFromDrafts } from '../../http/dashboard/scorecard-form.ts';

const parameters = [
  { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['hello', 'good morning'], hi: ['नमस्ते'] }, within_seconds: 15 } },
  { name: 'no_threats', description: 'No threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['police'], bn: ['পুলিশ'] } } },
  { name: 'balance', max_score: 5, check: { type: 'talk_ratio', max_agent_share: 0.7, min_agent_share: 0.2 } },
  { name: 'silence', max_score: 5, check: { type: 'max_silence', max_seconds: 8 } },
];

test('parameters survive parameters → drafts → form → drafts → parameters, other languages included', () => {
  const drafts = draftsFromParameters(parameters);
  assert.equal(parametersFromDrafts(drafts), parameters);
  const form: Record<string, string> = {};
  drafts.forEach((draft, index) => {
    const at = `parameters[${index}]`;
    Object.assign(form, { [`${at}.name`]: draft.name, [`${at}.description`]: draft.description, [`${at}.max_score`]: draft.max_score, [`${at}.check.type`]: draft.type });
    for (const [language, typed] of Object.entries(draft.phrases)) form[`${at}.check.phrases.${language}`] = typed;
    for (const [name, typed] of Object.entries(draft.numbers)) form[`${at}.check.${name}`] = typed;
  });
  assert.equal(parametersFromDrafts(draftsFromForm(form)), parameters);
});

test('only the chosen check type\'s fields are sent; what is not a number goes as typed for the API to name', () => {
  const [draft] = draftsFromParameters(parameters);
  const changed = { ...draft!, type: 'max_silence', numbers: { ...draft!.numbers, max_seconds: 'ten' } };
  assert.equal(parametersFromDrafts([changed]), [{ name: 'greeting', max_score: 10, check: { type: 'max_silence', max_seconds: 'ten' } }]);
});

test('editing: add, move, remove; the last parameter stays', () => {
  const drafts = draftsFromParameters(parameters);
  assert.is(applyParameterEdit(drafts, 'add').length, 5);
  assert.equal(applyParameterEdit(drafts, 'up:1').map((draft) => draft.name), ['no_threats', 'greeting', 'balance', 'silence']);
  assert.equal(applyParameterEdit(drafts, 'down:3'), drafts);
  assert.equal(applyParameterEdit(drafts, 'remove:0').map((draft) => draft.name), ['no_threats', 'balance', 'silence']);
  assert.is(applyParameterEdit([drafts[0]!], 'remove:0').length, 1);
});

test('an API error goes to the input it names (a phrase\'s index folded into its list)', () => {
  const drafts = draftsFromParameters(parameters);
  assert.is(parameterInputOfError('parameters[1].name', drafts), 'parameters[1].name');
  assert.is(parameterInputOfError('parameters[0].check.phrases.hi[0]', drafts), 'parameters[0].check.phrases.hi');
  assert.is(parameterInputOfError('parameters[0].check.type', drafts), 'parameters[0].check.type');
  assert.is(parameterInputOfError('parameters', drafts), undefined);
  assert.is(parameterInputOfError('parameters[9].name', drafts), undefined);
});

test.run();

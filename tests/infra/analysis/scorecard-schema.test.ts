import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { scorecardSchema } from '../../../infra/analysis/scorecard-schema.ts';

const valid = {
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [
    { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning', 'hello'], hi: ['नमस्ते', 'namaste'] }, within_seconds: 15 } },
    { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } },
    { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['yes'] } } },
    { name: 'talk_balance', max_score: 10, check: { type: 'talk_ratio', max_agent_share: 0.7 } },
  ],
};

function withParameter(index: number, change: Record<string, unknown>) {
  return { ...valid, parameters: valid.parameters.map((parameter, i) => (i === index ? { ...parameter, ...change } : parameter)) };
}

function withCheck(index: number, check: Record<string, unknown>) {
  return withParameter(index, { check });
}

function issues(input: unknown): [string, string][] {
  const result = scorecardSchema.safeParse(input);
  assert.not.ok(result.success, 'expected the scorecard to be rejected');
  return result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

test('the spec example scorecard is accepted as is', () => {
  const parsed = scorecardSchema.parse(valid);
  assert.is(parsed.parameters.length, 4);
  assert.is(parsed.pass_threshold, 70);
});

test('parameter names must be unique', () => {
  const duplicate = withParameter(1, { name: 'greeting' });
  assert.equal(issues(duplicate), [['parameters.1.name', 'parameter name "greeting" is used more than once; names must be unique']]);
});

test('max_score must be greater than 0', () => {
  assert.equal(issues(withParameter(0, { max_score: 0 })), [['parameters.0.max_score', 'max_score must be greater than 0']]);
  assert.equal(issues(withParameter(0, { max_score: 'ten' })), [['parameters.0.max_score', 'max_score must be a number']]);
});

test('1 to 50 parameters', () => {
  assert.equal(issues({ ...valid, parameters: [] }), [['parameters', 'parameters must hold 1 to 50 parameters']]);
  const many = Array.from({ length: 51 }, (_, index) => ({ ...valid.parameters[2], name: `p${index}` }));
  assert.equal(issues({ ...valid, parameters: many }), [['parameters', 'parameters must hold 1 to 50 parameters']]);
  const fifty = many.slice(0, 50);
  assert.ok(scorecardSchema.safeParse({ ...valid, parameters: fifty }).success);
});

test('pass_threshold from 0 to 100', () => {
  assert.equal(issues({ ...valid, pass_threshold: 101 }), [['pass_threshold', 'pass_threshold must be a number from 0 to 100']]);
  assert.equal(issues({ ...valid, pass_threshold: -1 }), [['pass_threshold', 'pass_threshold must be a number from 0 to 100']]);
  assert.ok(scorecardSchema.safeParse({ ...valid, pass_threshold: 0 }).success);
  assert.ok(scorecardSchema.safeParse({ ...valid, pass_threshold: 100 }).success);
});

test('phrases must be non-empty and keyed by language subtag', () => {
  assert.equal(issues(withCheck(2, { type: 'customer_says', phrases: { en: [] } })), [
    ['parameters.2.check.phrases.en', 'each language must list at least one phrase'],
  ]);
  assert.equal(issues(withCheck(2, { type: 'customer_says', phrases: {} })), [
    ['parameters.2.check.phrases', 'phrases must list phrases for at least one language'],
  ]);
  assert.equal(issues(withCheck(2, { type: 'customer_says', phrases: { en: ['  '] } })), [
    ['parameters.2.check.phrases.en.0', 'phrases must not be empty text'],
  ]);
  assert.equal(issues(withCheck(2, { type: 'customer_says', phrases: { 'en-IN': ['yes'] } })), [
    ['parameters.2.check.phrases.en-IN', 'phrases must be keyed by a lower-case language subtag such as en, hi, mr, ta, te (got "en-IN")'],
  ]);
});

test('max_agent_share in (0, 1]', () => {
  for (const share of [0, 1.5, -0.2]) {
    assert.equal(issues(withCheck(3, { type: 'talk_ratio', max_agent_share: share })), [
      ['parameters.3.check.max_agent_share', 'max_agent_share must be greater than 0 and at most 1'],
    ]);
  }
  assert.ok(scorecardSchema.safeParse(withCheck(3, { type: 'talk_ratio', max_agent_share: 1 })).success);
  assert.equal(issues(withCheck(3, { type: 'talk_ratio' })), [
    ['parameters.3.check', 'talk_ratio needs max_agent_share, min_agent_share or both'],
  ]);
  assert.equal(issues(withCheck(3, { type: 'talk_ratio', max_agent_share: 0.5, min_agent_share: 0.6 })), [
    ['parameters.3.check.min_agent_share', 'min_agent_share must be below max_agent_share'],
  ]);
});

test('unknown check types, misspelt check fields and bad time windows are rejected', () => {
  assert.equal(issues(withCheck(0, { type: 'agent_sings', phrases: { en: ['hi'] } })), [
    ['parameters.0.check.type', 'check.type must be one of agent_says, agent_avoids, customer_says, talk_ratio, max_silence'],
  ]);
  const misspelt = issues(withCheck(0, { type: 'agent_says', phrases: { en: ['hi'] }, within_second: 15 }));
  assert.is(misspelt.length, 1);
  assert.is(misspelt[0]![0], 'parameters.0.check');
  assert.match(misspelt[0]![1], 'within_second');
  assert.equal(issues(withCheck(0, { type: 'agent_says', phrases: { en: ['hi'] }, within_seconds: 0 })), [
    ['parameters.0.check.within_seconds', 'within_seconds must be greater than 0'],
  ]);
  assert.equal(issues(withCheck(0, { type: 'max_silence', max_seconds: -3 })), [
    ['parameters.0.check.max_seconds', 'max_seconds must be greater than 0'],
  ]);
});

test('misspelt scorecard and parameter fields are rejected, not dropped', () => {
  assert.equal(issues({ ...valid, pass_treshold: 70 }).map(([path]) => path), ['']);
  assert.equal(issues(withParameter(0, { max_scor: 10 })).map(([path]) => path), ['parameters.0']);
});

test('the scorecard name is required', () => {
  assert.equal(issues({ ...valid, name: ' ' }), [['name', 'name must not be empty']]);
  const { name: _ignored, ...withoutName } = valid;
  assert.equal(issues(withoutName), [['name', 'name must be text']]);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TranscriptSegment } from '../../../infra/analysis/port.ts';
import { phrasesForLanguage, scoreQa } from '../../../infra/analysis/qa.ts';
import { scorecardSchema, type Scorecard } from '../../../infra/analysis/scorecard-schema.ts';

const renewalQa: Scorecard = scorecardSchema.parse({
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [
    { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning', 'hello'], hi: ['नमस्ते', 'namaste'] }, within_seconds: 15 } },
    { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } },
    { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['yes'] } } },
    { name: 'talk_balance', max_score: 10, check: { type: 'talk_ratio', max_agent_share: 0.7 } },
  ],
});

function segment(speaker: string, text: string, start_time: number, end_time: number): TranscriptSegment {
  return { speaker, text, start_time, end_time };
}

test('the example scorecard: a threatening, talkative agent scores exactly 42.9 and fails', () => {
  const segments = [
    segment('agent', 'Good morning, sir. Your EMI is overdue.', 0.5, 10.5), // agent 10 s
    segment('customer', 'Yes, I know.', 11, 13), // customer 2 s
    segment('agent', 'If you do not pay we will take legal action.', 13.5, 23.5), // agent 10 s
    segment('customer', 'Okay, I will pay on Friday.', 24, 27), // customer 3 s -> agent share 20/25 = 0.8
  ];
  const result = scoreQa(segments, 'en-IN', renewalQa);
  assert.equal(result.parameter_scores, [
    { parameter_name: 'greeting', score: 10, max_score: 10, passed: true },
    { parameter_name: 'no_threats', score: 0, max_score: 30, passed: false },
    { parameter_name: 'customer_confirms', score: 20, max_score: 20, passed: true },
    { parameter_name: 'talk_balance', score: 0, max_score: 10, passed: false },
  ]);
  assert.is(result.overall_score, 42.9); // 100 × 30 / 70
  assert.is(result.passed, false);
  assert.is(result.pass_threshold, 70);
});

test('the example scorecard: a clean Hindi call scores 100 and passes', () => {
  const segments = [
    segment('agent', 'नमस्ते सर, आपका लोन रिन्यूअल के लिए ड्यू है।', 1, 5),
    segment('customer', 'हाँ जी, yes, कर दीजिए।', 5.5, 9),
    segment('agent', 'धन्यवाद सर।', 9.5, 10.5),
  ];
  const result = scoreQa(segments, 'hi-IN', renewalQa);
  assert.is(result.overall_score, 100);
  assert.is(result.passed, true);
  assert.ok(result.parameter_scores.every((parameter) => parameter.passed));
});

test('agent_says within_seconds: a greeting after the window does not count', () => {
  const segments = [segment('agent', 'Sir, one moment.', 0, 3), segment('agent', 'Hello sir!', 20, 21), segment('customer', 'Yes', 22, 23)];
  const greeting = scoreQa(segments, 'en-IN', renewalQa).parameter_scores[0]!;
  assert.equal(greeting, { parameter_name: 'greeting', score: 0, max_score: 10, passed: false });
});

test('overall is rounded to one decimal and passes at exactly the threshold', () => {
  const card = scorecardSchema.parse({
    name: 'Thirds',
    pass_threshold: 66.7,
    parameters: [
      { name: 'a', max_score: 1, check: { type: 'customer_says', phrases: { en: ['yes'] } } },
      { name: 'b', max_score: 1, check: { type: 'customer_says', phrases: { en: ['sure'] } } },
      { name: 'c', max_score: 1, check: { type: 'customer_says', phrases: { en: ['never said'] } } },
    ],
  });
  const result = scoreQa([segment('customer', 'Yes, sure.', 0, 1)], 'en-IN', card);
  assert.is(result.overall_score, 66.7);
  assert.is(result.passed, true);
});

test("phrase lists: the call's language plus English; all lists when the language has none", () => {
  const lists = { en: ['hello'], hi: ['नमस्ते'], ta: ['வணக்கம்'] };
  assert.equal(phrasesForLanguage(lists, 'hi-IN'), ['नमस्ते', 'hello']);
  assert.equal(phrasesForLanguage(lists, 'en-IN'), ['hello']);
  assert.equal(phrasesForLanguage(lists, 'te-IN'), ['hello', 'नमस्ते', 'வணக்கம்']);
  assert.equal(phrasesForLanguage({ hi: ['नमस्ते'] }, 'hi-IN'), ['नमस्ते']);
});

test('agent_avoids catches an English threat inside a Tamil call', () => {
  const segments = [segment('agent', 'நீங்க கட்டலைன்னா legal action எடுப்போம்.', 0, 4), segment('customer', 'சரி', 5, 6)];
  const noThreats = scoreQa(segments, 'ta-IN', renewalQa).parameter_scores[1]!;
  assert.is(noThreats.passed, false);
});

test('agent_says in_last_seconds, max_silence and min_agent_share', () => {
  const card = scorecardSchema.parse({
    name: 'Extras',
    pass_threshold: 50,
    parameters: [
      { name: 'closing', max_score: 5, check: { type: 'agent_says', phrases: { en: ['thank you'] }, in_last_seconds: 10 } },
      { name: 'no_dead_air', max_score: 5, check: { type: 'max_silence', max_seconds: 5 } },
      { name: 'agent_engaged', max_score: 5, check: { type: 'talk_ratio', min_agent_share: 0.3, max_agent_share: 0.9 } },
    ],
  });
  const segments = [
    segment('agent', 'Thank you for picking up.', 0, 2),
    segment('customer', 'Tell me, what is the offer? I have some time now, so go on and explain.', 2.5, 12.5),
    segment('agent', 'One moment please.', 19, 20), // 6.5 s of silence before this
    segment('customer', 'Okay bye.', 21, 40),
  ];
  const scores = scoreQa(segments, 'en-IN', card).parameter_scores.map((parameter) => parameter.passed);
  assert.equal(scores, [false, false, false]);
  const better = [
    segment('agent', 'Hello, this is about your renewal.', 0, 10),
    segment('customer', 'Go on.', 11, 13),
    segment('agent', 'Thank you for your time.', 14, 20),
  ];
  assert.equal(scoreQa(better, 'en-IN', card).parameter_scores.map((parameter) => parameter.passed), [true, true, true]);
});

test('unlabelled speakers: whoever opens the call is the agent', () => {
  const segments = [segment('speaker_1', 'Hello sir, good morning.', 0, 3), segment('speaker_2', 'Yes, who is this?', 4, 7)];
  const result = scoreQa(segments, 'en-IN', renewalQa);
  assert.equal(result.parameter_scores.map((parameter) => parameter.passed), [true, true, true, true]);
});

test('an empty transcript: avoid-checks hold, say-checks and talk balance do not', () => {
  const result = scoreQa([], 'en-IN', renewalQa);
  assert.equal(result.parameter_scores.map((parameter) => parameter.passed), [false, true, false, false]);
  assert.is(result.overall_score, 42.9);
});

test.run();

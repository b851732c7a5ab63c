// The trained call classifier (infra/analysis/classifier/): the softmax learner learns a separable set and is
// deterministic; the training pipeline gives the same file twice; the committed model is within its size bound
// and loads; a model file that is too large or malformed is refused; the combination only moves an answer when
// the model may override, and keeps the score inside the chosen bucket; features stay bounded on a huge call.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { callFeatures, MODEL_TEXT_CHARACTERS } from '../../../infra/analysis/classifier/call-features.ts';
import {
  callClassifierFromFile,
  callClassifierFileSchema,
  DEFAULT_MODEL_PATH,
  INTENT_CLASSES,
  loadCallClassifier,
  MAX_MODEL_BYTES,
  SENTIMENT_CLASSES,
} from '../../../infra/analysis/classifier/call-classifier-model.ts';
import {
  classifyCall,
  combinedIntent,
  combinedLabel,
  combinedSentiment,
  createClassifiedAnalyzer,
  readRules,
  scoreInBucket,
} from '../../../infra/analysis/classifier/classified-analyzer.ts';
import { softmaxProbabilities, trainSoftmax, type SparseExample } from '../../../infra/analysis/classifier/softmax-regression.ts';
import { analyseTranscript } from '../../../infra/analysis/analyse-transcript.ts';
import { createAnalysisPool } from '../../../infra/analysis/analysis-pool.ts';
import { createLexiconAnalyzer } from '../../../infra/analysis/lexicon-analyzer.ts';
import { sentimentBucket } from '../../../infra/analysis/sentiment.ts';
import { readTrainingCalls, trainCallClassifier } from '../../../scripts/train-call-classifier.ts';
import { RENEWAL_TRANSCRIPT } from '../../support/transcripts.ts';

/** Three classes, each announced by its own feature, with a shared noise feature on every example. */
function separableSet(): SparseExample[] {
  const examples: SparseExample[] = [];
  for (let i = 0; i < 30; i += 1) {
    const label = i % 3;
    examples.push({ features: new Map([[label, 1], [3, 0.5], [4 + (i % 2), 0.3]]), label });
  }
  return examples;
}

test('trainSoftmax learns a tiny separable set: every example right, and sure of it', () => {
  const model = trainSoftmax(separableSet(), { classes: 3, features: 6, l2: 0.001, epochs: 200, learningRate: 0.1 });
  for (const example of separableSet()) {
    const p = softmaxProbabilities(model, example.features);
    assert.ok(p[example.label]! > 0.9, `class ${example.label}: ${p.join(', ')}`);
  }
});

test('trainSoftmax is deterministic: the same examples give bit-identical weights', () => {
  const options = { classes: 3, features: 6, l2: 0.01, epochs: 50 };
  const a = trainSoftmax(separableSet(), options);
  const b = trainSoftmax(separableSet(), options);
  assert.equal(Array.from(a.weights), Array.from(b.weights));
  assert.equal(Array.from(a.bias), Array.from(b.bias));
});

test('trainSoftmax refuses a label outside its classes and an empty set', () => {
  assert.throws(() => trainSoftmax([{ features: new Map([[0, 1]]), label: 3 }], { classes: 3, features: 1, l2: 0, epochs: 1 }), /not a class index/);
  assert.throws(() => trainSoftmax([], { classes: 3, features: 1, l2: 0, epochs: 1 }), /no training examples/);
});

test('the training pipeline is deterministic: the same calls give the same model file, which loads', () => {
  const calls = readTrainingCalls(['bench/data/labelled-transcripts.json']).slice(0, 40);
  const settings = { l2Grid: [0.001], epochs: 20, featureSets: ['text+rules', 'text'] as const };
  const first = trainCallClassifier(calls, () => {}, settings);
  const second = trainCallClassifier(calls, () => {}, settings);
  assert.is(first.text, second.text);
  const classifier = callClassifierFromFile(callClassifierFileSchema.parse(JSON.parse(first.text)));
  assert.is(classifier.vocabulary.size, first.file.features.length);
});

test('the committed model is within its size bound, has the expected classes and loads', () => {
  assert.ok(statSync(DEFAULT_MODEL_PATH).size <= MAX_MODEL_BYTES, `${statSync(DEFAULT_MODEL_PATH).size} bytes`);
  const classifier = loadCallClassifier();
  assert.equal(classifier.sentiment.classes, SENTIMENT_CLASSES);
  assert.equal(classifier.intent.classes, INTENT_CLASSES);
  assert.ok(classifier.vocabulary.size > 100);
});

test('a model file over the size bound, or not matching its own shape, is refused', () => {
  const directory = mkdtempSync(join(tmpdir(), 'call-classifier-'));
  try {
    const big = join(directory, 'big.json');
    writeFileSync(big, ' '.repeat(MAX_MODEL_BYTES + 1));
    assert.throws(() => loadCallClassifier(big), /over the limit/);

    const file = JSON.parse(readFileSync(DEFAULT_MODEL_PATH, 'utf8'));
    file.intent.weights[0].pop();
    const short = join(directory, 'short.json');
    writeFileSync(short, JSON.stringify(file));
    assert.throws(() => loadCallClassifier(short), /row 0 has/);

    const renamed = { ...JSON.parse(readFileSync(DEFAULT_MODEL_PATH, 'utf8')), format: 'call-classifier/0' };
    const old = join(directory, 'old.json');
    writeFileSync(old, JSON.stringify(renamed));
    assert.throws(() => loadCallClassifier(old));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('combinedLabel: the rules answer unless the model differs and is sure enough; null never overrides', () => {
  const sure = { label: 'complaint', probability: 0.8, probabilities: [] };
  assert.is(combinedLabel('payment_query', sure, 0.7), 'complaint');
  assert.is(combinedLabel('payment_query', sure, 0.9), 'payment_query');
  assert.is(combinedLabel('payment_query', sure, null), 'payment_query');
  assert.is(combinedLabel('payment_query', sure, 0), 'complaint');
});

test('scoreInBucket keeps the score inside the chosen bucket', () => {
  assert.is(sentimentBucket(scoreInBucket('positive', [0.4, 0.3, 0.3])), 'positive');
  assert.is(sentimentBucket(scoreInBucket('negative', [0.1, 0.2, 0.7])), 'negative');
  assert.is(sentimentBucket(scoreInBucket('neutral', [0.05, 0.05, 0.9])), 'neutral');
  assert.is(scoreInBucket('positive', [0, 0.1, 0.9]), 0.9);
});

test('with override_at null the classified analyzer answers exactly as the rules', () => {
  const classifier = loadCallClassifier();
  const never = { ...classifier, sentiment: { ...classifier.sentiment, overrideAt: null }, intent: { ...classifier.intent, overrideAt: null } };
  const rules = createLexiconAnalyzer();
  const input = { segments: RENEWAL_TRANSCRIPT, language: 'en-IN' };
  const analyzer = createClassifiedAnalyzer(never);
  assert.equal(analyzer.sentiment(input), rules.sentiment(input));
  assert.is(analyzer.intent(input), rules.intent(input));
});

test('an overridden sentiment moves the customer\'s score with the overall one, in the model\'s bucket', () => {
  const classifier = loadCallClassifier();
  const prediction = classifyCall(classifier, RENEWAL_TRANSCRIPT, 'en-IN');
  const ruleBucket = sentimentBucket(prediction.rules.sentiment.overall);
  const other = SENTIMENT_CLASSES.find((c) => c !== ruleBucket)!;
  const forced = { ...prediction, sentiment: { label: other, probability: 1, probabilities: SENTIMENT_CLASSES.map((c) => (c === other ? 1 : 0)) } };
  const result = combinedSentiment(forced, 0.5, RENEWAL_TRANSCRIPT);
  assert.is(sentimentBucket(result.overall), other);
  assert.is(result.by_speaker.customer, result.overall);
  assert.is(result.by_speaker.agent, prediction.rules.sentiment.by_speaker.agent);
  const none = { ...prediction, intent: { label: 'none', probability: 1, probabilities: [] } };
  assert.is(combinedIntent(none, 0.5), null);
});

test('the words after a turn\'s last contrastive word and the first customer turn are their own features', () => {
  const segments = [
    { speaker: 'agent', text: 'Sir, a ULIP plan with market-linked returns?', start_time: 0, end_time: 1 },
    { speaker: 'customer', text: 'I appreciate the call, but I prefer keeping them separate.', start_time: 1, end_time: 2 },
    { speaker: 'agent', text: 'Understood, sir.', start_time: 2, end_time: 3 },
    { speaker: 'customer', text: 'Thank you.', start_time: 3, end_time: 4 },
  ];
  const names = [...callFeatures(segments, 'en-IN', readRules(segments, 'en-IN')).keys()];
  const after = names.filter((name) => name.startsWith('t:')).sort();
  assert.equal(after, ['t:i', 't:i prefer', 't:keeping', 't:keeping them', 't:prefer', 't:prefer keeping', 't:separate', 't:them', 't:them separate']);
  assert.ok(names.includes('f:appreciate') && names.includes('f:but i'));
  assert.not.ok(names.includes('f:thank'), 'the last turn is not the first');
  // Hindi पर opens a clause as "but" and is a postposition elsewhere: only the first counts.
  const hindi = [
    { speaker: 'agent', text: 'मैडम, एसआईपी शुरू करेंगी?', start_time: 0, end_time: 1 },
    { speaker: 'customer', text: 'अच्छा लगा, पर अभी बजट तंग है। दुकान पर ग्राहक है', start_time: 1, end_time: 2 },
  ];
  const hindiAfter = [...callFeatures(hindi, 'hi-IN', readRules(hindi, 'hi-IN')).keys()].filter((name) => name.startsWith('t:') && !name.includes(' '));
  assert.equal(hindiAfter.sort(), ['t:अभी', 't:तंग', 't:दुकान', 't:पर', 't:बजट', 't:ग्राहक', 't:है'].sort());
});

test('a huge call\'s features stay within the model\'s vocabulary and its text budget', () => {
  const classifier = loadCallClassifier();
  const flood = 'my loan payment is late and I am not happy with the charges '.repeat(20_000);
  const segments = [
    { speaker: 'agent', text: 'Hello, calling about your loan.', start_time: 0, end_time: 1 },
    { speaker: 'customer', text: flood, start_time: 1, end_time: 2 },
  ];
  const rules = readRules(segments.map((s) => ({ ...s, text: s.text.slice(0, 2_000) })), 'en-IN');
  const features = callFeatures(segments, 'en-IN', rules, (name) => classifier.vocabulary.has(name));
  assert.ok(flood.length > MODEL_TEXT_CHARACTERS * 50);
  assert.ok(features.size <= classifier.vocabulary.size);
  for (const name of features.keys()) assert.ok(classifier.vocabulary.has(name), name);
});

test('ANALYSIS_CLASSIFIER=on: the pool\'s threads load the model and answer as the classified analyzer does', async () => {
  const input = {
    segments: [
      { speaker: 'agent', text: 'Sir, your EMI of 4,200 is overdue since the 5th.', start_time: 0, end_time: 3 },
      { speaker: 'customer', text: 'Salary comes on the 9th, I will pay that day. Stop calling my office.', start_time: 3.5, end_time: 7 },
    ],
    language: 'en-IN',
    features: ['summary', 'sentiment', 'intent'],
    disposition: null,
    scorecard: null,
  };
  const expected = analyseTranscript(input, createClassifiedAnalyzer(loadCallClassifier()));
  const pool = createAnalysisPool({ threads: 1, budgetMs: 60_000, classifier: true });
  try {
    const answered = await pool.analyse(input);
    assert.equal(answered, expected);
    assert.ok((await pool.workerThreadId()) > 0);
  } finally {
    await pool.close();
  }
});

test.run();

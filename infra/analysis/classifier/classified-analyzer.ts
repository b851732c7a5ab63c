/**
 * The lexicon analyzer with the trained call classifier on top (ANALYSIS_CLASSIFIER=on; docs/analysis.md, "The
 * trained call classifier"). The rules read the call first; the classifier reads the call (the rules' readings too
 * when the model was trained with them; the committed one was not, cross-validation preferred the text alone), and
 * its answer replaces the rules' only where the model file says it may: when it differs and its probability is at
 * least the task's `override_at` (chosen by cross-validation on the training data, never on a held-out slice).
 * Summary and QA are the rules'; the summary names the combined intent and tone (analyse-transcript.ts hands them).
 *
 * Pure and synchronous, like the lexicon analyzer: it runs on the analysis pool's threads.
 */
import { detectIntent, intentScores } from '../intent.ts';
import type { IntentLabel } from '../intent-labels.ts';
import { createLexiconAnalyzer } from '../lexicon-analyzer.ts';
import type { Analyzer, SentimentBucket, SentimentResult, TranscriptSegment } from '../port.ts';
import { analyzeSentiment, customerVoice, NEGATIVE_THRESHOLD, POSITIVE_THRESHOLD, sentimentBucket } from '../sentiment.ts';
import { callFeatures, type RuleReading } from './call-features.ts';
import type { CallClassifier, TaskModel } from './call-classifier-model.ts';
import { softmaxProbabilities } from './softmax-regression.ts';

export interface TaskPrediction {
  label: string;
  probability: number;
  probabilities: number[];
}

export interface CallPrediction {
  rules: RuleReading;
  sentiment: TaskPrediction;
  intent: TaskPrediction;
}

function predict(task: TaskModel, features: ReadonlyMap<number, number>): TaskPrediction {
  const probabilities = softmaxProbabilities(task.weights, features);
  let best = 0;
  for (let c = 1; c < probabilities.length; c += 1) if (probabilities[c]! > probabilities[best]!) best = c;
  return { label: task.classes[best]!, probability: probabilities[best]!, probabilities };
}

export function readRules(segments: readonly TranscriptSegment[], language: string): RuleReading {
  return { sentiment: analyzeSentiment(segments, language), intent: detectIntent(segments, language), intentScores: intentScores(segments, language) };
}

/** The rules' readings and both models' answers for one call. */
export function classifyCall(classifier: CallClassifier, segments: readonly TranscriptSegment[], language: string, rules = readRules(segments, language)): CallPrediction {
  const named = callFeatures(segments, language, rules, (name) => classifier.vocabulary.has(name));
  const features = new Map<number, number>();
  for (const [name, value] of named) features.set(classifier.vocabulary.get(name)!, value);
  return { rules, sentiment: predict(classifier.sentiment, features), intent: predict(classifier.intent, features) };
}

/** The rules' answer, or the model's where it differs and is at least `overrideAt` sure. */
export function combinedLabel(ruleLabel: string, prediction: TaskPrediction, overrideAt: number | null): string {
  if (overrideAt === null || prediction.label === ruleLabel) return ruleLabel;
  return prediction.probability >= overrideAt ? prediction.label : ruleLabel;
}

const OVERRIDDEN_POSITIVE_FLOOR = 0.3;

/**
 * A score in [-1, 1] inside the chosen bucket: the model's expectation p(positive) - p(negative), moved into the
 * bucket's range when it lies outside (the bucket is what was decided; the score says how strongly).
 */
export function scoreInBucket(bucket: SentimentBucket, probabilities: readonly number[]): number {
  const expectation = probabilities[2]! - probabilities[0]!;
  const bounded =
    bucket === 'positive'
      ? Math.max(OVERRIDDEN_POSITIVE_FLOOR, expectation)
      : bucket === 'negative'
        ? Math.min(-OVERRIDDEN_POSITIVE_FLOOR, expectation)
        : Math.min(POSITIVE_THRESHOLD, Math.max(NEGATIVE_THRESHOLD, expectation));
  return Math.round(bounded * 1000) / 1000;
}

export function combinedSentiment(prediction: CallPrediction, overrideAt: number | null, segments: readonly TranscriptSegment[]): SentimentResult {
  const rules = prediction.rules.sentiment;
  const bucket = combinedLabel(sentimentBucket(rules.overall), prediction.sentiment, overrideAt) as SentimentBucket;
  if (bucket === sentimentBucket(rules.overall)) return rules;
  const overall = scoreInBucket(bucket, prediction.sentiment.probabilities);
  const by_speaker = { ...rules.by_speaker };
  // The customer's own score is the overall one: it changes with it when one speaker is the customer.
  const customers = new Set(customerVoice(segments).map((segment) => segment.speaker));
  if (customers.size === 1) by_speaker[[...customers][0]!] = overall;
  return { overall, by_speaker };
}

/**
 * At most this many words from the customer: a reply this short ("Sure, I'm interested, tell me more.") gives the
 * model a handful of features, and its answer there was often a label the words do not say (the sandbox's own
 * simulated replies: 10 of 108 read wrong with the model deciding, 5 with the rules), while the rules matched an
 * explicit phrase. On such a call the rules' intent stands when they found one.
 */
export const SHORT_REPLY_WORDS = 8;

export function customerWordCount(segments: readonly TranscriptSegment[]): number {
  return customerVoice(segments).reduce((count, segment) => count + segment.text.split(/\s+/u).filter(Boolean).length, 0);
}

export function combinedIntent(prediction: CallPrediction, overrideAt: number | null, customerWords = Number.POSITIVE_INFINITY): IntentLabel | null {
  if (prediction.rules.intent !== null && customerWords <= SHORT_REPLY_WORDS) return prediction.rules.intent;
  const label = combinedLabel(prediction.rules.intent ?? 'none', prediction.intent, overrideAt);
  return label === 'none' ? null : (label as IntentLabel);
}

export function createClassifiedAnalyzer(classifier: CallClassifier): Analyzer {
  const rules = createLexiconAnalyzer();
  // analyse-transcript.ts asks for intent and sentiment of the same segments: the call is read once for both.
  const predictions = new WeakMap<readonly TranscriptSegment[], { language: string; prediction: CallPrediction }>();
  const predictionOf = (segments: TranscriptSegment[], language: string): CallPrediction => {
    const cached = predictions.get(segments);
    if (cached && cached.language === language) return cached.prediction;
    const prediction = classifyCall(classifier, segments, language);
    predictions.set(segments, { language, prediction });
    return prediction;
  };
  return {
    ...rules,
    sentiment: ({ segments, language }) => combinedSentiment(predictionOf(segments, language), classifier.sentiment.overrideAt, segments),
    intent: ({ segments, language }) => combinedIntent(predictionOf(segments, language), classifier.intent.overrideAt, customerWordCount(segments)),
  };
}

/**
 * Trains the call classifier (infra/analysis/classifier/) from the labelled calls in bench/data and writes
 * infra/analysis/classifier/call-classifier.json. Deterministic: the same data give the same file.
 *
 *   npm run train:classifier            train, cross-validate, write the model, print the figures
 *   npm run train:classifier -- --check train and compare with the committed file (exit 1 when it differs)
 *
 * Training data: bench/data/labelled-transcripts.json, the held-out, held-out-2, held-out-3 and (since round 5, spent)
 * held-out-4 slices, and the round-5 training calls (training-5-transcripts.json). Never
 * bench/data/held-out-5-transcripts.json: that slice measures the result once.
 *
 * Choices made by 5-fold cross-validation on the training data only. Folds are by scenario: each slice tells the
 * same scenario in every language (en-t05, hi-t05, ... in one file), so all of a scenario's versions fall in one
 * fold, and a fold is predicted by a model that never saw its scenarios in another language.
 *   1. per feature set, the L2 penalty (the best mean of sentiment-sign and intent accuracy, model alone);
 *   2. per task, `override_at`: the probability at which the model's answer replaces the rules'. It is chosen on
 *      the out-of-fold predictions of the untuned calls (held-out-3, held-out-4 and training-5: the rules were never
 *      tuned on them; on the others the rules' readings look better than they will on new calls); ties go to all calls, then to
 *      the more conservative threshold. `null` (the rules always answer) is a candidate;
 *   3. the feature set: with the rules' readings as features, or without them (the model then reads the text only,
 *      and cannot learn to trust rules that were tuned on three of the six training files): the one whose
 *      combination is right most often on the untuned calls, both tasks together (ties: all calls).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { callFeatures } from '../infra/analysis/classifier/call-features.ts';
import {
  CALL_CLASSIFIER_FORMAT,
  DEFAULT_MODEL_PATH,
  INTENT_CLASSES,
  MAX_MODEL_BYTES,
  SENTIMENT_CLASSES,
  type CallClassifierFile,
} from '../infra/analysis/classifier/call-classifier-model.ts';
import { readRules } from '../infra/analysis/classifier/classified-analyzer.ts';
import { softmaxProbabilities, trainSoftmax, type SoftmaxWeights, type SparseExample } from '../infra/analysis/classifier/softmax-regression.ts';
import { sentimentBucket } from '../infra/analysis/sentiment.ts';
import { readLabelledTranscripts, type LabelledTranscript } from '../bench/labelled-transcripts.ts';

export const TRAINING_FILES = [
  'bench/data/labelled-transcripts.json',
  'bench/data/held-out-transcripts.json',
  'bench/data/held-out-2-transcripts.json',
  'bench/data/held-out-3-transcripts.json',
  'bench/data/held-out-4-transcripts.json',
  'bench/data/training-5-transcripts.json',
] as const;
/**
 * The calls whose rule readings are honest (the rules were never tuned on them): where `override_at` and the feature
 * set are chosen. The rules were tuned on the first three files only.
 */
export const UNTUNED_FILES: readonly string[] = [
  'bench/data/held-out-3-transcripts.json',
  'bench/data/held-out-4-transcripts.json',
  'bench/data/training-5-transcripts.json',
];

export const FOLDS = 5;
export const L2_GRID = [0.00001, 0.00003, 0.0001] as const;
/** With the rules' readings (their intent, scores and sentiment) as features, or the text alone. */
export const FEATURE_SETS = ['text+rules', 'text'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];
/** The rules' readings among the `r:` features; the counts and the language stay in both sets. */
const RULE_READINGS = /^r:(intent|intent-score|sign|score|last-valence)\b/u;
export const OVERRIDE_GRID = [0, 0.5, 0.6, 0.7, 0.8, 0.9, null] as const;
export const EPOCHS = 150;
export const LEARNING_RATE = 0.05;
/** A word or n-gram seen in fewer calls is noise (and weight) rather than signal. */
export const MIN_DOCUMENT_FREQUENCY = 2;
export const MAX_FEATURES = 12_000;
const WEIGHT_DECIMALS = 4;


export interface TrainingCall {
  key: string;
  file: string;
  group: string;
  sentiment: number;
  intent: number;
  /** Rule answers as class indices. */
  rulesSentiment: number;
  rulesIntent: number;
  features: Map<string, number>;
}

const root = fileURLToPath(new URL('../', import.meta.url));

export function readTrainingCalls(files: readonly string[] = TRAINING_FILES): TrainingCall[] {
  const calls: TrainingCall[] = [];
  for (const file of files) {
    const transcripts = readLabelledTranscripts(`${root}${file}`);
    for (const t of transcripts) calls.push(trainingCall(file, t));
  }
  return calls;
}

export function trainingCall(file: string, t: LabelledTranscript): TrainingCall {
  const rules = readRules(t.segments, t.language);
  const intent = INTENT_CLASSES.indexOf((t.intent ?? 'none') as (typeof INTENT_CLASSES)[number]);
  if (intent < 0) throw new Error(`${file} ${t.id}: unknown intent ${t.intent}`);
  return {
    key: `${file}:${t.id}`,
    file,
    group: t.variant ?? t.language.slice(0, 2),
    sentiment: t.sentiment + 1,
    intent,
    rulesSentiment: SENTIMENT_CLASSES.indexOf(sentimentBucket(rules.sentiment.overall)),
    rulesIntent: INTENT_CLASSES.indexOf(rules.intent ?? 'none'),
    features: callFeatures(t.segments, t.language, rules),
  };
}

/** The scenario of a call: its file and its id without the language prefix (`held-out-3...:t05`). */
export function scenarioOf(key: string): string {
  return key.replace(/:[a-z]+-(?=[^:]*$)/u, ':');
}

/** FNV-1a of the call's scenario: which fold it falls in, the same on every run. */
export function foldOf(callKey: string, folds = FOLDS): number {
  const key = scenarioOf(callKey);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % folds;
}

/** The names seen in at least MIN_DOCUMENT_FREQUENCY calls, most frequent first (then by name), at most `max`. */
export function buildVocabulary(calls: readonly TrainingCall[], featureSet: FeatureSet = 'text+rules', max = MAX_FEATURES): string[] {
  const frequency = new Map<string, number>();
  for (const call of calls) {
    for (const name of call.features.keys()) {
      if (featureSet === 'text' && RULE_READINGS.test(name)) continue;
      frequency.set(name, (frequency.get(name) ?? 0) + 1);
    }
  }
  return [...frequency]
    .filter(([name, count]) => count >= MIN_DOCUMENT_FREQUENCY || name.startsWith('r:'))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([name]) => name);
}

function vectorize(call: TrainingCall, index: ReadonlyMap<string, number>): Map<number, number> {
  const vector = new Map<number, number>();
  for (const [name, value] of call.features) {
    const at = index.get(name);
    if (at !== undefined) vector.set(at, value);
  }
  return vector;
}

interface TrainedTasks {
  vocabulary: string[];
  sentiment: SoftmaxWeights;
  intent: SoftmaxWeights;
}

export function trainTasks(calls: readonly TrainingCall[], l2: number, epochs = EPOCHS, featureSet: FeatureSet = 'text+rules'): TrainedTasks {
  const vocabulary = buildVocabulary(calls, featureSet);
  const index = new Map(vocabulary.map((name, i) => [name, i]));
  const vectors = calls.map((call) => vectorize(call, index));
  const examples = (label: (call: TrainingCall) => number): SparseExample[] => calls.map((call, i) => ({ features: vectors[i]!, label: label(call) }));
  const options = { features: vocabulary.length, l2, epochs, learningRate: LEARNING_RATE };
  return {
    vocabulary,
    sentiment: trainSoftmax(examples((c) => c.sentiment), { ...options, classes: SENTIMENT_CLASSES.length }),
    intent: trainSoftmax(examples((c) => c.intent), { ...options, classes: INTENT_CLASSES.length }),
  };
}

/** Out-of-fold class probabilities of every call, per task. */
export interface OutOfFold {
  sentiment: number[][];
  intent: number[][];
}

export function crossValidate(calls: readonly TrainingCall[], l2: number, epochs = EPOCHS, featureSet: FeatureSet = 'text+rules'): OutOfFold {
  const out: OutOfFold = { sentiment: new Array(calls.length), intent: new Array(calls.length) };
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const training = calls.filter((call) => foldOf(call.key) !== fold);
    const model = trainTasks(training, l2, epochs, featureSet);
    const index = new Map(model.vocabulary.map((name, i) => [name, i]));
    calls.forEach((call, i) => {
      if (foldOf(call.key) !== fold) return;
      const vector = vectorize(call, index);
      out.sentiment[i] = softmaxProbabilities(model.sentiment, vector);
      out.intent[i] = softmaxProbabilities(model.intent, vector);
    });
  }
  return out;
}

const argmax = (values: readonly number[]) => values.reduce((best, v, i) => (v > values[best]! ? i : best), 0);

/** The answer of the combination: the rules', or the model's where it differs and is at least `overrideAt` sure. */
export function combined(rules: number, probabilities: readonly number[], overrideAt: number | null): number {
  const model = argmax(probabilities);
  if (overrideAt === null || model === rules) return rules;
  return probabilities[model]! >= overrideAt ? model : rules;
}

export interface GroupAccuracy {
  group: string;
  calls: number;
  rules: number;
  model: number;
  combined: number;
}

export interface TaskFigures {
  override_at: number | null;
  /** Correct answers per group (out-of-fold), rules alone, model alone, the combination. */
  all: GroupAccuracy[];
  untuned: GroupAccuracy[];
  /** Accuracy of each candidate threshold: on the untuned calls, then on all calls. */
  candidates: { override_at: number | null; untuned: number; all: number }[];
}

function accuracyByGroup(calls: readonly TrainingCall[], truth: (c: TrainingCall) => number, rules: (c: TrainingCall) => number, probabilities: number[][], overrideAt: number | null): GroupAccuracy[] {
  const groups = new Map<string, GroupAccuracy>();
  calls.forEach((call, i) => {
    const row = groups.get(call.group) ?? { group: call.group, calls: 0, rules: 0, model: 0, combined: 0 };
    row.calls += 1;
    if (rules(call) === truth(call)) row.rules += 1;
    if (argmax(probabilities[i]!) === truth(call)) row.model += 1;
    if (combined(rules(call), probabilities[i]!, overrideAt) === truth(call)) row.combined += 1;
    groups.set(call.group, row);
  });
  const order = ['en', 'hi', 'hinglish', 'mr', 'ta', 'te'];
  return [...groups.values()].sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
}

export function chooseOverride(calls: readonly TrainingCall[], truth: (c: TrainingCall) => number, rules: (c: TrainingCall) => number, probabilities: number[][]): TaskFigures {
  const all = calls.map((_, i) => i);
  const untuned = all.filter((i) => UNTUNED_FILES.includes(calls[i]!.file));
  const accuracy = (indices: number[], overrideAt: number | null) =>
    indices.filter((i) => combined(rules(calls[i]!), probabilities[i]!, overrideAt) === truth(calls[i]!)).length / Math.max(1, indices.length);
  const candidates = OVERRIDE_GRID.map((overrideAt) => ({ override_at: overrideAt, untuned: accuracy(untuned, overrideAt), all: accuracy(all, overrideAt) }));
  // The grid runs from bold to conservative: on a tie the later (more conservative) candidate wins.
  let best = candidates[0]!;
  for (const candidate of candidates) {
    if (candidate.untuned > best.untuned || (candidate.untuned === best.untuned && candidate.all >= best.all)) best = candidate;
  }
  const untunedCalls = untuned.map((i) => calls[i]!);
  const untunedProbabilities = untuned.map((i) => probabilities[i]!);
  return {
    override_at: best.override_at,
    all: accuracyByGroup(calls, truth, rules, probabilities, best.override_at),
    untuned: accuracyByGroup(untunedCalls, truth, rules, untunedProbabilities, best.override_at),
    candidates,
  };
}

const round = (value: number) => Number(value.toFixed(WEIGHT_DECIMALS)) + 0;

function taskJson(model: SoftmaxWeights, classes: readonly string[], overrideAt: number | null): CallClassifierFile['sentiment'] {
  const weights: number[][] = [];
  for (let c = 0; c < model.classes; c += 1) {
    weights.push(Array.from(model.weights.subarray(c * model.features, (c + 1) * model.features), round));
  }
  return { classes: [...classes], bias: Array.from(model.bias, round), weights, override_at: overrideAt };
}

export interface TrainingResult {
  file: CallClassifierFile;
  text: string;
}

export interface TrainingSettings {
  l2Grid: readonly number[];
  epochs: number;
  featureSets: readonly FeatureSet[];
}

const DEFAULT_SETTINGS: TrainingSettings = { l2Grid: L2_GRID, epochs: EPOCHS, featureSets: FEATURE_SETS };

interface Candidate {
  featureSet: FeatureSet;
  l2: number;
  sentiment: TaskFigures;
  intent: TaskFigures;
}

const bestOf = (figures: TaskFigures) => figures.candidates.find((c) => c.override_at === figures.override_at)!;

/**
 * The whole training: cross-validation, choices, the final model on every call, the file's text. `settings`
 * defaults to the committed model's; tests pass a smaller grid and fewer epochs.
 */
export function trainCallClassifier(calls: readonly TrainingCall[], log: (line: string) => void = () => {}, settings: TrainingSettings = DEFAULT_SETTINGS): TrainingResult {
  const { l2Grid, epochs, featureSets } = settings;
  const l2Scores: { feature_set: FeatureSet; l2: number; sentiment: number; intent: number }[] = [];
  const candidates: Candidate[] = [];
  for (const featureSet of featureSets) {
    let best: { score: number; l2: number; outOfFold: OutOfFold } | null = null;
    for (const l2 of l2Grid) {
      const outOfFold = crossValidate(calls, l2, epochs, featureSet);
      const sentiment = calls.filter((c, i) => argmax(outOfFold.sentiment[i]!) === c.sentiment).length / calls.length;
      const intent = calls.filter((c, i) => argmax(outOfFold.intent[i]!) === c.intent).length / calls.length;
      l2Scores.push({ feature_set: featureSet, l2, sentiment: round(sentiment), intent: round(intent) });
      log(`${featureSet}, l2 ${l2}: model alone, out of fold: sentiment sign ${(sentiment * 100).toFixed(1)}%, intent ${(intent * 100).toFixed(1)}%`);
      if (!best || (sentiment + intent) / 2 > best.score) best = { score: (sentiment + intent) / 2, l2, outOfFold };
    }
    candidates.push({
      featureSet,
      l2: best!.l2,
      sentiment: chooseOverride(calls, (c) => c.sentiment, (c) => c.rulesSentiment, best!.outOfFold.sentiment),
      intent: chooseOverride(calls, (c) => c.intent, (c) => c.rulesIntent, best!.outOfFold.intent),
    });
  }
  const untuned = (c: Candidate) => bestOf(c.sentiment).untuned + bestOf(c.intent).untuned;
  const overall = (c: Candidate) => bestOf(c.sentiment).all + bestOf(c.intent).all;
  let chosen = candidates[0]!;
  for (const candidate of candidates) {
    if (untuned(candidate) > untuned(chosen) || (untuned(candidate) === untuned(chosen) && overall(candidate) > overall(chosen))) chosen = candidate;
  }
  for (const candidate of candidates) {
    log(`${candidate.featureSet}: combination right on the untuned calls ${(bestOf(candidate.sentiment).untuned * 100).toFixed(1)}% (sign, override_at ${candidate.sentiment.override_at}) and ${(bestOf(candidate.intent).untuned * 100).toFixed(1)}% (intent, override_at ${candidate.intent.override_at})`);
  }
  const final = trainTasks(calls, chosen.l2, epochs, chosen.featureSet);
  const file: CallClassifierFile = {
    format: CALL_CLASSIFIER_FORMAT,
    description:
      'Softmax regressions over the customer\'s words, bigrams and character n-grams, the agent\'s words, negated words and (feature set "text+rules") the rules\' own readings (infra/analysis/classifier/call-features.ts); trained by scripts/train-call-classifier.ts. override_at: the probability at which the model\'s answer replaces the rules\' (null: never), chosen by cross-validation on the training data.',
    trained_on: [...new Set(calls.map((c) => c.file))],
    examples: calls.length,
    options: { folds: FOLDS, fold_by: 'scenario', feature_set: chosen.featureSet, feature_sets: [...featureSets], l2: chosen.l2, l2_grid: [...l2Grid], epochs, learning_rate: LEARNING_RATE, min_document_frequency: MIN_DOCUMENT_FREQUENCY, max_features: MAX_FEATURES },
    cross_validation: {
      l2: l2Scores,
      candidates: candidates.map((c) => ({ feature_set: c.featureSet, l2: c.l2, sentiment: c.sentiment, intent: c.intent })),
      sentiment: chosen.sentiment,
      intent: chosen.intent,
    },
    features: final.vocabulary,
    sentiment: taskJson(final.sentiment, SENTIMENT_CLASSES, chosen.sentiment.override_at),
    intent: taskJson(final.intent, INTENT_CLASSES, chosen.intent.override_at),
  };
  const text = `${JSON.stringify(file)}\n`;
  if (Buffer.byteLength(text) > MAX_MODEL_BYTES) throw new Error(`the model has ${Buffer.byteLength(text)} bytes, over ${MAX_MODEL_BYTES}: lower MAX_FEATURES`);
  return { file, text };
}

function printTask(name: string, figures: TaskFigures): void {
  console.log(`\n${name}: override_at ${figures.override_at} (candidates, untuned / all: ${figures.candidates.map((c) => `${c.override_at}: ${(c.untuned * 100).toFixed(1)}/${(c.all * 100).toFixed(1)}`).join(', ')})`);
  for (const [label, rows] of [['all training calls', figures.all], ['untuned calls only (held-out-3, held-out-4, training-5)', figures.untuned]] as const) {
    console.log(`  out of fold, ${label}: group  calls  rules  model  combined`);
    for (const row of rows) {
      const pct = (n: number) => `${((n / row.calls) * 100).toFixed(0)}%`.padStart(5);
      console.log(`    ${row.group.padEnd(9)} ${String(row.calls).padStart(5)}  ${pct(row.rules)}  ${pct(row.model)}  ${pct(row.combined)}`);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const calls = readTrainingCalls();
  console.log(`${calls.length} training calls from ${TRAINING_FILES.length} files`);
  const { file, text } = trainCallClassifier(calls, (line) => console.log(line));
  const figures = file.cross_validation as { sentiment: TaskFigures; intent: TaskFigures };
  printTask('sentiment sign', figures.sentiment);
  printTask('intent', figures.intent);
  console.log(`\nfeature set ${String(file.options.feature_set)}, ${file.features.length} features, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, l2 ${String(file.options.l2)}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (process.argv.includes('--check')) {
    const committed = readFileSync(DEFAULT_MODEL_PATH, 'utf8');
    if (committed !== text) {
      console.error(`${DEFAULT_MODEL_PATH} differs from what training produces now`);
      process.exit(1);
    }
    console.log('the committed model is what training produces');
  } else {
    writeFileSync(DEFAULT_MODEL_PATH, text);
    console.log(`wrote ${DEFAULT_MODEL_PATH}`);
  }
}

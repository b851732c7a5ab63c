/**
 * Trains the compliance classifier (infra/analysis/compliance-classifier/) from the labelled compliance calls in
 * bench/compliance and writes infra/analysis/compliance-classifier/compliance-classifier.json. Deterministic: the
 * same data give the same file.
 *
 *   npm run train:compliance-classifier              train, cross-validate, write the model, print the figures
 *   npm run train:compliance-classifier -- --check   train and compare with the committed file (exit 1 when it differs)
 *
 * Training data: every slice of bench/compliance except fresh-8 (written before this classifier and measured once
 * with it). Labels are per call and check; the model scores windows of turns (turn-features.ts), so training is
 * multiple-instance in two rounds: first every window of the right side of a violating call is a positive example;
 * then only the window the first model scores highest in each violating call stays positive (the intro and other
 * turns of that call are left out), every window of a clean call stays negative.
 *
 * Choices made by 5-fold cross-validation on the training data only, folds by scenario (a scenario's versions in
 * every language fall in one fold, so a fold is predicted by a model that never saw its scenario in another
 * language):
 *   1. per feature set (the text alone, or with the rules' concept classes), the L2 penalty: the best mean
 *      out-of-fold recall over the checks at their chosen thresholds;
 *   2. the feature set: the larger gain of the combination on fresh-7 (see trainComplianceClassifier);
 *   3. per check, `flag_at`: the lowest probability whose out-of-fold flags (model alone) are right at least
 *      PRECISION_FLOOR of the time, with at least MIN_FLAGS flags; null (the rules alone) when none is. The
 *      combination is rules OR model, so the model's false alarms add to the rules'; its precision alone is what the
 *      threshold guards.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { detectOptOut, evaluatePostCall } from '../domain/compliance/post-call-rules.ts';
import { agentSegments, customerSegments } from '../domain/shared/text/speaker-roles.ts';
import {
  CLASSIFIED_CHECKS,
  COMPLIANCE_CLASSIFIER_FORMAT,
  DEFAULT_COMPLIANCE_MODEL_PATH,
  MAX_MODEL_BYTES,
  SIDE_OF,
  type ClassifiedCheck,
  type ComplianceClassifierFile,
} from '../infra/analysis/compliance-classifier/compliance-classifier-model.ts';
import { CONCEPT_FEATURE_PREFIX, conceptFeatures, windowFeatures, windowsOf } from '../infra/analysis/compliance-classifier/turn-features.ts';
import { logisticProbability, trainLogistic, type LogisticWeights, type WeightedExample } from '../infra/analysis/compliance-classifier/logistic-regression.ts';
import { loadLabelledSet, type LabelledCall, type Slice } from '../bench/compliance/labelled-set.ts';

/** Measured once with the final model, never trained or tuned on. */
export const HELD_OUT_SLICES: ReadonlySet<Slice> = new Set(['fresh-8']);
export const FOLDS = 5;
export const L2_GRID = [0.00003, 0.0001] as const;
export const FLAG_GRID = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95] as const;
export const PRECISION_FLOOR = 0.95;
export const MIN_FLAGS = 5;
export const EPOCHS = 200;
/** Violating windows are few (one per violating call): each weighs up to this many clean windows, to balance the classes. */
export const MAX_POSITIVE_WEIGHT = 8;
export const LEARNING_RATE = 0.05;
export const MIN_DOCUMENT_FREQUENCY = 2;
/** With the rules' concept classes as features (turn-features.ts, `k:`), or the text alone. */
export const FEATURE_SETS = ['text', 'text+concepts'] as const;
export type FeatureSet = (typeof FEATURE_SETS)[number];
export const MAX_FEATURES = 8_000;
const WEIGHT_DECIMALS = 4;
const OPT_OUT = 'opt_out';

export interface TrainingCall {
  id: string;
  slice: Slice;
  script: string;
  /** Calls of one scenario (the same id in every language) share a fold. */
  scenario: string;
  windows: Record<'agent' | 'customer', Array<Map<string, number>>>;
  /** Per check: whether it applies, whether the call violates it (the label), whether the rules flag it. */
  applies: Record<ClassifiedCheck, boolean>;
  expected: Record<ClassifiedCheck, boolean>;
  rules: Record<ClassifiedCheck, boolean>;
}

const LANGUAGE_TAGS = new Set(['en', 'hi', 'hl', 'mr', 'ta', 'te']);

/** The scenario of a call: its slice and its id without the language part (`fresh-7:f7-v1`). */
export function scenarioOf(slice: string, id: string): string {
  return `${slice}:${id.split('-').filter((part) => !LANGUAGE_TAGS.has(part)).join('-')}`;
}

/** FNV-1a of the scenario: which fold a call falls in, the same on every run. */
export function foldOf(scenario: string, folds = FOLDS): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < scenario.length; i += 1) {
    hash ^= scenario.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % folds;
}

const PACKS = (call: LabelledCall) => [
  { id: 'in-rbi-recovery', parameters: {} },
  { id: 'in-trai', parameters: {} },
  { id: 'in-dpdp', parameters: { sector: call.sector } },
  { id: 'general', parameters: {} },
];

export function trainingCall(call: LabelledCall): TrainingCall {
  const { segments, language } = call.input;
  const verdicts = evaluatePostCall(call.input, PACKS(call));
  const concepts = new Map<object, string[]>();
  const featuresOf = (w: { segment: { text: string }; clauses: string[][] }) => {
    let found = concepts.get(w.segment);
    if (!found) concepts.set(w.segment, (found = conceptFeatures(w.segment.text, language)));
    return windowFeatures(w.clauses, language, () => true, found);
  };
  const windows = {
    agent: windowsOf(agentSegments(segments), language).map(featuresOf),
    customer: windowsOf(customerSegments(segments), language).map(featuresOf),
  };
  const applies = {} as Record<ClassifiedCheck, boolean>;
  const expected = {} as Record<ClassifiedCheck, boolean>;
  const rules = {} as Record<ClassifiedCheck, boolean>;
  for (const check of CLASSIFIED_CHECKS) {
    if (check === OPT_OUT) {
      applies[check] = true;
      expected[check] = call.optOut;
      rules[check] = detectOptOut(segments, language) !== null;
    } else {
      const verdict = verdicts.find((v) => v.rule_id === check);
      applies[check] = verdict !== undefined;
      expected[check] = call.expected.has(check);
      rules[check] = verdict !== undefined && !verdict.passed;
    }
  }
  return { id: call.id, slice: call.slice, script: call.script, scenario: scenarioOf(call.slice, call.id), windows, applies, expected, rules };
}

export function readTrainingCalls(): TrainingCall[] {
  return loadLabelledSet()
    .filter((call) => !HELD_OUT_SLICES.has(call.slice))
    .map(trainingCall);
}

/** The names seen in at least MIN_DOCUMENT_FREQUENCY windows, most frequent first (then by name), at most `max`. */
export function buildVocabulary(calls: readonly TrainingCall[], featureSet: FeatureSet, max = MAX_FEATURES): string[] {
  const frequency = new Map<string, number>();
  for (const call of calls) {
    for (const window of [...call.windows.agent, ...call.windows.customer]) {
      for (const name of window.keys()) {
        if (featureSet === 'text' && name.startsWith(CONCEPT_FEATURE_PREFIX)) continue;
        frequency.set(name, (frequency.get(name) ?? 0) + 1);
      }
    }
  }
  return [...frequency]
    .filter(([, count]) => count >= MIN_DOCUMENT_FREQUENCY)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, max)
    .map(([name]) => name);
}

function vectorize(window: ReadonlyMap<string, number>, index: ReadonlyMap<string, number>): Map<number, number> {
  const vector = new Map<number, number>();
  for (const [name, value] of window) {
    const at = index.get(name);
    if (at !== undefined) vector.set(at, value);
  }
  return vector;
}

export type Logistic = LogisticWeights;

export interface TrainedModels {
  vocabulary: string[];
  checks: Record<ClassifiedCheck, Logistic>;
}

/** The examples with each positive weighted so the classes weigh about the same (at most MAX_POSITIVE_WEIGHT). */
function balanced(examples: ReadonlyArray<Omit<WeightedExample, 'weight'>>): WeightedExample[] {
  const positives = examples.filter((example) => example.label === 1).length;
  const weight = positives === 0 ? 1 : Math.max(1, Math.min(MAX_POSITIVE_WEIGHT, (examples.length - positives) / positives));
  return examples.map((example) => ({ ...example, weight: example.label === 1 ? weight : 1 }));
}

/** One check's model, in the two multiple-instance rounds described above. */
function trainCheck(calls: readonly TrainingCall[], vectors: ReadonlyArray<Record<'agent' | 'customer', Array<Map<number, number>>>>, check: ClassifiedCheck, features: number, l2: number, epochs: number): Logistic {
  const side = SIDE_OF[check];
  const options = { features, l2, epochs, learningRate: LEARNING_RATE };
  const first: Array<Omit<WeightedExample, 'weight'>> = [];
  calls.forEach((call, i) => {
    if (!call.applies[check]) return;
    for (const vector of vectors[i]![side]) first.push({ features: vector, label: call.expected[check] ? 1 : 0 });
  });
  const firstModel = trainLogistic(balanced(first), options);
  const second: Array<Omit<WeightedExample, 'weight'>> = [];
  calls.forEach((call, i) => {
    if (!call.applies[check]) return;
    const windows = vectors[i]![side];
    if (!call.expected[check]) {
      for (const vector of windows) second.push({ features: vector, label: 0 });
      return;
    }
    let best = -1;
    let bestProbability = -1;
    windows.forEach((vector, w) => {
      const probability = logisticProbability(firstModel, vector);
      if (probability > bestProbability) {
        best = w;
        bestProbability = probability;
      }
    });
    if (best >= 0) second.push({ features: windows[best]!, label: 1 });
  });
  return trainLogistic(balanced(second), options);
}

export function trainModels(calls: readonly TrainingCall[], l2: number, epochs: number, featureSet: FeatureSet): TrainedModels {
  const vocabulary = buildVocabulary(calls, featureSet);
  const index = new Map(vocabulary.map((name, i) => [name, i]));
  const vectors = calls.map((call) => ({
    agent: call.windows.agent.map((w) => vectorize(w, index)),
    customer: call.windows.customer.map((w) => vectorize(w, index)),
  }));
  const checks = {} as Record<ClassifiedCheck, Logistic>;
  for (const check of CLASSIFIED_CHECKS) checks[check] = trainCheck(calls, vectors, check, vocabulary.length, l2, epochs);
  return { vocabulary, checks };
}

/** A call's score for a check: its highest window probability (0 for a side that said nothing). */
export function callScore(models: TrainedModels, index: ReadonlyMap<string, number>, call: TrainingCall, check: ClassifiedCheck): number {
  let best = 0;
  for (const window of call.windows[SIDE_OF[check]]) best = Math.max(best, logisticProbability(models.checks[check], vectorize(window, index)));
  return best;
}

/** Out-of-fold scores of every call, per check. */
export function crossValidate(calls: readonly TrainingCall[], l2: number, epochs: number, featureSet: FeatureSet): Record<ClassifiedCheck, number[]> {
  const out = Object.fromEntries(CLASSIFIED_CHECKS.map((check) => [check, new Array<number>(calls.length).fill(0)])) as Record<ClassifiedCheck, number[]>;
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const models = trainModels(calls.filter((call) => foldOf(call.scenario) !== fold), l2, epochs, featureSet);
    const index = new Map(models.vocabulary.map((name, i) => [name, i]));
    calls.forEach((call, i) => {
      if (foldOf(call.scenario) !== fold) return;
      for (const check of CLASSIFIED_CHECKS) out[check][i] = callScore(models, index, call, check);
    });
  }
  return out;
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

function counts(calls: readonly TrainingCall[], check: ClassifiedCheck, flagged: (call: TrainingCall, i: number) => boolean): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0 };
  calls.forEach((call, i) => {
    if (!call.applies[check]) return;
    const p = flagged(call, i);
    const e = call.expected[check];
    if (p && e) c.tp += 1;
    else if (p) c.fp += 1;
    else if (e) c.fn += 1;
  });
  return c;
}

const precisionOf = (c: Counts) => (c.tp + c.fp === 0 ? null : c.tp / (c.tp + c.fp));
const recallOf = (c: Counts) => (c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn));

export interface CheckFigures {
  flag_at: number | null;
  /** Out of fold, every candidate threshold, model alone. */
  candidates: Array<{ flag_at: number; model: Counts }>;
  /** Out of fold at the chosen threshold: rules alone, model alone, rules OR model; on all calls and on fresh-7. */
  all: { rules: Counts; model: Counts; combined: Counts };
  fresh_7: { rules: Counts; model: Counts; combined: Counts };
}

export function chooseThreshold(calls: readonly TrainingCall[], check: ClassifiedCheck, scores: readonly number[]): CheckFigures {
  const candidates = FLAG_GRID.map((flagAt) => ({ flag_at: flagAt, model: counts(calls, check, (_, i) => scores[i]! >= flagAt) }));
  const chosen = candidates.find((c) => c.model.tp + c.model.fp >= MIN_FLAGS && (precisionOf(c.model) ?? 0) >= PRECISION_FLOOR);
  const flagAt = chosen?.flag_at ?? null;
  const model = (_: TrainingCall, i: number) => flagAt !== null && scores[i]! >= flagAt;
  const figures = (subset: (call: TrainingCall) => boolean) => {
    const indices = calls.map((_, i) => i).filter((i) => subset(calls[i]!));
    const picked = indices.map((i) => calls[i]!);
    return {
      rules: counts(picked, check, (call) => call.rules[check]),
      model: counts(picked, check, (_, j) => model(picked[j]!, indices[j]!)),
      combined: counts(picked, check, (call, j) => call.rules[check] || model(call, indices[j]!)),
    };
  };
  return { flag_at: flagAt, candidates, all: figures(() => true), fresh_7: figures((call) => call.slice === 'fresh-7') };
}

const round = (value: number) => Number(value.toFixed(WEIGHT_DECIMALS)) + 0;

export interface TrainingSettings {
  l2Grid: readonly number[];
  epochs: number;
  featureSets: readonly FeatureSet[];
}

const DEFAULT_SETTINGS: TrainingSettings = { l2Grid: L2_GRID, epochs: EPOCHS, featureSets: FEATURE_SETS };

export interface TrainingResult {
  file: ComplianceClassifierFile;
  text: string;
}

interface Candidate {
  featureSet: FeatureSet;
  l2: number;
  /** Mean out-of-fold recall of the model alone at the checks' thresholds, all training calls. */
  recall: number;
  figures: Record<ClassifiedCheck, CheckFigures>;
}

/** What a candidate adds on fresh-7 (the one training slice the rules were not tuned on): flags right minus wrong. */
const untunedGain = (candidate: Candidate) =>
  CLASSIFIED_CHECKS.reduce((sum, check) => sum + candidate.figures[check].fresh_7.combined.tp - candidate.figures[check].fresh_7.combined.fp, 0);

/**
 * The whole training: cross-validation, choices, the final models on every call, the file's text. `settings`
 * defaults to the committed model's; tests pass a smaller grid and fewer epochs.
 *   - per feature set, the L2 penalty: the best mean out-of-fold recall of the model alone at the thresholds;
 *   - the feature set: the one whose combination gains most on fresh-7's out-of-fold calls (right flags minus wrong
 *     ones; the concept classes were written on the other slices, so only fresh-7 shows what they are worth on new
 *     wording), ties to the better mean recall on all calls, then to the text alone.
 */
export function trainComplianceClassifier(calls: readonly TrainingCall[], log: (line: string) => void = () => {}, settings: TrainingSettings = DEFAULT_SETTINGS): TrainingResult {
  const candidates: Candidate[] = [];
  const l2Scores: Array<{ feature_set: FeatureSet; l2: number; mean_recall: number; fresh_7_gain: number }> = [];
  for (const featureSet of settings.featureSets) {
    let best: Candidate | null = null;
    for (const l2 of settings.l2Grid) {
      const scores = crossValidate(calls, l2, settings.epochs, featureSet);
      const figures = Object.fromEntries(CLASSIFIED_CHECKS.map((check) => [check, chooseThreshold(calls, check, scores[check])])) as Record<ClassifiedCheck, CheckFigures>;
      const recall = CLASSIFIED_CHECKS.reduce((sum, check) => sum + (recallOf(figures[check].all.model) ?? 0), 0) / CLASSIFIED_CHECKS.length;
      const candidate: Candidate = { featureSet, l2, recall, figures };
      l2Scores.push({ feature_set: featureSet, l2, mean_recall: round(recall), fresh_7_gain: untunedGain(candidate) });
      log(`${featureSet}, l2 ${l2}: mean out-of-fold recall of the model alone at its thresholds ${recall.toFixed(3)}; fresh-7 gain ${untunedGain(candidate)}`);
      if (best === null || recall > best.recall) best = candidate;
    }
    candidates.push(best!);
  }
  let chosen = candidates[0]!;
  for (const candidate of candidates) {
    if (untunedGain(candidate) > untunedGain(chosen) || (untunedGain(candidate) === untunedGain(chosen) && candidate.recall > chosen.recall)) chosen = candidate;
  }
  const final = trainModels(calls, chosen.l2, settings.epochs, chosen.featureSet);
  const file: ComplianceClassifierFile = {
    format: COMPLIANCE_CLASSIFIER_FORMAT,
    description:
      'Logistic models over windows of a turn (words, bigrams, character 2-4-grams, words of negated clauses and, with the feature set "text+concepts", the rules\' concept classes: infra/analysis/compliance-classifier/turn-features.ts), one per check; trained by scripts/train-compliance-classifier.ts. flag_at: the window probability at which the model fails a check the rules passed (null: never), chosen by scenario-grouped cross-validation on the training data.',
    trained_on: [...new Set(calls.map((call) => call.slice))],
    examples: calls.length,
    options: {
      folds: FOLDS,
      fold_by: 'scenario',
      feature_set: chosen.featureSet,
      feature_sets: [...settings.featureSets],
      l2: chosen.l2,
      l2_grid: [...settings.l2Grid],
      epochs: settings.epochs,
      max_positive_weight: MAX_POSITIVE_WEIGHT,
      learning_rate: LEARNING_RATE,
      flag_grid: [...FLAG_GRID],
      precision_floor: PRECISION_FLOOR,
      min_flags: MIN_FLAGS,
      min_document_frequency: MIN_DOCUMENT_FREQUENCY,
      max_features: MAX_FEATURES,
    },
    cross_validation: { l2: l2Scores, checks: chosen.figures },
    features: final.vocabulary,
    checks: Object.fromEntries(
      CLASSIFIED_CHECKS.map((check) => [check, { bias: round(final.checks[check].bias), weights: Array.from(final.checks[check].weights, round), flag_at: chosen.figures[check].flag_at }]),
    ),
  };
  const text = `${JSON.stringify(file)}\n`;
  if (Buffer.byteLength(text) > MAX_MODEL_BYTES) throw new Error(`the model has ${Buffer.byteLength(text)} bytes, over ${MAX_MODEL_BYTES}: lower MAX_FEATURES`);
  return { file, text };
}

const pr = (c: Counts) => `P ${precisionOf(c)?.toFixed(2) ?? '   -'} R ${recallOf(c)?.toFixed(2) ?? '   -'} (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const calls = readTrainingCalls();
  console.log(`${calls.length} training calls (every slice but ${[...HELD_OUT_SLICES].join(', ')})`);
  const { file, text } = trainComplianceClassifier(calls, (line) => console.log(line));
  const figures = (file.cross_validation as { checks: Record<ClassifiedCheck, CheckFigures> }).checks;
  for (const check of CLASSIFIED_CHECKS) {
    const f = figures[check];
    console.log(`\n${check}: flag_at ${f.flag_at}`);
    console.log(`  candidates, model alone out of fold: ${f.candidates.map((c) => `${c.flag_at}: ${precisionOf(c.model)?.toFixed(2) ?? '-'}/${recallOf(c.model)?.toFixed(2) ?? '-'}`).join(', ')}`);
    for (const [label, rows] of [['all training calls', f.all], ['fresh-7 (rules not tuned on it)', f.fresh_7]] as const) {
      console.log(`  out of fold, ${label}:`);
      console.log(`    rules    ${pr(rows.rules)}`);
      console.log(`    model    ${pr(rows.model)}`);
      console.log(`    combined ${pr(rows.combined)}`);
    }
  }
  console.log(`\nfeature set ${String(file.options.feature_set)}, ${file.features.length} features, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, l2 ${String(file.options.l2)}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (process.argv.includes('--check')) {
    const committed = readFileSync(DEFAULT_COMPLIANCE_MODEL_PATH, 'utf8');
    if (committed !== text) {
      console.error(`${DEFAULT_COMPLIANCE_MODEL_PATH} differs from what training produces now`);
      process.exit(1);
    }
    console.log('the committed model is what training produces');
  } else {
    writeFileSync(DEFAULT_COMPLIANCE_MODEL_PATH, text);
    console.log(`wrote ${DEFAULT_COMPLIANCE_MODEL_PATH}`);
  }
}

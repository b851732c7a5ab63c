// The trained compliance classifier (infra/analysis/compliance-classifier/): training is deterministic; the committed
// model is within its size bound and loads; a malformed or oversized file is refused; the combination is rules OR
// model (it never clears what the rules flagged, and flags only at the check's threshold, with the top window as
// evidence); a known threat is flagged and a denial is not; a huge turn's windows stay bounded; the analysis pool's
// threads run the same combination when started with complianceClassifier (COMPLIANCE_CLASSIFIER=on).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RuleVerdict } from '../../../domain/compliance/evaluation.ts';
import type { PostCallInput } from '../../../domain/compliance/rule.ts';
import { createAnalysisPool } from '../../../infra/analysis/analysis-pool.ts';
import { optOutWithClassifier, topWindow, withClassifier } from '../../../infra/analysis/compliance-classifier/classified-compliance.ts';
import {
  CLASSIFIED_CHECKS,
  complianceClassifierFileSchema,
  complianceClassifierFromFile,
  DEFAULT_COMPLIANCE_MODEL_PATH,
  loadComplianceClassifier,
  MAX_MODEL_BYTES,
  type ComplianceClassifier,
} from '../../../infra/analysis/compliance-classifier/compliance-classifier-model.ts';
import { MAX_SIDE_CHARACTERS, windowFeatures, windowsOf, WINDOW_WORDS } from '../../../infra/analysis/compliance-classifier/turn-features.ts';
import { evaluateComplianceTask } from '../../../infra/analysis/compliance-evaluation.ts';
import { readTrainingCalls, trainComplianceClassifier } from '../../../scripts/train-compliance-classifier.ts';

const PACKS = [
  { id: 'in-rbi-recovery', parameters: {} },
  { id: 'in-trai', parameters: {} },
  { id: 'in-dpdp', parameters: {} },
  { id: 'general', parameters: {} },
];

function recoveryCall(agentText: string, customerText = 'Yes, speaking.'): PostCallInput {
  return {
    language: 'en-IN',
    purpose: 'recovery',
    recorded: true,
    agentSentiment: null,
    lenderName: 'Sugam Finance',
    agentName: 'Ravi',
    segments: [
      { speaker: 'agent', text: 'Good morning, this is Ravi from Sugam Finance, calling regarding your loan account. This call is recorded. Am I speaking with Mr Verma?', start_time: 0, end_time: 9 },
      { speaker: 'customer', text: customerText, start_time: 9.6, end_time: 11 },
      { speaker: 'agent', text: agentText, start_time: 11.6, end_time: 18 },
    ],
  };
}

const committed = loadComplianceClassifier();

test('the training pipeline is deterministic: the same calls give the same model file, which loads', () => {
  const calls = readTrainingCalls().filter((call) => call.slice === 'held-out-2').slice(0, 80);
  const settings = { l2Grid: [0.001], epochs: 15, featureSets: ['text', 'text+concepts'] as const };
  const first = trainComplianceClassifier(calls, () => {}, settings);
  const second = trainComplianceClassifier(calls, () => {}, settings);
  assert.is(first.text, second.text);
  const classifier = complianceClassifierFromFile(complianceClassifierFileSchema.parse(JSON.parse(first.text)), first.text);
  assert.is(classifier.vocabulary.size, first.file.features.length);
  assert.equal([...classifier.checks.keys()], [...CLASSIFIED_CHECKS]);
});

test('the committed model is within its size bound, covers every classified check and loads', () => {
  assert.ok(statSync(DEFAULT_COMPLIANCE_MODEL_PATH).size <= MAX_MODEL_BYTES, `${statSync(DEFAULT_COMPLIANCE_MODEL_PATH).size} bytes`);
  assert.equal([...committed.checks.keys()].sort(), [...CLASSIFIED_CHECKS].sort());
  assert.ok(committed.vocabulary.size > 1000);
});

test('a model file over the size bound, or not matching its own shape, is refused', () => {
  const directory = mkdtempSync(join(tmpdir(), 'compliance-classifier-'));
  try {
    const big = join(directory, 'big.json');
    writeFileSync(big, ' '.repeat(MAX_MODEL_BYTES + 1));
    assert.throws(() => loadComplianceClassifier(big), /over the limit/);

    const file = JSON.parse(readFileSync(DEFAULT_COMPLIANCE_MODEL_PATH, 'utf8'));
    file.checks['opt_out'].weights.pop();
    const short = join(directory, 'short.json');
    writeFileSync(short, JSON.stringify(file));
    assert.throws(() => loadComplianceClassifier(short), /opt_out has/);

    const unknown = JSON.parse(readFileSync(DEFAULT_COMPLIANCE_MODEL_PATH, 'utf8'));
    unknown.checks['general.dead_air'] = unknown.checks['opt_out'];
    const extra = join(directory, 'extra.json');
    writeFileSync(extra, JSON.stringify(unknown));
    assert.throws(() => loadComplianceClassifier(extra), /unknown check/);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** A one-word model: the word "zebra" makes every check certain, anything else leaves it at 0.5 or below. */
function zebraClassifier(flagAt: number | null): ComplianceClassifier {
  const vocabulary = new Map([['w:zebra', 0]]);
  const checks = new Map(CLASSIFIED_CHECKS.map((check) => [check, { bias: -0.01, weights: Float64Array.from([40]), flagAt }]));
  return { id: 'compliance-classifier/1@zebra', vocabulary, checks, readsConcepts: false };
}

test('the combination is rules OR model: a passed check fails at the threshold with the top window as evidence', () => {
  const input = recoveryCall('Sir, a zebra is waiting outside.');
  const passed: RuleVerdict = { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: true, findings: [] };
  const [flagged] = withClassifier([passed], input, zebraClassifier(0.9));
  assert.is(flagged!.passed, false);
  assert.is(flagged!.findings[0]!.evidence?.text, 'Sir, a zebra is waiting outside.');
  assert.match(flagged!.findings[0]!.description, /trained classifier/);
  // null: the rules alone; a window below the threshold: unchanged.
  assert.equal(withClassifier([passed], input, zebraClassifier(null)), [passed]);
  assert.equal(withClassifier([passed], recoveryCall('Sir, please pay by Friday.'), zebraClassifier(0.9)), [passed]);
});

test('the model never clears what the rules flagged, and leaves checks it does not cover alone', () => {
  const input = recoveryCall('Sir, please pay by Friday.');
  const failed: RuleVerdict = { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: false, findings: [{ description: 'threat', evidence: null }] };
  const other: RuleVerdict = { rule_id: 'general.dead_air', check: 'dead_air', severity: 'warning', passed: true, findings: [] };
  assert.equal(withClassifier([failed, other], recoveryCall('zebra'), zebraClassifier(0.9)), [failed, other]);
  assert.equal(withClassifier([failed], input, zebraClassifier(0.9)), [failed]);
  const rulesOptOut = { speaker: 'customer', start_time: 1, end_time: 2, text: 'stop calling' };
  assert.is(optOutWithClassifier(rulesOptOut, input, zebraClassifier(0.9)), rulesOptOut);
  assert.is(optOutWithClassifier(null, recoveryCall('fine', 'zebra zebra'), zebraClassifier(0.9))?.text, 'zebra zebra');
  assert.is(optOutWithClassifier(null, input, zebraClassifier(0.9)), null);
});

test('a known threat is flagged by the model on its own, and a denial is not', () => {
  const threat = recoveryCall('If you do not pay by tonight our boys will come to your house and break your legs, and your whole family will watch.');
  const denial = recoveryCall('Sir, I am not threatening you. Nobody will come to your house, nobody will call your family. I only need a date.');
  const model = committed.checks.get('in-rbi-recovery.no_threats')!;
  const threatScore = topWindow(committed, 'in-rbi-recovery.no_threats', threat.segments, threat.language)!;
  const denialScore = topWindow(committed, 'in-rbi-recovery.no_threats', denial.segments, denial.language)!;
  assert.ok(threatScore.probability > denialScore.probability, `threat ${threatScore.probability}, denial ${denialScore.probability}`);
  assert.is(threatScore.segment.text, threat.segments[2]!.text);
  if (model.flagAt !== null) {
    assert.ok(threatScore.probability >= model.flagAt, `threat ${threatScore.probability} below ${model.flagAt}`);
    assert.ok(denialScore.probability < model.flagAt, `denial ${denialScore.probability} at or above ${model.flagAt}`);
  }
  const task = (input: PostCallInput) => ({ input, packs: PACKS, detectOptOut: true });
  const threatResult = evaluateComplianceTask(task(threat), committed);
  assert.is(threatResult.verdicts.find((v) => v.rule_id === 'in-rbi-recovery.no_threats')!.passed, false);
  const denialResult = evaluateComplianceTask(task(denial), committed);
  for (const check of ['in-rbi-recovery.no_threats', 'in-rbi-recovery.no_false_claims']) {
    assert.is(denialResult.verdicts.find((v) => v.rule_id === check)!.passed, true, check);
  }
  assert.is(denialResult.optOut, null);
});

test('a huge turn is read in bounded windows, up to the side\'s character budget', () => {
  const sentence = 'we will discuss the payment plan today ';
  const text = sentence.repeat(Math.ceil((MAX_SIDE_CHARACTERS * 3) / sentence.length));
  const windows = windowsOf([{ text }], 'en-IN');
  assert.ok(windows.length > 1);
  const words = windows.reduce((total, window) => total + window.clauses.flat().length, 0);
  assert.ok(words <= MAX_SIDE_CHARACTERS / 2, `${words} words read`);
  for (const window of windows) assert.ok(window.clauses.flat().length <= WINDOW_WORDS);
  const accepted = windowFeatures(windows[0]!.clauses, 'en-IN', (name) => committed.vocabulary.has(name));
  for (const name of accepted.keys()) assert.ok(committed.vocabulary.has(name), name);
});

test('COMPLIANCE_CLASSIFIER=on: the pool\'s threads load the model and answer as evaluateComplianceTask does', async () => {
  const task = { input: recoveryCall('If you do not pay by tonight our boys will come to your house and break your legs.'), packs: PACKS, detectOptOut: true };
  const expected = evaluateComplianceTask(task, committed);
  const pool = createAnalysisPool({ threads: 1, budgetMs: 60_000, complianceClassifier: true });
  try {
    assert.equal(await pool.evaluateCompliance(task), expected);
  } finally {
    await pool.close();
  }
});

test.run();

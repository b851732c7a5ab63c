/**
 * Sentiment sign agreement and intent accuracy per language on the issue-18 slices, each next to figures recorded
 * once before a round of analyzer changes (the recorded files are never recomputed):
 * - the second slice, bench/data/held-out-2-transcripts.json: held out for the first two rounds of issue 18 (its
 *   "main" column: bench/data/held-out-2-baseline.json), then tuning data for the third round (its "round 2" column:
 *   bench/data/held-out-2-round-2.json, the figures when the third round started). Its figures are tuned-on now.
 * - the third slice, bench/data/held-out-3-transcripts.json: written and committed before the third round, measured
 *   once then (bench/data/held-out-3-baseline.json), never tuned on, and run once at the end of the round
 *   (bench/data/held-out-3-round-3.json). Since round 4 it is training data of the call classifier.
 * - the fourth slice, bench/data/held-out-4-transcripts.json: written and committed before any classifier code
 *   existed, measured once with the rules alone then (bench/data/held-out-4-baseline.json), never trained or tuned
 *   on in round 4, and run once with the round-4 classifier (bench/data/held-out-4-round-4.json). Since round 5 it is
 *   training data of the call classifier.
 *
 * - the fifth slice, bench/data/held-out-5-transcripts.json: written and committed alone before round 5 (more training
 *   calls, held-out-4 moved into training), measured once then with the round-4 analyzer (rules + classifier,
 *   bench/data/held-out-5-baseline.json) and with the rules alone (held-out-5-rules.json), never trained or tuned on, and run once with the round-5 model
 *   (bench/data/held-out-5-round-5.json). Since round 5, the fourth slice is training data of the classifier.
 * - the sixth slice, bench/data/held-out-6-transcripts.json: written and committed alone after the round-5 model was
 *   found to misread a plain renewal call and before any fix, measured once then with the default (round-4) model and
 *   with the round-5 model (held-out-6-baseline.json, held-out-6-round-5.json), and run once with the fixed model
 *   (held-out-6-round-5b.json).
 *
 * Run: npx tsx bench/analysis-sentiment.ts [--slice 2|3|4|5|6] [--classifier] [--misses] [--held-out-misses] [--record-baseline]
 *   --slice 2         print only the second slice (what a tuning session runs, so as not to watch the others)
 *   --classifier      measure the rules with the trained call classifier (ANALYSIS_CLASSIFIER=on) instead of the
 *                     rules alone; on slices 1-3, its own training data, that says nothing about new calls
 *   --misses          list every miss on the second slice (tuning data)
 *   --held-out-misses list the third to fifth slices' misses (only after tuning is finished: reading them is tuning)
 *   --record-baseline print the slices' figures as JSON, to record a baseline file
 * bench/analysis.ts imports measureSentimentSlices() and printSentimentSlice().
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCallClassifier } from '../infra/analysis/classifier/call-classifier-model.ts';
import { createClassifiedAnalyzer } from '../infra/analysis/classifier/classified-analyzer.ts';
import { createLexiconAnalyzer } from '../infra/analysis/lexicon-analyzer.ts';
import type { Analyzer } from '../infra/analysis/port.ts';
import { sentimentBucket } from '../infra/analysis/sentiment.ts';
import { readLabelledTranscripts, type LabelledTranscript } from './labelled-transcripts.ts';


export interface LanguageFigures {
  group: string;
  calls: number;
  intentCorrect: number;
  signCorrect: number;
}

export interface SentimentMiss {
  id: string;
  expectedIntent: string | null;
  detectedIntent: string | null;
  expectedSign: number;
  detectedSign: number;
  score: number;
}

/** Figures recorded once with an earlier analyzer, printed as a "before" column. */
export interface RecordedFigures {
  label: string;
  figures: LanguageFigures[];
}

export interface SlicePlan {
  /** `held_out_2`, `held_out_3` or `held_out_4`. */
  slice: string;
  title: string;
  dataPath: string;
  baselines: { label: string; path: string }[];
}

export interface SentimentSliceFigures {
  slice: string;
  title: string;
  dataPath: string;
  now: LanguageFigures[];
  /** Recorded columns, oldest first; a missing file is left out. */
  before: RecordedFigures[];
  misses: SentimentMiss[];
  /** CPU time of the sentiment and intent of one call, in milliseconds (mean over the slice; one thread). */
  cpuMsPerCall: number;
}

const data = (name: string) => fileURLToPath(new URL(`./data/${name}`, import.meta.url));

export const SLICES: readonly SlicePlan[] = [
  {
    slice: 'held_out_2',
    title: 'second slice (held out for rounds 1-2 of issue 18, TUNED ON in round 3)',
    dataPath: data('held-out-2-transcripts.json'),
    baselines: [
      { label: 'main', path: data('held-out-2-baseline.json') },
      { label: 'round 2', path: data('held-out-2-round-2.json') },
    ],
  },
  {
    slice: 'held_out_3',
    title: 'third slice (held out for round 3, training data of the classifier since round 4)',
    dataPath: data('held-out-3-transcripts.json'),
    baselines: [
      { label: 'round 2', path: data('held-out-3-baseline.json') },
      { label: 'round 3', path: data('held-out-3-round-3.json') },
    ],
  },
  {
    slice: 'held_out_4',
    title: 'fourth slice (held out for round 4, training data of the classifier since round 5)',
    dataPath: data('held-out-4-transcripts.json'),
    baselines: [
      { label: 'rules', path: data('held-out-4-baseline.json') },
      { label: 'round 4', path: data('held-out-4-round-4.json') },
    ],
  },
  {
    slice: 'held_out_5',
    title: 'fifth slice (HELD OUT: never trained or tuned on; quote these)',
    dataPath: data('held-out-5-transcripts.json'),
    baselines: [
      { label: 'rules', path: data('held-out-5-rules.json') },
      { label: 'round 4', path: data('held-out-5-baseline.json') },
      { label: 'round 5', path: data('held-out-5-round-5.json') },
    ],
  },
  {
    slice: 'held_out_6',
    title: 'sixth slice (HELD OUT for round 5b: never trained or tuned on)',
    dataPath: data('held-out-6-transcripts.json'),
    baselines: [
      { label: 'round 4', path: data('held-out-6-baseline.json') },
      { label: 'round 5', path: data('held-out-6-round-5.json') },
      { label: 'round 5b', path: data('held-out-6-round-5b.json') },
    ],
  },
];

/** The analyzers a slice can be measured with: the rules alone, or the rules with the trained call classifier. */
export type MeasuredAnalyzer = 'rules' | 'classifier';

export function analyzerFor(kind: MeasuredAnalyzer): Analyzer {
  return kind === 'classifier' ? createClassifiedAnalyzer(loadCallClassifier()) : createLexiconAnalyzer();
}

const SIGN = { positive: 1, neutral: 0, negative: -1 } as const;
const GROUPS = ['en', 'hi', 'hinglish', 'mr', 'ta', 'te'];

const groupOf = (t: LabelledTranscript) => t.variant ?? t.language.slice(0, 2);

function readRecorded(label: string, path: string): RecordedFigures | null {
  try {
    return { label, figures: (JSON.parse(readFileSync(path, 'utf8')) as { figures: LanguageFigures[] }).figures };
  } catch {
    return null;
  }
}

export function measureSentimentSlice(plan: SlicePlan, analyzer: Analyzer = createLexiconAnalyzer()): SentimentSliceFigures {
  const transcripts = readLabelledTranscripts(plan.dataPath);
  const byGroup = new Map<string, LanguageFigures>();
  const misses: SentimentMiss[] = [];
  const cpuBefore = process.cpuUsage();
  for (const transcript of transcripts) {
    const input = { segments: transcript.segments, language: transcript.language };
    const score = analyzer.sentiment(input).overall;
    const detectedSign = SIGN[sentimentBucket(score)];
    const detectedIntent = analyzer.intent(input);
    const group = groupOf(transcript);
    const figures = byGroup.get(group) ?? { group, calls: 0, intentCorrect: 0, signCorrect: 0 };
    figures.calls += 1;
    if (detectedIntent === transcript.intent) figures.intentCorrect += 1;
    if (detectedSign === transcript.sentiment) figures.signCorrect += 1;
    byGroup.set(group, figures);
    if (detectedIntent !== transcript.intent || detectedSign !== transcript.sentiment) {
      misses.push({
        id: transcript.id,
        expectedIntent: transcript.intent,
        detectedIntent,
        expectedSign: transcript.sentiment,
        detectedSign,
        score,
      });
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerCall = (cpu.user + cpu.system) / 1000 / Math.max(1, transcripts.length);
  const now = [...byGroup.values()].sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group));
  const before = plan.baselines
    .map(({ label, path }) => readRecorded(label, path))
    .filter((r): r is RecordedFigures => r !== null);
  return { slice: plan.slice, title: plan.title, dataPath: plan.dataPath, now, before, misses, cpuMsPerCall };
}

/** Every slice whose file exists (`only`: the slices to measure, by name). */
export function measureSentimentSlices(only?: readonly string[], analyzer: Analyzer = createLexiconAnalyzer()): SentimentSliceFigures[] {
  return SLICES.filter((plan) => !only || only.includes(plan.slice)).map((plan) => measureSentimentSlice(plan, analyzer));
}

function total(rows: readonly LanguageFigures[]): LanguageFigures {
  return rows.reduce(
    (sum, row) => ({
      group: 'overall',
      calls: sum.calls + row.calls,
      intentCorrect: sum.intentCorrect + row.intentCorrect,
      signCorrect: sum.signCorrect + row.signCorrect,
    }),
    { group: 'overall', calls: 0, intentCorrect: 0, signCorrect: 0 },
  );
}

function cell(correct: number, calls: number, width: number): string {
  return `${correct}/${calls} ${((correct / calls) * 100).toFixed(0)}%`.padStart(width);
}

export function printSentimentSlice(figures: SentimentSliceFigures, indent = '  '): void {
  const columns = [...figures.before.map((b) => b.label), 'now'];
  const width = Math.max(12, ...columns.map((c) => c.length + 7));
  const head = (what: string) => columns.map((c) => `${what} ${c}`.padStart(width)).join(' ');
  console.log(`${indent}${'group'.padEnd(9)} ${head('sign')} ${head('intent')}`);
  const rowsOf = (rows: readonly LanguageFigures[]) => [...rows, total(rows)];
  const tables = [...figures.before.map((b) => rowsOf(b.figures)), rowsOf(figures.now)];
  for (const row of rowsOf(figures.now)) {
    const matching = tables.map((table) => table.find((r) => r.group === row.group));
    const column = (pick: (r: LanguageFigures) => number) =>
      matching.map((r) => (r ? cell(pick(r), r.calls, width) : 'n/a'.padStart(width))).join(' ');
    console.log(`${indent}${row.group.padEnd(9)} ${column((r) => r.signCorrect)} ${column((r) => r.intentCorrect)}`);
  }
  console.log(`${indent}targets: sentiment sign >= 90% and intent >= 95% per language`);
  console.log(`${indent}CPU: ${figures.cpuMsPerCall.toFixed(2)} ms per call (sentiment + intent, one thread, including first-call warm-up)`);
}

function printMisses(misses: readonly SentimentMiss[]): void {
  console.log('\nmisses (id: intent expected -> detected; sign expected -> detected, score)');
  for (const miss of misses) {
    const intent =
      miss.expectedIntent === miss.detectedIntent ? 'intent ok' : `${miss.expectedIntent} -> ${miss.detectedIntent}`;
    const sign = miss.expectedSign === miss.detectedSign ? 'sign ok' : `${miss.expectedSign} -> ${miss.detectedSign}`;
    console.log(`${miss.id.padEnd(14)} ${intent}; ${sign} (${miss.score.toFixed(2)})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sliceArg = process.argv.indexOf('--slice');
  const only = sliceArg > 0 ? [`held_out_${process.argv[sliceArg + 1]}`] : undefined;
  const kind: MeasuredAnalyzer = process.argv.includes('--classifier') ? 'classifier' : 'rules';
  for (const figures of measureSentimentSlices(only, analyzerFor(kind))) {
    console.log(`\nSentiment and intent (${kind === 'classifier' ? 'rules + call classifier' : 'rules alone'}), ${figures.title}: ${figures.dataPath.replace(/^.*\/bench\//, 'bench/')}\n`);
    printSentimentSlice(figures);
    const listMisses = figures.slice === 'held_out_2' ? '--misses' : '--held-out-misses';
    if (process.argv.includes(listMisses)) printMisses(figures.misses);
    if (process.argv.includes('--record-baseline')) console.log(JSON.stringify({ figures: figures.now }));
  }
}

/**
 * Text-analysis accuracy and throughput of the lexicon analyzer on two hand-labelled sets of call transcripts:
 * - the tuned set, bench/data/labelled-transcripts.json: the lexicons were grown on its misses (all its splits,
 *   `dev`, `test` and `fresh`, have been looked at), so its figures are no longer held out;
 * - the first held-out slice, bench/data/held-out-transcripts.json: written without looking at the lexicons and
 *   held out until issue 18, whose changes were tuned on its misses (bench/analysis-sentiment.ts reports the later
 *   slices: the third, bench/data/held-out-3-transcripts.json, is the held-out one now and its figures are the ones
 *   to quote).
 * For each: intent accuracy (a null label expects no intent) and sentiment sign agreement (the customer's
 * sentiment bucket against the labelled sign) per language and overall; plus transcripts per second through
 * summary + sentiment + intent + QA on the tuned set (median of several runs, one core).
 *
 * Run: npx tsx bench/analysis-text.ts [--misses]   (--misses lists every held-out miss)
 * bench/analysis.ts imports measureTextAnalysis() and prints the figures itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLexiconAnalyzer } from '../infra/analysis/lexicon-analyzer.ts';
import { scorecardSchema } from '../infra/analysis/scorecard-schema.ts';
import { sentimentBucket } from '../infra/analysis/sentiment.ts';
import { readLabelledTranscripts, type LabelledTranscript } from './labelled-transcripts.ts';


export interface AccuracyFigures {
  group: string;
  transcripts: number;
  /** Fraction 0..1 of transcripts whose detected intent equals the label. */
  intentAccuracy: number;
  /** Fraction 0..1 whose sentiment bucket (overall score) has the labelled sign. */
  sentimentSignAgreement: number;
}

/** Accuracy on one labelled file. */
export interface LabelledSetFigures {
  /** `tuned` (the lexicons were grown on it) or `held_out` (never used for tuning). */
  set: 'tuned' | 'held_out';
  dataPath: string;
  /** Per language group (en, hi, hinglish, mr, ta, te). */
  byLanguage: AccuracyFigures[];
  overall: AccuracyFigures;
}

export interface TextAnalysisFigures {
  /** Tuned set: per language group (en, hi, hinglish, mr, ta, te) over all splits. */
  byLanguage: AccuracyFigures[];
  /** Tuned set: per split (dev, test, fresh), all languages. */
  bySplit: AccuracyFigures[];
  /** Tuned set, all transcripts. */
  overall: AccuracyFigures;
  /** The tuned set and, when its file exists, the held-out slice, each per language and overall. */
  sets: LabelledSetFigures[];
  /** The held-out slice (the honest figure), or null when its file is missing. */
  heldOut: LabelledSetFigures | null;
  /** Median over runs of transcripts analysed per second (summary + sentiment + intent + QA). */
  transcriptsPerSecond: number;
  runs: number;
}

const DEFAULT_DATA = fileURLToPath(new URL('./data/labelled-transcripts.json', import.meta.url));
const DEFAULT_HELD_OUT = fileURLToPath(new URL('./data/held-out-transcripts.json', import.meta.url));

const greetings = {
  en: ['good morning', 'hello'],
  hi: ['नमस्ते', 'namaste'],
  mr: ['नमस्कार'],
  ta: ['வணக்கம்'],
  te: ['నమస్కారం'],
};
const threats = { en: ['legal action', 'police'], hi: ['पुलिस', 'कानूनी कार्रवाई'] };
const confirmations = { en: ['yes'], hi: ['हाँ', 'haan'], mr: ['हो'], ta: ['ஆமாம்'], te: ['అవును'] };

const benchScorecard = scorecardSchema.parse({
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [
    { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: greetings, within_seconds: 15 } },
    { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: threats } },
    { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: confirmations } },
    { name: 'talk_balance', max_score: 10, check: { type: 'talk_ratio', max_agent_share: 0.7 } },
  ],
});

const SIGN = { positive: 1, neutral: 0, negative: -1 } as const;

/** What the analyzer said about one labelled transcript. */
export interface Outcome {
  id: string;
  group: string;
  expectedIntent: string | null;
  detectedIntent: string | null;
  expectedSign: -1 | 0 | 1;
  detectedSign: -1 | 0 | 1;
  /** The customer's overall sentiment score. */
  score: number;
}

const languageOf = (t: LabelledTranscript) => t.variant ?? t.language.slice(0, 2);

function outcomeOf(transcript: LabelledTranscript): Outcome {
  const analyzer = createLexiconAnalyzer();
  const input = { segments: transcript.segments, language: transcript.language };
  const score = analyzer.sentiment(input).overall;
  return {
    id: transcript.id,
    group: languageOf(transcript),
    expectedIntent: transcript.intent,
    detectedIntent: analyzer.intent(input),
    expectedSign: transcript.sentiment,
    detectedSign: SIGN[sentimentBucket(score)],
    score,
  };
}

function accuracy(group: string, transcripts: readonly LabelledTranscript[]): AccuracyFigures {
  const outcomes = transcripts.map(outcomeOf);
  const intents = outcomes.filter((o) => o.detectedIntent === o.expectedIntent).length;
  const signs = outcomes.filter((o) => o.detectedSign === o.expectedSign).length;
  const count = transcripts.length;
  return {
    group,
    transcripts: count,
    intentAccuracy: count ? intents / count : 0,
    sentimentSignAgreement: count ? signs / count : 0,
  };
}

function groupBy(transcripts: readonly LabelledTranscript[], key: (t: LabelledTranscript) => string) {
  const groups = new Map<string, LabelledTranscript[]>();
  for (const transcript of transcripts) {
    const name = key(transcript);
    groups.set(name, [...(groups.get(name) ?? []), transcript]);
  }
  return groups;
}

function analyseAll(transcripts: readonly LabelledTranscript[]): void {
  const analyzer = createLexiconAnalyzer();
  for (const { segments, language } of transcripts) {
    const intent = analyzer.intent({ segments, language });
    analyzer.sentiment({ segments, language });
    analyzer.summarize({ segments, language, intent });
    analyzer.scoreQa({ segments, language, scorecard: benchScorecard });
  }
}


function setFigures(set: LabelledSetFigures['set'], dataPath: string, transcripts: readonly LabelledTranscript[]) {
  const byLanguage = [...groupBy(transcripts, languageOf)].map(([group, members]) => accuracy(group, members));
  return { set, dataPath, byLanguage, overall: accuracy('overall', transcripts) } satisfies LabelledSetFigures;
}

/** Every held-out transcript whose intent or sentiment sign the analyzer got wrong. */
export function heldOutMisses(dataPath: string = DEFAULT_HELD_OUT): Outcome[] {
  return readLabelledTranscripts(dataPath)
    .map(outcomeOf)
    .filter((o) => o.detectedIntent !== o.expectedIntent || o.detectedSign !== o.expectedSign);
}

/**
 * `dataPath` is the tuned set (default bench/data/labelled-transcripts.json); `heldOutPath` the held-out slice
 * (default bench/data/held-out-transcripts.json; `heldOut` is null when that file does not exist).
 */
export function measureTextAnalysis(
  options: { runs?: number; dataPath?: string; heldOutPath?: string } = {},
): TextAnalysisFigures {
  const runs = options.runs ?? 7;
  const dataPath = options.dataPath ?? DEFAULT_DATA;
  const transcripts = readLabelledTranscripts(dataPath);
  const tuned = setFigures('tuned', dataPath, transcripts);
  const bySplit = [...groupBy(transcripts, (t) => t.split ?? 'unsplit')].map(([group, members]) => accuracy(group, members));
  const heldOutPath = options.heldOutPath ?? DEFAULT_HELD_OUT;
  const heldOut = existsSync(heldOutPath) ? setFigures('held_out', heldOutPath, readLabelledTranscripts(heldOutPath)) : null;

  analyseAll(transcripts); // warm-up: lexicons compile on first use
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    analyseAll(transcripts);
    rates.push(transcripts.length / ((performance.now() - started) / 1000));
  }
  rates.sort((a, b) => a - b);

  return {
    byLanguage: tuned.byLanguage,
    bySplit,
    overall: tuned.overall,
    sets: heldOut ? [tuned, heldOut] : [tuned],
    heldOut,
    transcriptsPerSecond: rates[Math.floor(rates.length / 2)]!,
    runs,
  };
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`.padStart(7);
}

function printRows(title: string, rows: readonly AccuracyFigures[]): void {
  console.log(`\n${title.padEnd(10)} ${'calls'.padStart(5)} ${'intent'.padStart(7)} ${'sentiment sign'.padStart(15)}`);
  for (const row of rows) {
    const calls = String(row.transcripts).padStart(5);
    const sentiment = percent(row.sentimentSignAgreement).padStart(15);
    console.log(`${row.group.padEnd(10)} ${calls} ${percent(row.intentAccuracy)} ${sentiment}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = measureTextAnalysis();
  console.log('Text analysis (lexicon analyzer)');
  for (const set of figures.sets) {
    const what = set.set === 'tuned' ? 'tuned set, lexicons grown on it' : 'first held-out slice (tuned on since issue 18; the held-out figures: bench/analysis-sentiment.ts, third slice)';
    console.log(`\n${what}: ${relative(process.cwd(), set.dataPath)}`);
    printRows(set.set, [...set.byLanguage, set.overall]);
  }
  console.log('\ntuned set per split');
  printRows('split', figures.bySplit);
  if (process.argv.includes('--misses') && figures.heldOut) {
    console.log('\nheld-out misses (id: intent expected -> detected; sign expected -> detected, score)');
    for (const miss of heldOutMisses(figures.heldOut.dataPath)) {
      const intent = miss.expectedIntent === miss.detectedIntent ? 'intent ok' : `${miss.expectedIntent} -> ${miss.detectedIntent}`;
      const sign = miss.expectedSign === miss.detectedSign ? 'sign ok' : `${miss.expectedSign} -> ${miss.detectedSign}`;
      console.log(`${miss.id.padEnd(13)} ${intent}; ${sign} (${miss.score.toFixed(2)})`);
    }
  }
  const rate = figures.transcriptsPerSecond.toFixed(0);
  const what = `summary + sentiment + intent + QA, median of ${figures.runs} runs, one core`;
  console.log(`\nthroughput: ${rate} transcripts/s (${what})`);
}

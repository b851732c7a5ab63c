/**
 * Text-analysis accuracy and throughput of the lexicon analyzer on the hand-labelled call transcripts in
 * bench/data/labelled-transcripts.json: intent accuracy and sentiment sign agreement (the customer's sentiment
 * bucket against the labelled sign) per language and overall, per split (`dev` was used to tune the lexicons,
 * `test` and `fresh` were not), and transcripts per second through summary + sentiment + intent + QA (median of
 * several runs, one core).
 *
 * Run: npx tsx bench/analysis-text.ts
 * The lead's bench/analysis.ts can import measureTextAnalysis() and print the figures itself.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createLexiconAnalyzer } from '../infra/analysis/lexicon-analyzer.ts';
import type { TranscriptSegment } from '../infra/analysis/port.ts';
import { scorecardSchema } from '../infra/analysis/scorecard-schema.ts';
import { sentimentBucket } from '../infra/analysis/sentiment.ts';

interface LabelledTranscript {
  id: string;
  language: string;
  variant?: string;
  split: string;
  intent: string;
  sentiment: -1 | 0 | 1;
  segments: TranscriptSegment[];
}

export interface AccuracyFigures {
  group: string;
  transcripts: number;
  /** Fraction 0..1 of transcripts whose detected intent equals the label. */
  intentAccuracy: number;
  /** Fraction 0..1 whose sentiment bucket (overall score) has the labelled sign. */
  sentimentSignAgreement: number;
}

export interface TextAnalysisFigures {
  /** Per language group (en, hi, hinglish, mr, ta, te) over all splits, then `overall`. */
  byLanguage: AccuracyFigures[];
  /** Per split (dev, test, fresh), all languages. */
  bySplit: AccuracyFigures[];
  overall: AccuracyFigures;
  /** Median over runs of transcripts analysed per second (summary + sentiment + intent + QA). */
  transcriptsPerSecond: number;
  runs: number;
}

const DEFAULT_DATA = fileURLToPath(new URL('./data/labelled-transcripts.json', import.meta.url));

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

function accuracy(group: string, transcripts: readonly LabelledTranscript[]): AccuracyFigures {
  const analyzer = createLexiconAnalyzer();
  let intents = 0;
  let signs = 0;
  for (const transcript of transcripts) {
    const input = { segments: transcript.segments, language: transcript.language };
    if (analyzer.intent(input) === transcript.intent) intents++;
    if (SIGN[sentimentBucket(analyzer.sentiment(input).overall)] === transcript.sentiment) signs++;
  }
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

export function measureTextAnalysis(options: { runs?: number; dataPath?: string } = {}): TextAnalysisFigures {
  const runs = options.runs ?? 7;
  const file = readFileSync(options.dataPath ?? DEFAULT_DATA, 'utf8');
  const transcripts = (JSON.parse(file) as { transcripts: LabelledTranscript[] }).transcripts;

  const languageOf = (t: LabelledTranscript) => t.variant ?? t.language.slice(0, 2);
  const byLanguage = [...groupBy(transcripts, languageOf)].map(([group, members]) => accuracy(group, members));
  const bySplit = [...groupBy(transcripts, (t) => t.split)].map(([group, members]) => accuracy(group, members));

  analyseAll(transcripts); // warm-up: lexicons compile on first use
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    analyseAll(transcripts);
    rates.push(transcripts.length / ((performance.now() - started) / 1000));
  }
  rates.sort((a, b) => a - b);

  return {
    byLanguage,
    bySplit,
    overall: accuracy('overall', transcripts),
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
  console.log('Text analysis (lexicon analyzer) on bench/data/labelled-transcripts.json');
  printRows('language', [...figures.byLanguage, figures.overall]);
  printRows('split', figures.bySplit);
  const rate = figures.transcriptsPerSecond.toFixed(0);
  const what = `summary + sentiment + intent + QA, median of ${figures.runs} runs, one core`;
  console.log(`\nthroughput: ${rate} transcripts/s (${what})`);
}

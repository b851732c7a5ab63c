/**
 * Sentiment sign agreement and intent accuracy per language on the second held-out slice
 * (bench/data/held-out-2-transcripts.json, issue 18), next to the figures main's analyzer gave on the same slice
 * before the issue-18 changes (recorded once in bench/data/held-out-2-baseline.json: the slice was committed,
 * then measured with the unchanged analyzer, then the analyzer was changed without looking at the slice).
 *
 * Run: npx tsx bench/analysis-sentiment.ts [--misses]   (--misses lists every miss on the slice)
 * bench/analysis.ts imports measureSentimentHeldOut() and printSentimentHeldOut().
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLexiconAnalyzer } from '../infra/analysis/lexicon-analyzer.ts';
import type { TranscriptSegment } from '../infra/analysis/port.ts';
import { sentimentBucket } from '../infra/analysis/sentiment.ts';

interface LabelledTranscript {
  id: string;
  language: string;
  variant?: string;
  intent: string | null;
  sentiment: -1 | 0 | 1;
  segments: TranscriptSegment[];
}

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

export interface SentimentHeldOutFigures {
  dataPath: string;
  after: LanguageFigures[];
  /** Recorded figures of main's analyzer on the same slice, or null when the baseline file is missing. */
  before: LanguageFigures[] | null;
  misses: SentimentMiss[];
}

const DATA = fileURLToPath(new URL('./data/held-out-2-transcripts.json', import.meta.url));
const BASELINE = fileURLToPath(new URL('./data/held-out-2-baseline.json', import.meta.url));
const SIGN = { positive: 1, neutral: 0, negative: -1 } as const;
const GROUPS = ['en', 'hi', 'hinglish', 'mr', 'ta', 'te'];

const groupOf = (t: LabelledTranscript) => t.variant ?? t.language.slice(0, 2);

export function measureSentimentHeldOut(dataPath: string = DATA): SentimentHeldOutFigures {
  const transcripts = (JSON.parse(readFileSync(dataPath, 'utf8')) as { transcripts: LabelledTranscript[] }).transcripts;
  const analyzer = createLexiconAnalyzer();
  const byGroup = new Map<string, LanguageFigures>();
  const misses: SentimentMiss[] = [];
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
  const after = [...byGroup.values()].sort((a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group));
  let before: LanguageFigures[] | null = null;
  try {
    before = (JSON.parse(readFileSync(BASELINE, 'utf8')) as { figures: LanguageFigures[] }).figures;
  } catch {
    before = null;
  }
  return { dataPath, after, before, misses };
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

function cell(correct: number, calls: number): string {
  return `${correct}/${calls} ${((correct / calls) * 100).toFixed(0)}%`.padStart(12);
}

export function printSentimentHeldOut(figures: SentimentHeldOutFigures, indent = '  '): void {
  const header = `${'group'.padEnd(9)} ${'sign before'.padStart(12)} ${'sign after'.padStart(12)} ${'intent before'.padStart(13)} ${'intent after'.padStart(12)}`;
  console.log(`${indent}${header}`);
  const rows = [...figures.after, total(figures.after)];
  const before = figures.before ? [...figures.before, total(figures.before)] : null;
  for (const row of rows) {
    const old = before?.find((b) => b.group === row.group);
    const signBefore = old ? cell(old.signCorrect, old.calls) : 'n/a'.padStart(12);
    const intentBefore = old ? cell(old.intentCorrect, old.calls).padStart(13) : 'n/a'.padStart(13);
    console.log(
      `${indent}${row.group.padEnd(9)} ${signBefore} ${cell(row.signCorrect, row.calls)} ${intentBefore} ${cell(row.intentCorrect, row.calls)}`,
    );
  }
  console.log(`${indent}targets: sentiment sign >= 90% and intent >= 95% per language`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = measureSentimentHeldOut();
  console.log('Sentiment and intent on the second held-out slice (bench/data/held-out-2-transcripts.json)\n');
  printSentimentHeldOut(figures);
  if (process.argv.includes('--misses')) {
    console.log('\nmisses (id: intent expected -> detected; sign expected -> detected, score)');
    for (const miss of figures.misses) {
      const intent = miss.expectedIntent === miss.detectedIntent ? 'intent ok' : `${miss.expectedIntent} -> ${miss.detectedIntent}`;
      const sign = miss.expectedSign === miss.detectedSign ? 'sign ok' : `${miss.expectedSign} -> ${miss.detectedSign}`;
      console.log(`${miss.id.padEnd(14)} ${intent}; ${sign} (${miss.score.toFixed(2)})`);
    }
  }
  if (process.argv.includes('--record-baseline')) {
    console.log(JSON.stringify({ figures: figures.after }));
  }
}

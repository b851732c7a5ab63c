/**
 * Summary quality (issue 18) on labelled calls, before (the summary of BEFORE_COMMIT, main before this work, taken
 * from git into a temporary file) and after (infra/analysis/summary.ts), in one run.
 *
 * Calls: bench/data/labelled-transcripts.json (slice `tuned`: looked at while the summarizer was built),
 * bench/data/held-out-transcripts.json (slice `held_out`: labelled before the new summarizer ran on it, never used
 * to change it; but the intent lexicons were later tuned on it) and bench/data/held-out-2-transcripts.json (slice
 * `held_out_2`: nothing tuned on it; the figure to quote); labels in bench/data/summary-labels.json (its
 * description says how they match).
 * Each call is first dressed as a campaign call sounds: the script's recording notice after the agent's first turn
 * and the script's closing line at the end, in the call's language, as the voice bot says them on every call.
 * Then, as the pipeline does: intent and sentiment by the lexicon analyzer, then the summary (no disposition: an
 * uploaded recording has none).
 *
 * Figures per language group and slice: share of summaries that state the outcome (with the day or time of the
 * next step when one was agreed), that state the customer's request, that mention the amount when one was spoken;
 * summaries containing a boilerplate sentence (a script line above, or a greeting / identity-check sentence of
 * the agent's first turn; target 0); summaries in the call's own script (Hinglish: Latin); and 2 to 4 sentences.
 *
 * Run: npx tsx bench/analysis-summary.ts [--show]   (--show prints every summary of `held_out_2`, before and after)
 * bench/analysis.ts imports measureSummaryQuality() and prints the figures itself.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createLexiconAnalyzer } from '../infra/analysis/lexicon-analyzer.ts';
import type { SentimentResult, TranscriptSegment } from '../infra/analysis/port.ts';
import { summarize } from '../infra/analysis/summary.ts';
import { summaryAtCommit } from './summary-at-commit.ts';
import { extractEntities } from '../infra/analysis/entities/entities.ts';
import { normalizeText } from '../domain/shared/text/normalize.ts';

/** main when this work started: the summarizer the figures compare against. */
export const BEFORE_COMMIT = '67596d9';

const TRANSCRIPT_FILES = {
  tuned: fileURLToPath(new URL('./data/labelled-transcripts.json', import.meta.url)),
  held_out: fileURLToPath(new URL('./data/held-out-transcripts.json', import.meta.url)),
  held_out_2: fileURLToPath(new URL('./data/held-out-2-transcripts.json', import.meta.url)),
};
const LABELS = fileURLToPath(new URL('./data/summary-labels.json', import.meta.url));

type Slice = keyof typeof TRANSCRIPT_FILES;
type Group = 'en' | 'hi' | 'hinglish' | 'mr' | 'ta' | 'te';
const GROUPS: readonly Group[] = ['en', 'hi', 'hinglish', 'mr', 'ta', 'te'];

interface Transcript {
  id: string;
  language: string;
  variant?: string;
  segments: TranscriptSegment[];
}

interface Label {
  id: string;
  outcome: string;
  request: string[];
  when?: string[];
  amounts?: number[];
}

interface LabelFile {
  concepts: Record<string, Record<'en' | 'hi' | 'mr' | 'ta' | 'te', string[]>>;
  hinglish_concept_words: Record<string, string[]>;
  slices: Record<Slice, Label[]>;
}

type Summarize = (input: { segments: TranscriptSegment[]; language: string; intent?: string | null; sentiment?: SentimentResult }) => string;

/** What the script says on every call, in each language: inserted into every call, never summary content. */
const SCRIPT_LINES: Record<Group, { recording: string; closing: string }> = {
  en: { recording: 'This call is recorded for quality and training purposes.', closing: 'Thank you for your time, our team will call you shortly.' },
  hinglish: { recording: 'Ye call quality ke liye record ho rahi hai.', closing: 'Aapke time ke liye thank you, hamari team aapko jaldi call karegi.' },
  hi: { recording: 'यह कॉल गुणवत्ता के लिए रिकॉर्ड की जा रही है।', closing: 'आपके समय के लिए धन्यवाद, हमारी टीम आपको जल्द ही कॉल करेगी।' },
  mr: { recording: 'हा कॉल गुणवत्तेसाठी रेकॉर्ड केला जात आहे.', closing: 'तुमच्या वेळेबद्दल धन्यवाद, आमची टीम तुम्हाला लवकरच कॉल करेल.' },
  ta: { recording: 'இந்த அழைப்பு தரத்திற்காக பதிவு செய்யப்படுகிறது.', closing: 'உங்கள் நேரத்திற்கு நன்றி, எங்கள் குழு விரைவில் உங்களை அழைக்கும்.' },
  te: { recording: 'ఈ కాల్ నాణ్యత కోసం రికార్డ్ చేయబడుతోంది.', closing: 'మీ సమయానికి ధన్యవాదాలు, మా బృందం త్వరలో మీకు కాల్ చేస్తుంది.' },
};

/** Greeting and identity-check markers: a sentence of the agent's first turn with one is script boilerplate. */
const OPENING_MARKERS = /good (?:morning|afternoon|evening)|\bhello\b|\bhi\b|am i speaking|namaste|namaskar|नमस्ते|नमस्कार|क्या मेरी बात|बोलताय का|வணக்கம்|நமஸ்காரம்|నమస్కారం|గారేనా/iu;

const OWN_SCRIPT: Record<Group, RegExp> = {
  en: /\p{Script=Latin}/gu,
  hinglish: /\p{Script=Latin}/gu,
  hi: /\p{Script=Devanagari}/gu,
  mr: /\p{Script=Devanagari}/gu,
  ta: /\p{Script=Tamil}/gu,
  te: /\p{Script=Telugu}/gu,
};

function groupOf(transcript: Transcript): Group {
  if (transcript.variant === 'hinglish' || transcript.id.startsWith('hinglish')) return 'hinglish';
  return transcript.language.slice(0, 2) as Group;
}

function dressed(transcript: Transcript, group: Group): TranscriptSegment[] {
  const segments = [...transcript.segments].sort((a, b) => a.start_time - b.start_time);
  const firstAgent = segments.findIndex((segment) => segment.speaker === 'agent');
  const lines = SCRIPT_LINES[group];
  const at = firstAgent === -1 ? 0 : firstAgent + 1;
  const previousEnd = at === 0 ? 0 : segments[at - 1]!.end_time;
  const recording = { speaker: 'agent', text: lines.recording, start_time: previousEnd + 0.01, end_time: previousEnd + 0.02 };
  const last = segments[segments.length - 1]!;
  const closing = { speaker: 'agent', text: lines.closing, start_time: last.end_time + 0.5, end_time: last.end_time + 3 };
  return [...segments.slice(0, at), recording, ...segments.slice(at), closing];
}

function boilerplateSentences(transcript: Transcript, group: Group): string[] {
  const firstAgent = transcript.segments.find((segment) => segment.speaker === 'agent');
  const segmenter = new Intl.Segmenter(transcript.language.slice(0, 2), { granularity: 'sentence' });
  const opening = firstAgent
    ? [...segmenter.segment(firstAgent.text)].map((part) => part.segment.trim()).filter((sentence) => OPENING_MARKERS.test(sentence))
    : [];
  return [SCRIPT_LINES[group].recording, SCRIPT_LINES[group].closing, ...opening];
}

function includesAny(haystack: string, needles: readonly string[]): boolean {
  return needles.some((needle) => {
    const normalized = normalizeText(needle);
    return normalized.length > 0 && haystack.includes(normalized);
  });
}

interface Verdict {
  outcome: boolean;
  request: boolean;
  /** null: no amount was spoken. */
  amount: boolean | null;
  boilerplate: boolean;
  ownScript: boolean;
  sentences: boolean;
}

function judge(summary: string, transcript: Transcript, group: Group, label: Label, labels: LabelFile): Verdict {
  const text = ` ${normalizeText(summary)} `;
  const conceptLanguage = group === 'hinglish' ? 'en' : group;
  const concept = labels.concepts[label.outcome]!;
  const outcomeWords = [...concept[conceptLanguage], ...concept.en, ...(group === 'hinglish' ? labels.hinglish_concept_words[label.outcome] ?? [] : [])];
  const outcome = includesAny(text, outcomeWords) && (!label.when || includesAny(text, label.when));
  const request = includesAny(text, label.request);
  const spoken = label.amounts ?? [];
  const mentioned = new Set(extractEntities(summary).amounts.map((amount) => amount.rupees));
  const amount = spoken.length === 0 ? null : spoken.some((value) => mentioned.has(value));
  const boilerplate = includesAny(text, boilerplateSentences(transcript, group));
  const letters = summary.match(/\p{L}/gu)?.length ?? 1;
  const own = summary.match(OWN_SCRIPT[group])?.length ?? 0;
  const segmenter = new Intl.Segmenter(transcript.language.slice(0, 2), { granularity: 'sentence' });
  const count = [...segmenter.segment(summary)].filter((part) => part.segment.trim()).length;
  return { outcome, request, amount, boilerplate, ownScript: own / letters >= 0.5, sentences: count >= 2 && count <= 4 };
}

export interface SummaryFigures {
  group: string;
  calls: number;
  outcome: number;
  request: number;
  /** Calls where an amount was spoken, and the share of those whose summary mentions it. */
  amountCalls: number;
  amount: number;
  boilerplate: number;
  ownScript: number;
  sentences: number;
}

export interface SummaryQuality {
  slice: Slice;
  version: 'before' | 'after';
  byGroup: SummaryFigures[];
  overall: SummaryFigures;
}

function figures(group: string, verdicts: readonly Verdict[]): SummaryFigures {
  const share = (count: number, of: number) => (of === 0 ? 0 : count / of);
  const withAmount = verdicts.filter((verdict) => verdict.amount !== null);
  return {
    group,
    calls: verdicts.length,
    outcome: share(verdicts.filter((v) => v.outcome).length, verdicts.length),
    request: share(verdicts.filter((v) => v.request).length, verdicts.length),
    amountCalls: withAmount.length,
    amount: share(withAmount.filter((v) => v.amount).length, withAmount.length),
    boilerplate: verdicts.filter((v) => v.boilerplate).length,
    ownScript: share(verdicts.filter((v) => v.ownScript).length, verdicts.length),
    sentences: share(verdicts.filter((v) => v.sentences).length, verdicts.length),
  };
}


export interface SummaryExample {
  id: string;
  before: string;
  after: string;
}

export async function measureSummaryQuality(): Promise<{ results: SummaryQuality[]; heldOutExamples: SummaryExample[] }> {
  const labels = JSON.parse(readFileSync(LABELS, 'utf8')) as LabelFile;
  const analyzer = createLexiconAnalyzer();
  const before = await summaryAtCommit(BEFORE_COMMIT);
  const results: SummaryQuality[] = [];
  const heldOutExamples: SummaryExample[] = [];
  try {
    for (const slice of ['tuned', 'held_out', 'held_out_2'] as const) {
      const transcripts = new Map<string, Transcript>(
        (JSON.parse(readFileSync(TRANSCRIPT_FILES[slice], 'utf8')).transcripts as Transcript[]).map((t) => [t.id, t]),
      );
      const verdicts = { before: new Map<Group, Verdict[]>(), after: new Map<Group, Verdict[]>() };
      for (const label of labels.slices[slice]) {
        const transcript = transcripts.get(label.id);
        if (!transcript) throw new Error(`label ${label.id}: no such call in ${TRANSCRIPT_FILES[slice]}`);
        const group = groupOf(transcript);
        const segments = dressed(transcript, group);
        const input = { segments, language: transcript.language };
        const intent = analyzer.intent(input);
        const sentiment = analyzer.sentiment(input);
        const summaries = { before: before.summarize({ ...input, intent, sentiment }), after: summarize({ ...input, intent, sentiment }) };
        for (const version of ['before', 'after'] as const) {
          const list = verdicts[version].get(group) ?? [];
          list.push(judge(summaries[version], transcript, group, label, labels));
          verdicts[version].set(group, list);
        }
        if (slice === 'held_out_2') heldOutExamples.push({ id: label.id, ...summaries });
      }
      for (const version of ['before', 'after'] as const) {
        const byGroup = GROUPS.filter((group) => verdicts[version].has(group)).map((group) => figures(group, verdicts[version].get(group)!));
        results.push({ slice, version, byGroup, overall: figures('all', [...verdicts[version].values()].flat()) });
      }
    }
  } finally {
    before.remove();
  }
  return { results, heldOutExamples };
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(0)}%`;

export function printSummaryQuality(results: readonly SummaryQuality[]): void {
  const descriptions: Record<Slice, string> = {
    held_out_2: 'second held-out slice (issue 18; summary labels written after the summarizer was finished; neither the summarizer nor the analyzer tuned on it): quote this one',
    held_out: 'first held-out slice (the summarizer never tuned on it, but the intent lexicons were tuned on it for issue 18, which lifts the outcome figure)',
    tuned: 'tuned slice (looked at while building the summarizer)',
  };
  for (const slice of ['held_out_2', 'held_out', 'tuned'] as const) {
    const what = descriptions[slice];
    console.log(`\n  ${what}`);
    console.log(`  ${'group'.padEnd(9)} ${'version'.padEnd(7)} ${'calls'.padStart(5)} ${'outcome'.padStart(8)} ${'request'.padStart(8)} ${'amount'.padStart(10)} ${'boilerplate'.padStart(12)} ${'own script'.padStart(11)} ${'2-4 sent.'.padStart(10)}`);
    const before = results.find((r) => r.slice === slice && r.version === 'before')!;
    const after = results.find((r) => r.slice === slice && r.version === 'after')!;
    const rows = (result: SummaryQuality) => [...result.byGroup, result.overall];
    rows(before).forEach((row, index) => {
      for (const [version, figures] of [['before', row], ['after', rows(after)[index]!]] as const) {
        console.log(
          `  ${(version === 'before' ? figures.group : '').padEnd(9)} ${version.padEnd(7)} ${String(figures.calls).padStart(5)} ${percent(figures.outcome).padStart(8)} ${percent(figures.request).padStart(8)} ${`${percent(figures.amount)} of ${figures.amountCalls}`.padStart(10)} ${String(figures.boilerplate).padStart(12)} ${percent(figures.ownScript).padStart(11)} ${percent(figures.sentences).padStart(10)}`,
        );
      }
    });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { results, heldOutExamples } = await measureSummaryQuality();
  console.log('Summary quality: share of summaries stating the outcome / the customer\'s request / the amount spoken; summaries with a boilerplate sentence (target 0)');
  printSummaryQuality(results);
  if (process.argv.includes('--show')) {
    for (const example of heldOutExamples) console.log(`\n${example.id}\n  before: ${example.before}\n  after:  ${example.after}`);
  }
}

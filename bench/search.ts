/**
 * Transcript search: index build rate and query latency of GET /v1/analytics/search's query layer
 * (projections/transcript-search-queries.ts) over a generated index.
 *
 * Generates transcripts of 10 segments in five languages (en, hi, mr, ta, te), 90 % of them in the workspace that
 * is searched and 10 % in a neighbour, feeds their events through the projection's own `apply` in batches of
 * 1,000 events per transaction (as the runner does), on a file database in WAL mode. Then, warm, for each query
 * kind: median and p99 of the first page (limit 20, with the exact total), and the ratio to a bare FTS5 MATCH count
 * of the same word on the same table.
 *
 * Run: npm run bench:search [-- --segments 100000 --runs 200 --keep 1 (keep the index file, to profile)]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { searchWords } from '../projections/search-text.ts';
import { searchTranscripts, wordExpression } from '../projections/transcript-search-queries.ts';
import { searchIndex, transcriptEvents } from '../tests/support/search-events.ts';

const { values } = parseArgs({ options: { segments: { type: 'string', default: '100000' }, runs: { type: 'string', default: '200' }, keep: { type: 'string' } } });
const SEGMENTS = Number(values.segments);
const RUNS = Number(values.runs);
const SEGMENTS_PER_TRANSCRIPT = 10;

const SENTENCES: Record<string, string[]> = {
  'en-IN': [
    'Good morning, this is Asha calling from Sahay Finance about your loan.',
    'Your personal loan of fifty thousand rupees is due for renewal this month.',
    'I want to renew it, but the interest rate is too high for me.',
    'We can offer a lower rate if you renew before the end of the week.',
    'Please send me the documents on WhatsApp, I will check them tonight.',
    'Thank you for your time, our team will call you tomorrow.',
    'I am busy right now, can you call me back in the evening?',
    'The payment failed twice because of a problem with my bank account.',
  ],
  'hi-IN': [
    'नमस्ते, मैं सहाय फाइनेंस से आशा बोल रही हूँ।',
    'आपके ऋण का नवीनीकरण इस महीने बाकी है।',
    'मुझे क़र्ज़ बढ़ाना है लेकिन ब्याज ज़्यादा है।',
    'कृपया दस्तावेज़ व्हाट्सऐप पर भेज दीजिए।',
    'धन्यवाद, हमारी टीम कल आपको फ़ोन करेगी।',
  ],
  'mr-IN': ['नमस्कार, मी सहाय फायनान्सकडून बोलत आहे.', 'माझे कर्ज नूतनीकरण करा.', 'व्याजदर कमी करा, मग मी विचार करेन.'],
  'ta-IN': ['வணக்கம், நான் சகாய் ஃபைனான்ஸிலிருந்து பேசுகிறேன்.', 'உங்கள் கடன் புதுப்பித்தல் இந்த மாதம்.', 'வட்டி விகிதம் அதிகமாக உள்ளது.'],
  'te-IN': ['నమస్కారం, నేను సహాయ్ ఫైనాన్స్ నుండి మాట్లాడుతున్నాను.', 'మీ రుణం పునరుద్ధరణ ఈ నెలలో ఉంది.', 'వడ్డీ రేటు ఎక్కువగా ఉంది.'],
};
const LANGUAGES = Object.keys(SENTENCES);
/** One segment in this many carries the rare word. */
const RARE_EVERY = 2_000;

// A deterministic pseudo-random sequence, so two runs index the same text.
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const directory = mkdtempSync(join(tmpdir(), 'bench-search-'));
const path = join(directory, 'read.db');
const index = searchIndex(path);
index.db.pragma('journal_mode = WAL');
index.db.pragma('synchronous = NORMAL');

// ------------------------------------------------------------------------------------------------------ build
const transcripts = Math.ceil(SEGMENTS / SEGMENTS_PER_TRANSCRIPT);
const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
let segmentCount = 0;
let buildMs = 0;
let pending: ReturnType<typeof transcriptEvents> = [];
const flush = () => {
  const started = performance.now();
  index.apply(pending);
  buildMs += performance.now() - started;
  pending = [];
};
for (let transcript = 0; transcript < transcripts; transcript++) {
  const language = pick(LANGUAGES);
  const workspaceId = random() < 0.9 ? 'ws_bench' : 'ws_neighbour';
  const startedAt = new Date(T0 + Math.floor(random() * 90 * DAY)).toISOString();
  const segments = Array.from({ length: SEGMENTS_PER_TRANSCRIPT }, (_, position) => {
    segmentCount++;
    const rare = segmentCount % RARE_EVERY === 0 ? ' zanzibar' : '';
    return { speaker: position % 2 === 0 ? 'agent' : 'customer', text: `${pick(SENTENCES[language]!)}${rare}`, start_time: position * 4, end_time: position * 4 + 3.5 };
  });
  pending.push(
    ...transcriptEvents({
      workspaceId,
      jobId: `job_${transcript}`,
      language,
      ...(transcript % 2 === 0 ? { call: { callId: `cal_${transcript}`, campaignId: `cmp_${transcript % 50}`, startedAt } } : { submittedAt: startedAt }),
      segments,
    }),
  );
  if (pending.length >= 1_000) flush();
}
flush();
index.db.pragma('wal_checkpoint(TRUNCATE)');
const sizeBytes = statSync(path).size;

// ------------------------------------------------------------------------------------------------------ queries
function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

function measure(run: () => unknown): { p50: number; p99: number } {
  for (let warm = 0; warm < 5; warm++) run();
  const times: number[] = [];
  for (let repeat = 0; repeat < RUNS; repeat++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

const bareMatch = index.db.prepare('SELECT count(*) FROM search_segments_fts WHERE search_segments_fts MATCH ?');
const QUERIES: Array<[kind: string, query: string]> = [
  ['rare term', 'zanzibar'],
  ['common term', 'loan'],
  ['common term, Hindi', 'नवीनी'],
  ['two characters', 'ऋण'],
  ['one character', 'ऋ'],
  ['three-word phrase (5 s rule)', 'renew interest rate'],
  ['phrase with a short word', 'loan of'],
  ['phrase, rare word second', 'loan zanzibar'],
];

console.log(`transcript search: ${segmentCount.toLocaleString('en')} segments in ${transcripts.toLocaleString('en')} transcripts, 5 languages, 2 workspaces`);
console.log(`index build: ${Math.round(segmentCount / (buildMs / 1000)).toLocaleString('en')} segments/s (${(buildMs / 1000).toFixed(1)} s); read.db ${(sizeBytes / 1_048_576).toFixed(1)} MB`);
console.log(`queries: first page (limit 20) with the exact total, ${RUNS} runs each, warm; ms`);
console.log('kind                           | total_matches |   p50 |   p99 | bare MATCH p50 | ratio');
for (const [kind, query] of QUERIES) {
  const words = searchWords(query);
  const search = () => searchTranscripts(index.db, { workspaceId: 'ws_bench', words, limit: 20, offset: 0 });
  const total = search().total;
  const timing = measure(search);
  const firstWord = words[0]!;
  // The bare MATCH of the same FTS5 expression the search uses for its first word (the prefix trigrams of a short word).
  const expression = wordExpression(index.db, firstWord)!;
  const bare = measure(() => bareMatch.get(expression));
  console.log(
    `${kind.padEnd(30)} | ${String(total).padStart(13)} | ${timing.p50.toFixed(2).padStart(5)} | ${timing.p99.toFixed(2).padStart(5)} | ` +
      `${bare.p50.toFixed(2).padStart(14)} | ${(timing.p50 / bare.p50).toFixed(1)}`,
  );
}

index.db.close();
if (values.keep) console.log(`index kept: ${path}`);
else rmSync(directory, { recursive: true, force: true });

// Every query plan of transcript search (projections/transcript-search-queries.ts) gives the same page and the same
// exact total as a plain reading of the rules (an oracle over the segments, in JavaScript, test-only): one word,
// one character, phrases driven by the first word, by the rarest word, or counted through the segments holding every
// word; the page sorted or read in result order. Two workspaces hold identical text; neither ever sees the other's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normaliseForSearch, searchWords } from '../../projections/search-text.ts';
import { SEGMENTS_PER_WORKSPACE } from '../../projections/transcript-search.ts';
import { PHRASE_PROXIMITY_SECONDS, searchTranscripts, type SearchTuning, type TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import { searchIndex, transcriptEvents } from '../support/search-events.ts';

interface Segment {
  workspaceId: string;
  jobId: string;
  callId: string | null;
  language: string;
  startedAt: string;
  speaker: string;
  text: string;
  start_time: number;
  end_time: number;
  order: number;
}

const SENTENCES = [
  'your loan is due for renewal',
  'I want to renew the loan',
  'the interest rate is high',
  'send the papers on whatsapp',
  'zanzibar is far away',
  'आपके ऋण का नवीनीकरण बाकी है',
  'loan loan loan',
  'ok',
  'a b c',
];

let seed = 7;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

const index = searchIndex();
const segments: Segment[] = [];
for (let transcript = 0; transcript < 60; transcript++) {
  const language = transcript % 3 === 0 ? 'hi-IN' : 'en-IN';
  // Some transcripts start at the same instant, so ties are ordered by job id.
  const startedAt = new Date(Date.UTC(2026, 2, 1 + (transcript % 17), 10)).toISOString();
  const jobId = `job_${String(transcript).padStart(3, '0')}`;
  let time = 0;
  const parts = Array.from({ length: 2 + Math.floor(random() * 6) }, (_, position) => {
    const start = time;
    const end = start + 1 + Math.floor(random() * 4);
    time = end + Math.floor(random() * 4);
    return { speaker: position % 2 === 0 ? 'agent' : 'customer', text: pick(SENTENCES), start_time: start, end_time: end };
  });
  // The same transcript in both workspaces, under different job ids.
  for (const workspaceId of ['ws_a', 'ws_b']) {
    const job = `${jobId}_${workspaceId}`;
    const callId = transcript % 2 === 0 ? `cal_${transcript}_${workspaceId}` : null;
    index.apply(
      transcriptEvents({
        workspaceId, jobId: job, language, segments: parts,
        ...(callId ? { call: { callId, campaignId: `cmp_${transcript % 3}`, startedAt } } : { submittedAt: startedAt }),
      }),
    );
    parts.forEach((part, position) => segments.push({ workspaceId, jobId: job, callId, language, startedAt, ...part, order: segments.length + position }));
  }
}

// A long segment early in a transcript still counts for a word said just after it ends.
for (const workspaceId of ['ws_a', 'ws_b']) {
  const jobId = `job_long_${workspaceId}`;
  const parts = [
    { speaker: 'customer', text: 'the interest on my loan papers is a long story', start_time: 0, end_time: 40 },
    { speaker: 'agent', text: 'renew', start_time: 41, end_time: 42 },
    { speaker: 'agent', text: 'ok zanzibar', start_time: 52, end_time: 53 },
  ];
  index.apply(transcriptEvents({ workspaceId, jobId, submittedAt: '2026-03-20T10:00:00.000Z', segments: parts }));
  parts.forEach((part) => segments.push({ workspaceId, jobId, callId: null, language: 'en-IN', startedAt: '2026-03-20T10:00:00.000Z', ...part, order: segments.length }));
}

/** The rules, read plainly. */
function oracle(search: TranscriptSearch) {
  const [first, ...others] = search.words;
  const holds = (segment: Segment, word: string) => normaliseForSearch(segment.text).includes(word);
  const near = (a: Segment, b: Segment) => a.jobId === b.jobId && b.start_time <= a.end_time + PHRASE_PROXIMITY_SECONDS && b.end_time >= a.start_time - PHRASE_PROXIMITY_SECONDS;
  const anchors = segments.filter(
    (segment) =>
      segment.workspaceId === search.workspaceId &&
      holds(segment, first!) &&
      (search.language === undefined || segment.language === search.language) &&
      (search.speaker === undefined || segment.speaker === search.speaker) &&
      (search.from === undefined || segment.startedAt >= search.from) &&
      others.every((word) => segments.some((other) => near(segment, other) && holds(other, word))),
  );
  anchors.sort((a, b) => (a.startedAt !== b.startedAt ? (a.startedAt < b.startedAt ? 1 : -1) : a.jobId !== b.jobId ? (a.jobId < b.jobId ? 1 : -1) : a.start_time - b.start_time || a.order - b.order));
  return { total: anchors.length, page: anchors.slice(search.offset, search.offset + search.limit).map((segment) => `${segment.jobId}@${segment.start_time}`) };
}

const TUNINGS: Record<string, SearchTuning> = {
  default: { rareHits: 2_000, walkCost: 1 },
  'first word drives, page sorted': { rareHits: 0, walkCost: Number.POSITIVE_INFINITY },
  'rarest word drives, page walked': { rareHits: 1_000_000, walkCost: 0 },
};

const QUERIES = ['renew interest', 'renew papers zanzibar', 'zanzibar renew', 'loan', 'renew', 'zanzibar', 'ऋण', 'ok', 'a', 'ऋ', 'loan renew', 'renew loan', 'loan zanzibar', 'zanzibar loan', 'loan interest papers', 'due renewal', 'loan loan', 'a b', 'ok loan', 'nothing'];
const OPTIONS: Array<Partial<TranscriptSearch>> = [{}, { offset: 3, limit: 4 }, { language: 'hi-IN' }, { speaker: 'customer', from: '2026-03-08T00:00:00.000Z' }];

test('every plan gives the oracle\'s total and page, in both workspaces', () => {
  let nonEmpty = 0;
  for (const query of QUERIES) {
    for (const options of OPTIONS) {
      for (const workspaceId of ['ws_a', 'ws_b']) {
        const search: TranscriptSearch = { workspaceId, words: searchWords(query), limit: 10, offset: 0, ...options };
        const expected = oracle(search);
        if (expected.total > 0) nonEmpty++;
        for (const [name, tuning] of Object.entries(TUNINGS)) {
          const { total, results } = searchTranscripts(index.db, search, tuning);
          const label = `${name}: "${query}" ${JSON.stringify(options)} in ${workspaceId}`;
          assert.is(total, expected.total, label);
          assert.equal(results.map((result) => `${result.job_id}@${result.start_time}`), expected.page, label);
          for (const result of results) assert.ok(result.job_id.endsWith(`_${workspaceId}`), label);
        }
      }
    }
  }
  assert.ok(nonEmpty > 50, `the queries must find something (${nonEmpty})`);
});

test('segment ids: each workspace has its own range, so one FTS MATCH never reads another\'s rows', () => {
  const ranges = index.db
    .prepare('SELECT workspace_id, min(segment_id) AS low, max(segment_id) AS high, count(*) AS n FROM search_segments GROUP BY workspace_id ORDER BY workspace_id')
    .all() as Array<{ workspace_id: string; low: number; high: number; n: number }>;
  assert.equal(ranges.map((range) => [range.workspace_id, Math.floor(range.low / SEGMENTS_PER_WORKSPACE), Math.floor(range.high / SEGMENTS_PER_WORKSPACE)]), [['ws_a', 1, 1], ['ws_b', 2, 2]]);
  const counted = index.db.prepare('SELECT workspace_id, segments FROM search_workspaces ORDER BY workspace_id').all() as Array<{ workspace_id: string; segments: number }>;
  assert.equal(counted.map((row) => row.segments), ranges.map((range) => range.n));
  assert.equal(searchTranscripts(index.db, { workspaceId: 'ws_unknown', words: ['loan'], limit: 10, offset: 0 }), { total: 0, results: [] });
});

test.run();

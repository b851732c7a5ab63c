// Remembered exact totals (projections/transcript-search-totals.ts) over a real SQLite index: every total given
// with a search thread's remembered totals equals the one counted afresh, after new transcripts arrive past the
// watermark, after a call's timeline start moves (the generation), in two workspaces holding identical text, with
// filters; the remembered total is what is used (a planted one shows through until it is invalidated); the bound.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import BetterSqlite3 from 'better-sqlite3';
import type { TranscriptSegment } from '../../domain/transcription-job.ts';
import { searchWords } from '../../projections/search-text.ts';
import { transcriptSearchProjection } from '../../projections/transcript-search.ts';
import { searchTranscripts, DEFAULT_SEARCH_TUNING, type SearchTuning, type TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import { SearchTotals, totalKey } from '../../projections/transcript-search-totals.ts';
import { searchIndex, transcriptEvents } from '../support/search-events.ts';

const segment = (speaker: string, text: string, start_time: number, end_time: number): TranscriptSegment => ({ speaker, text, start_time, end_time });

/** A transcript with "loan" and "renew" 4 s apart (a phrase match), and "loan" again 20 s later (not one). */
const conversation = (name: string): TranscriptSegment[] => [
  segment('agent', `${name}, your loan is due.`, 0, 3),
  segment('customer', 'I want to renew it.', 4, 7),
  segment('agent', 'The loan papers come later.', 27, 30),
  segment('customer', 'Renewal, fine.', 50, 52),
];

let jobs = 0;
function addTranscript(index: ReturnType<typeof searchIndex>, workspaceId: string, segments: TranscriptSegment[], call?: { callId: string; startedAt: string }) {
  jobs++;
  index.apply(
    transcriptEvents({
      workspaceId,
      jobId: `job_${jobs}`,
      submittedAt: call?.startedAt ?? new Date(Date.UTC(2026, 2, 1, 0, jobs)).toISOString(),
      ...(call ? { call: { ...call, campaignId: 'cmp_1' } } : {}),
      segments,
    }),
  );
}

const QUERIES: Array<[string, Partial<TranscriptSearch>]> = [
  ['loan', {}],
  ['renew', {}],
  ['lo', {}],
  ['loan renew', {}],
  ['renew loan', {}],
  ['loan', { speaker: 'agent' }],
  ['loan renew', { from: '2026-03-01T00:03:00.000Z' }],
];

function search(db: BetterSqlite3.Database, workspaceId: string, query: string, options: Partial<TranscriptSearch>, totals?: SearchTotals, tuning: SearchTuning = DEFAULT_SEARCH_TUNING) {
  return searchTranscripts(db, { workspaceId, words: searchWords(query), limit: 2, offset: 0, ...options }, tuning, totals);
}

/** Each query, with the remembered totals and afresh: the same total and page. */
function assertExact(db: BetterSqlite3.Database, workspaceId: string, totals: SearchTotals, label: string, tuning: SearchTuning = DEFAULT_SEARCH_TUNING): number[] {
  return QUERIES.map(([query, options]) => {
    const remembered = search(db, workspaceId, query, options, totals, tuning);
    const fresh = search(db, workspaceId, query, options, undefined, tuning);
    assert.equal(remembered, fresh, `${label}: ${query} ${JSON.stringify(options)}`);
    return fresh.total;
  });
}

test('new transcripts past the watermark: totals stay exact, phrases (5 s rule) included, each page sharing one entry', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  for (let n = 0; n < 3; n++) addTranscript(index, 'ws_a', conversation(`Asha ${n}`));
  const before = assertExact(index.db, 'ws_a', totals, 'first');
  assert.equal(before.slice(0, 5), [6, 6, 6, 3, 3]);
  for (let n = 0; n < 4; n++) addTranscript(index, 'ws_a', conversation(`Ravi ${n}`));
  addTranscript(index, 'ws_a', [segment('agent', 'A loan, and much later', 0, 2), segment('customer', 'renew.', 30, 31)]);
  const after = assertExact(index.db, 'ws_a', totals, 'after new transcripts');
  assert.equal(after.slice(0, 5), [15, 15, 15, 7, 7]);
  // The entries moved to the new watermark (8 transcripts, 30 segments); limit and offset are not in the key.
  assert.is(totals.get(totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 5, offset: 10 }))?.watermark, 30);
  assert.is(totals.size.entries, QUERIES.length);
});

test('every plan counts exactly past the watermark: phrases of common words (no word rare), sorted and walked pages', () => {
  for (const tuning of [{ rareHits: 1, walkCost: 1 }, { rareHits: 1, walkCost: 1e9 }, { rareHits: 1_000, walkCost: 1e-9 }]) {
    const index = searchIndex();
    const totals = new SearchTotals();
    for (let n = 0; n < 3; n++) addTranscript(index, 'ws_a', conversation(`Asha ${n}`));
    assertExact(index.db, 'ws_a', totals, `first ${JSON.stringify(tuning)}`, tuning);
    for (let n = 0; n < 2; n++) addTranscript(index, 'ws_a', conversation(`Ravi ${n}`));
    addTranscript(index, 'ws_a', [segment('agent', 'loan renew together', 0, 2), segment('customer', 'renew, later loan', 30, 31)]);
    const after = assertExact(index.db, 'ws_a', totals, `after ${JSON.stringify(tuning)}`, tuning);
    assert.equal(after.slice(0, 5), [12, 12, 12, 7, 7]);
  }
});

test('the remembered total is what is answered, plus only the matches indexed after its watermark', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  addTranscript(index, 'ws_a', conversation('Asha'));
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 2);
  const key = totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 20, offset: 0 });
  // A planted total at the same epoch and watermark shows through: nothing was counted again.
  totals.set(key, { ...totals.get(key)!, total: 1000 });
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 1000);
  addTranscript(index, 'ws_a', conversation('Ravi'));
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 1002, 'the two new matches are added to the remembered total');
});

test('a call whose timeline start moves after its transcript was indexed: a new generation, totals counted afresh', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  addTranscript(index, 'ws_a', conversation('Asha'), { callId: 'cal_moved', startedAt: '2026-03-01T00:10:00.000Z' });
  addTranscript(index, 'ws_a', conversation('Ravi'), { callId: 'cal_kept', startedAt: '2026-03-01T00:20:00.000Z' });
  const inMarch = { from: '2026-03-01T00:05:00.000Z' };
  assert.is(search(index.db, 'ws_a', 'loan', inMarch, totals).total, 4);
  const key = totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 20, offset: 0, ...inMarch });
  totals.set(key, { ...totals.get(key)!, total: 1000 });
  // The call's end names an earlier timeline start (as the sandbox's does): its segments now fall before `from`.
  index.apply([
    {
      id: 'evt-moved', stream: 'call-cal_moved', revision: 2, position: 10_000, type: 'CallEnded',
      data: { status: 'completed', answered: true, disposition: 'interested', duration_seconds: 60, ended_at: '2026-03-01T00:11:00.000Z', started_at: '2026-02-28T23:00:00.000Z' },
      metadata: { workspace_id: 'ws_a', actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: '2026-03-01T00:11:00.000Z', schema_version: 1 },
    } as never,
  ]);
  assert.is((index.db.prepare("SELECT generation FROM search_workspaces WHERE workspace_id = 'ws_a'").get() as { generation: number }).generation, 1);
  assert.is(search(index.db, 'ws_a', 'loan', inMarch, totals).total, 2, 'the planted total is dropped, the count is afresh');
  assertExact(index.db, 'ws_a', totals, 'after the move');
});

test('a change of read.db\'s schema (what a rebuild does) drops every remembered total', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  addTranscript(index, 'ws_a', conversation('Asha'));
  search(index.db, 'ws_a', 'loan', {}, totals);
  const key = totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 20, offset: 0 });
  totals.set(key, { ...totals.get(key)!, total: 1000 });
  index.db.exec('CREATE TABLE unrelated (a); DROP TABLE unrelated;');
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 2);
});

test('workspaces: identical text in two workspaces, one set of remembered totals, each exact and its own', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  addTranscript(index, 'ws_a', conversation('Asha'));
  addTranscript(index, 'ws_b', conversation('Asha'));
  assert.equal(assertExact(index.db, 'ws_a', totals, 'a').slice(0, 4), [2, 2, 2, 1]);
  assert.equal(assertExact(index.db, 'ws_b', totals, 'b').slice(0, 4), [2, 2, 2, 1]);
  for (let n = 0; n < 3; n++) addTranscript(index, 'ws_b', conversation(`Ravi ${n}`));
  assert.equal(assertExact(index.db, 'ws_a', totals, 'a after b grew').slice(0, 4), [2, 2, 2, 1]);
  assert.equal(assertExact(index.db, 'ws_b', totals, 'b after b grew').slice(0, 4), [8, 8, 8, 4]);
  assert.is(totals.size.entries, 2 * QUERIES.length);
});

test('filters are part of the key: the same words with and without a filter are two totals', () => {
  const index = searchIndex();
  const totals = new SearchTotals();
  addTranscript(index, 'ws_a', conversation('Asha'));
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 2);
  assert.is(search(index.db, 'ws_a', 'loan', { speaker: 'customer' }, totals).total, 0);
  assert.is(search(index.db, 'ws_a', 'loan', { language: 'hi-IN' }, totals).total, 0);
  assert.is(search(index.db, 'ws_a', 'loan', {}, totals).total, 2);
  assert.is.not(totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 20, offset: 0, campaignId: 'x' }), totalKey({ workspaceId: 'ws_a', words: ['loan'], limit: 20, offset: 0, callId: 'x' }));
});

test('the bound: never more than maxBytes, least recently used out first, an entry larger than the bound not kept', () => {
  const totals = new SearchTotals(4_000);
  const known = { epoch: '1:0', watermark: 1, total: 1 };
  const key = (n: number) => totalKey({ workspaceId: 'ws_a', words: [`word${n}`], limit: 20, offset: 0 });
  for (let n = 0; n < 100; n++) {
    totals.set(key(n), known);
    if (n > 0) totals.get(key(0)); // key 0 stays the most recently used
    assert.ok(totals.size.bytes <= 4_000, `${totals.size.bytes} bytes`);
  }
  assert.ok(totals.size.entries > 5 && totals.size.entries < 100, `${totals.size.entries} entries`);
  assert.ok(totals.get(key(0)) !== undefined, 'the entry in use stayed');
  assert.is(totals.get(key(1)), undefined, 'the least recently used went');
  assert.ok(totals.get(key(99)) !== undefined);
  const before = totals.size;
  totals.set(totalKey({ workspaceId: 'ws_a', words: ['x'.repeat(3_000)], limit: 20, offset: 0 }), known);
  assert.equal(totals.size, before);
  assert.is(new SearchTotals(0).size.bytes, 0);
});

test('an index built before the generation column gains it in place', () => {
  const db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE search_workspaces (workspace_id TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, segments INTEGER NOT NULL)');
  db.exec("INSERT INTO search_workspaces VALUES ('ws_a', 1, 0)");
  transcriptSearchProjection.migrate(db);
  assert.equal(db.prepare('SELECT * FROM search_workspaces').all(), [{ workspace_id: 'ws_a', number: 1, segments: 0, generation: 0 }]);
  db.close();
});

test.run();

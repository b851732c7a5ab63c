// The transcript search index is a read model like any other: replayed from the events (into a fresh database, and
// in place with `projections rebuild transcript_search`) it gives the same tables and the same search results.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { openReadModelDatabase } from '../../composition.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptSegment } from '../../domain/transcription-job.ts';
import { allProjections } from '../../projections/index.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { indexedText, normaliseForSearch, searchWords } from '../../projections/search-text.ts';
import { transcriptSearchProjection } from '../../projections/transcript-search.ts';
import { DEFAULT_SEARCH_TUNING, searchTranscripts } from '../../projections/transcript-search-queries.ts';
import { SearchTotals, totalKey } from '../../projections/transcript-search-totals.ts';
import { placeableFacts } from '../support/call-facts.ts';
import { testRuntime } from '../support/runtime.ts';

function dump(db: Database): Record<string, unknown[]> {
  const result: Record<string, unknown[]> = {};
  for (const table of transcriptSearchProjection.tables) {
    const columns = (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((c) => `"${c.name}"`);
    result[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${columns.join(', ')}`).all();
  }
  return result;
}

const QUERIES = ['renew', 'loan interest', 'नवीनी', 'ऋ', 'is', 'papers'];

function answers(db: Database, workspaceId: string) {
  return QUERIES.map((query) => searchTranscripts(db, { workspaceId, words: searchWords(query), limit: 100, offset: 0 }));
}

const segments = (index: number): TranscriptSegment[] => [
  { speaker: 'agent', text: `Call ${index}: your loan is due for renewal.`, start_time: 0, end_time: 4 },
  { speaker: 'customer', text: 'I want to renew, if the interest is low.', start_time: 4.5, end_time: 8 },
  { speaker: 'agent', text: 'नमस्ते, आपके ऋण का नवीनीकरण बाकी है।', start_time: 9, end_time: 12 },
  { speaker: 'customer', text: 'Send the papers.', start_time: 20, end_time: 22 },
];

test('a replay of the events, fresh and in place, gives identical tables and identical results', async () => {
  const { runtime, dataDir, remove } = testRuntime();
  const now = () => runtime.clock.now();
  for (let index = 0; index < 30; index++) {
    const workspaceId = `ws_${index % 3}`;
    const context = { workspaceId, actor: 'test', now: now() };
    let callId: string | null = null;
    if (index % 2 === 0) {
      callId = `cal_${index}`;
      await runtime.commands.handle(callDecider, callStream(callId), {
        type: 'PlaceCall', facts: placeableFacts(),
        data: { call_id: callId, workspace_id: workspaceId, campaign_id: `cmp_${index % 4}`, contact_index: null, attempt: null, contact: { phone: '+919876500003', name: 'Asha' }, language: 'en-IN', script_id: 'scr_1', script_version: 1, variables: {}, recording_enabled: false, started_at: new Date(Date.UTC(2026, 2, 1 + index)).toISOString() },
      }, context);
    }
    const jobId = `job_${index}`;
    const stream = transcriptionJobStream(jobId);
    await runtime.commands.handle(transcriptionJobDecider, stream, {
      type: 'SubmitTranscriptionJob',
      data: { job_id: jobId, workspace_id: workspaceId, audio_url: null, transcript: segments(index), language: 'en-IN', speakers: 2, features: [], qa_scorecard_id: null, qa_scorecard: null, metadata: null, call_id: callId, disposition: null, submitted_at: new Date(Date.UTC(2026, 3, 1 + index)).toISOString() },
    }, context);
    await runtime.commands.handle(transcriptionJobDecider, stream, { type: 'StartTranscriptionJob', data: { attempt: 1, started_at: now().toISOString() } }, context);
    await runtime.commands.handle(transcriptionJobDecider, stream, {
      type: 'CompleteTranscriptionJob',
      data: { attempt: 1, completed_at: now().toISOString(), result: { transcript: segments(index), summary: null, sentiment: null, intent: null, qa_score: null, duration_seconds: 22 } },
    }, context);
  }
  await runtime.projections.catchUp();
  const incremental = dump(runtime.searchDb);
  const results = answers(runtime.searchDb, 'ws_1');
  assert.is(incremental.search_segments!.length, 120);
  assert.is(results[0]!.total, 20);

  const fresh = openReadModelDatabase(join(dataDir, 'fresh.db'));
  await new ProjectionRunner(runtime.store, fresh, allProjections).catchUp();
  assert.equal(dump(fresh), incremental);
  assert.equal(answers(fresh, 'ws_1'), results);
  fresh.close();

  // A search thread's remembered total (a planted one, to see it used) does not outlive the rebuild.
  const totals = new SearchTotals();
  const renew = { workspaceId: 'ws_1', words: searchWords('renew'), limit: 100, offset: 0 };
  searchTranscripts(runtime.searchDb, renew, DEFAULT_SEARCH_TUNING, totals);
  totals.set(totalKey(renew), { ...totals.get(totalKey(renew))!, total: 1000 });
  assert.is(searchTranscripts(runtime.searchDb, renew, DEFAULT_SEARCH_TUNING, totals).total, 1000);

  await runtime.projections.rebuild('transcript_search');
  await runtime.projections.catchUp();
  assert.equal(dump(runtime.searchDb), incremental);
  assert.is(searchTranscripts(runtime.searchDb, renew, DEFAULT_SEARCH_TUNING, totals).total, 20);
  // The FTS rowid is still each segment's id (the queries join on it): every indexed text is its segment's.
  const pairs = runtime.searchDb.prepare('SELECT f.norm, s.text FROM search_segments_fts f LEFT JOIN search_segments s ON s.segment_id = f.rowid').all() as Array<{ norm: string; text: string | null }>;
  assert.is(pairs.length, 120);
  for (const pair of pairs) assert.is(pair.norm, indexedText(normaliseForSearch(pair.text ?? '')));
  assert.equal(answers(runtime.searchDb, 'ws_1'), results);

  await runtime.close();
  remove();
});

test.run();

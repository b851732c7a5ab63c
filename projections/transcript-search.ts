import type { CallEvent } from '../domain/call.ts';
import { callIdOf } from '../domain/call.ts';
import type { TranscriptionJobEvent } from '../domain/transcription-job.ts';
import { defineProjection } from './projection.ts';
import { doubledForIndex, normaliseForSearch } from './search-text.ts';

/**
 * The transcript search index (GET /v1/analytics/search): every segment of every completed transcription job, the
 * automatic transcripts of calls and standalone jobs alike, as one row of `search_segments` (the original text and
 * what results and filters need) and one row of the FTS5 table `search_segments_fts` (the normalised text with
 * every character doubled, trigram tokenizer: substrings of two characters or more in any script; search-text.ts
 * says why doubled).
 *
 * Each segment carries its transcript's timeline origin, `started_at`: the call's start for a call transcript
 * (CallPlaced's, or the start the call's end names, as the calls read model does), the submission time for a
 * standalone job. The projection keeps its own small `search_calls` and `search_jobs` tables for that, rather than
 * reading another read model: a rebuild replays this projection alone, into an empty database.
 *
 * The FTS table's rowid is the segment's `segment_id` (queries join on it: reading a stored column of every match
 * would cost twice as much). The runner's rebuild copies tables with `INSERT ... SELECT *`, which renumbers an FTS
 * table's rows 1, 2, 3... in rowid order; that keeps the equality because segment ids are exactly 1..n, in order,
 * in a freshly replayed table (INTEGER PRIMARY KEY, and this projection never deletes a segment). Deleting segments
 * one day would need the FTS copy to carry its rowid; tests/projections/transcript-search-rebuild.test.ts checks it.
 */
export const transcriptSearchProjection = defineProjection<CallEvent | TranscriptionJobEvent>({
  name: 'transcript_search',
  version: 1,
  tables: ['search_calls', 'search_jobs', 'search_segments', 'search_segments_fts'],
  eventTypes: ['CallPlaced', 'CallEnded', 'CallFailed', 'TranscriptionJobSubmitted', 'TranscriptionJobCompleted'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS search_calls (
      call_id TEXT PRIMARY KEY,
      campaign_id TEXT,
      started_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS search_jobs (
      job_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      call_id TEXT,
      language TEXT NOT NULL,
      submitted_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS search_segments (
      segment_id INTEGER PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      job_id TEXT NOT NULL,
      call_id TEXT,
      campaign_id TEXT,
      language TEXT NOT NULL,
      started_at TEXT NOT NULL,
      speaker TEXT NOT NULL,
      text TEXT NOT NULL,
      start_time REAL NOT NULL,
      end_time REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS search_segments_by_time ON search_segments (workspace_id, started_at DESC, job_id DESC, start_time);
    CREATE INDEX IF NOT EXISTS search_segments_by_job ON search_segments (job_id, start_time);
    CREATE INDEX IF NOT EXISTS search_segments_by_call ON search_segments (call_id) WHERE call_id IS NOT NULL;
    CREATE VIRTUAL TABLE IF NOT EXISTS search_segments_fts USING fts5(norm, tokenize = 'trigram');`);
  },
  prepare(db) {
    const insertCall = db.prepare('INSERT OR REPLACE INTO search_calls (call_id, campaign_id, started_at) VALUES (?, ?, ?)');
    const moveCallStart = db.prepare('UPDATE search_calls SET started_at = ? WHERE call_id = ?');
    const moveSegmentsStart = db.prepare('UPDATE search_segments SET started_at = ? WHERE call_id = ?');
    const insertJob = db.prepare('INSERT OR REPLACE INTO search_jobs (job_id, workspace_id, call_id, language, submitted_at) VALUES (?, ?, ?, ?, ?)');
    const transcriptOf = db.prepare<[string], { workspace_id: string; call_id: string | null; campaign_id: string | null; language: string; started_at: string }>(
      `SELECT j.workspace_id, j.call_id, c.campaign_id, j.language, coalesce(c.started_at, j.submitted_at) AS started_at
       FROM search_jobs j LEFT JOIN search_calls c ON c.call_id = j.call_id WHERE j.job_id = ?`,
    );
    const insertSegment = db.prepare(
      `INSERT INTO search_segments (workspace_id, job_id, call_id, campaign_id, language, started_at, speaker, text, start_time, end_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const indexSegment = db.prepare('INSERT INTO search_segments_fts (rowid, norm) VALUES (?, ?)');
    return (event) => {
      switch (event.type) {
        case 'CallPlaced':
          insertCall.run(event.data.call_id, event.data.campaign_id, event.data.started_at);
          return;
        case 'CallEnded':
        case 'CallFailed': {
          // The call's own timeline start (the sandbox's), when it differs from the placement's.
          const startedAt = event.data.started_at;
          if (startedAt === undefined) return;
          const callId = callIdOf(event.stream);
          moveCallStart.run(startedAt, callId);
          moveSegmentsStart.run(startedAt, callId);
          return;
        }
        case 'TranscriptionJobSubmitted': {
          const data = event.data;
          insertJob.run(data.job_id, data.workspace_id, data.call_id, data.language, data.submitted_at);
          return;
        }
        case 'TranscriptionJobCompleted': {
          const transcript = transcriptOf.get(event.data.job_id);
          if (transcript === undefined) return;
          for (const segment of event.data.transcript) {
            const { lastInsertRowid } = insertSegment.run(
              transcript.workspace_id,
              event.data.job_id,
              transcript.call_id,
              transcript.campaign_id,
              transcript.language,
              transcript.started_at,
              segment.speaker,
              segment.text,
              segment.start_time,
              segment.end_time,
            );
            indexSegment.run(lastInsertRowid, doubledForIndex(normaliseForSearch(segment.text)));
          }
          return;
        }
      }
    };
  },
});

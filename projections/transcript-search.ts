import type { CallEvent } from '../domain/call.ts';
import { callIdOf } from '../domain/call.ts';
import type { TranscriptionJobEvent } from '../domain/transcription-job.ts';
import { defineProjection } from './projection.ts';
import { indexedText, normaliseForSearch } from './search-text.ts';

/**
 * The transcript search index (GET /v1/analytics/search): every segment of every completed transcription job, the
 * automatic transcripts of calls and standalone jobs alike, as one row of `search_segments` (the original text and
 * what results and filters need) and one row of the FTS5 table `search_segments_fts` (the normalised text closed
 * by an end-of-text mark, trigram tokenizer: substrings of any length in any script; search-text.ts `indexedText`).
 *
 * Each segment carries its transcript's timeline origin, `started_at`: the call's start for a call transcript
 * (CallPlaced's, or the start the call's end names, as the calls read model does), the submission time for a
 * standalone job. The projection keeps its own small `search_calls` and `search_jobs` tables for that, rather than
 * reading another read model: a rebuild replays this projection alone, into an empty database.
 *
 * Segment ids are partitioned by workspace: `segment_id = workspace number × 2^32 + the workspace's sequence`, the
 * workspace number given in order of first appearance (`search_workspaces`, which also counts each workspace's
 * segments). The FTS table's rowid is the segment id, so a query restricts its MATCH to one workspace's rowid range
 * and FTS5 itself never reads another workspace's postings: isolation costs nothing and an exact count needs no
 * join. Ids stay below 2^53 (JavaScript's exact integers): at most 2^21 workspaces and 2^32 segments each. The
 * runner's rebuild copies an FTS table with its rowids (projections/runner.ts), which keeps the pairing;
 * tests/projections/transcript-search-rebuild.test.ts checks it.
 *
 * Segments are only ever added, a transcript's all at once with consecutive ids, which is what lets the search
 * threads keep exact totals current by counting only past a watermark (transcript-search-totals.ts). Whatever
 * changes or removes indexed segments (today: a call's timeline start moving after its transcript was indexed;
 * any future deletion or retention) must bump the workspace's `generation` in the same transaction. A rebuild
 * replaces the tables, which moves read.db's schema version: that invalidates every remembered total too.
 */
/** Each workspace's segment ids are `number × SEGMENTS_PER_WORKSPACE + 1 ..`; see above. */
export const SEGMENTS_PER_WORKSPACE = 2 ** 32;
const MAX_WORKSPACES = 2 ** 21;

export const transcriptSearchProjection = defineProjection<CallEvent | TranscriptionJobEvent>({
  name: 'transcript_search',
  version: 2,
  tables: ['search_calls', 'search_jobs', 'search_workspaces', 'search_segments', 'search_segments_fts'],
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
    CREATE TABLE IF NOT EXISTS search_workspaces (
      workspace_id TEXT PRIMARY KEY,
      number INTEGER NOT NULL UNIQUE,
      segments INTEGER NOT NULL,
      -- Moves whenever indexed segments of the workspace change rather than new ones being added: the search
      -- threads' remembered totals (transcript-search-totals.ts) are then counted afresh.
      generation INTEGER NOT NULL DEFAULT 0
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
      end_time REAL NOT NULL,
      -- The longest segment of the transcript (end_time - start_time): bounds a search for the segments near
      -- one, which then reads a handful of rows of the transcript's time index, however long the transcript.
      longest_segment REAL NOT NULL
    );
    CREATE INDEX IF NOT EXISTS search_segments_by_time ON search_segments (workspace_id, started_at DESC, job_id DESC, start_time);
    CREATE INDEX IF NOT EXISTS search_segments_by_job ON search_segments (job_id, start_time);
    CREATE INDEX IF NOT EXISTS search_segments_by_call ON search_segments (call_id) WHERE call_id IS NOT NULL;
    -- case_sensitive: the text is already lower-cased by normaliseForSearch, so FTS5 must not fold it again in
    -- its own way: a MATCH then means exactly what instr() on the same text means (the queries use both).
    CREATE VIRTUAL TABLE IF NOT EXISTS search_segments_fts USING fts5(norm, tokenize = 'trigram case_sensitive 1');`);
    // An index built before the generation existed gains it in place (a new projection version would replay every
    // transcript); it is appended last, where the CREATE above declares it, so a rebuild copies rows column for column.
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('search_workspaces')`).all();
    if (!columns.some((column) => column.name === 'generation')) db.exec('ALTER TABLE search_workspaces ADD COLUMN generation INTEGER NOT NULL DEFAULT 0');
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
    const workspaceOf = db.prepare<[string], { number: number; segments: number }>('SELECT number, segments FROM search_workspaces WHERE workspace_id = ?');
    const addWorkspace = db.prepare<[string]>(
      'INSERT INTO search_workspaces (workspace_id, number, segments) SELECT ?, coalesce(max(number), 0) + 1, 0 FROM search_workspaces',
    );
    const nextGeneration = db.prepare<[string]>(
      'UPDATE search_workspaces SET generation = generation + 1 WHERE workspace_id = (SELECT workspace_id FROM search_segments WHERE call_id = ? LIMIT 1)',
    );
    const countSegments = db.prepare('UPDATE search_workspaces SET segments = segments + ? WHERE workspace_id = ?');
    const insertSegment = db.prepare(
      `INSERT INTO search_segments (segment_id, workspace_id, job_id, call_id, campaign_id, language, started_at, speaker, text, start_time, end_time, longest_segment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          // Segments already indexed moved in time (a date filter's total may change): a new generation.
          if (moveSegmentsStart.run(startedAt, callId).changes > 0) nextGeneration.run(callId);
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
          const workspace = workspaceOf.get(transcript.workspace_id) ?? (addWorkspace.run(transcript.workspace_id), workspaceOf.get(transcript.workspace_id)!);
          if (workspace.number >= MAX_WORKSPACES || workspace.segments + event.data.transcript.length >= SEGMENTS_PER_WORKSPACE) {
            throw new Error(`transcript search: workspace ${transcript.workspace_id} is past the index's id space (workspace number ${workspace.number})`);
          }
          let segmentId = workspace.number * SEGMENTS_PER_WORKSPACE + workspace.segments;
          const longestSegment = event.data.transcript.reduce((longest, segment) => Math.max(longest, segment.end_time - segment.start_time), 0);
          for (const segment of event.data.transcript) {
            segmentId++;
            insertSegment.run(
              segmentId,
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
              longestSegment,
            );
            indexSegment.run(segmentId, indexedText(normaliseForSearch(segment.text)));
          }
          countSegments.run(event.data.transcript.length, transcript.workspace_id);
          return;
        }
      }
    };
  },
});

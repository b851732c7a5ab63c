import type { Database, Statement } from 'better-sqlite3';
import type { JobAnalyzer, JobError, TranscriptionJobEvent, TranscriptionJobStatus, TranscriptionJobSubmittedData } from '../domain/transcription-job.ts';
import { fieldAsJson, hasField } from '../infra/eventstore/detached-field.ts';
import { defineProjection } from './projection.ts';

/**
 * Transcription jobs as GET /v1/transcription/{job_id} shows them. Each row keeps the API document as JSON text,
 * rewritten on every event of the job, plus the list item (the document without the transcript), so reads send
 * stored text. `status` and `attempts` are also columns: the worker finds unfinished jobs here after a restart.
 */
export const transcriptionJobsProjection = defineProjection<TranscriptionJobEvent>({
  name: 'transcription_jobs',
  version: 1,
  tables: ['transcription_jobs'],
  eventTypes: ['TranscriptionJobSubmitted', 'TranscriptionJobStarted', 'TranscriptionJobCompleted', 'TranscriptionJobFailed'],
  // Transcripts are stored as the text they were recorded as, never parsed here (see withTranscript).
  detach: { TranscriptionJobSubmitted: 'transcript', TranscriptionJobCompleted: 'transcript' },
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS transcription_jobs (
      job_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      status TEXT NOT NULL,
      call_id TEXT,
      attempts INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      submitted TEXT NOT NULL,
      document TEXT NOT NULL,
      list_item TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS transcription_jobs_by_workspace ON transcription_jobs (workspace_id, created_at DESC, job_id DESC);
    CREATE INDEX IF NOT EXISTS transcription_jobs_by_status ON transcription_jobs (status);`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT OR REPLACE INTO transcription_jobs (job_id, workspace_id, status, call_id, attempts, created_at, submitted, document, list_item)
       VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)`,
    );
    const load = db.prepare<[string], { submitted: string }>('SELECT submitted FROM transcription_jobs WHERE job_id = ?');
    const update = db.prepare('UPDATE transcription_jobs SET status = ?, attempts = MAX(attempts, ?), document = ?, list_item = ? WHERE job_id = ?');
    return (event) => {
      if (event.type === 'TranscriptionJobSubmitted') {
        const submitted = event.data;
        const fields = JSON.stringify(jobDocument(submitted, { status: 'pending' }));
        insert.run(
          submitted.job_id,
          submitted.workspace_id,
          'pending',
          submitted.call_id,
          submitted.submitted_at,
          JSON.stringify(storedSubmission(submitted, hasField(event, 'transcript'))),
          fields,
          fields,
        );
        return;
      }
      const row = load.get(event.data.job_id);
      if (row === undefined) return;
      const submitted = JSON.parse(row.submitted) as TranscriptionJobSubmittedData;
      let document: JobFields;
      let transcript: string | null = null;
      let attempts = 0;
      switch (event.type) {
        case 'TranscriptionJobStarted':
          document = jobDocument(submitted, { status: 'processing' });
          attempts = event.data.attempt;
          break;
        case 'TranscriptionJobCompleted':
          document = jobDocument(submitted, { status: 'completed', result: event.data, completedAt: event.data.completed_at });
          transcript = fieldAsJson(event, 'transcript') ?? '[]';
          break;
        case 'TranscriptionJobFailed':
          document = jobDocument(submitted, { status: 'failed', error: event.data.error, completedAt: event.data.failed_at });
          break;
      }
      update.run(document.status, attempts, withTranscript(document, transcript), JSON.stringify(document), event.data.job_id);
    };
  },
});

export interface JobDocument {
  job_id: string;
  status: TranscriptionJobStatus;
  language: string;
  features: string[];
  call_id: string | null;
  transcript?: unknown[];
  duration_seconds?: number;
  summary: string | null;
  sentiment?: unknown;
  intent: string | null;
  qa_score?: unknown;
  analyzer?: JobAnalyzer;
  metadata: Record<string, unknown> | null;
  created_at: string;
  completed_at: string | null;
  error?: JobError;
}

/** The document's fields but the transcript: what a list shows, and what the stored document adds the transcript to. */
export type JobFields = Omit<JobDocument, 'transcript'>;

interface DocumentState {
  status: TranscriptionJobStatus;
  result?: { duration_seconds: number; summary: string | null; sentiment: unknown; intent: string | null; qa_score: unknown; analyzer?: JobAnalyzer };
  error?: JobError;
  completedAt?: string;
}

/**
 * The job as the spec shows it: `transcript` only once completed; `summary` and `intent` always present, null
 * unless requested (and until done); `sentiment` and `qa_score` present only when requested (null until done);
 * `metadata` as submitted; `completed_at` null until the job ends (a failed job's is when it failed); `error` only
 * on a failed job. We add `features`, `call_id` and, once completed, `duration_seconds` and (when summary,
 * sentiment or intent was requested) `analyzer`.
 */
export function jobDocument(submitted: TranscriptionJobSubmittedData, state: DocumentState): JobFields {
  const requested = new Set<string>(submitted.features);
  const result = state.result;
  return {
    job_id: submitted.job_id,
    status: state.status,
    language: submitted.language,
    features: submitted.features,
    call_id: submitted.call_id,
    ...(result ? { duration_seconds: result.duration_seconds } : {}),
    summary: requested.has('summary') ? (result?.summary ?? null) : null,
    ...(requested.has('sentiment') ? { sentiment: result?.sentiment ?? null } : {}),
    intent: requested.has('intent') ? (result?.intent ?? null) : null,
    ...(requested.has('qa_scoring') ? { qa_score: result?.qa_score ?? null } : {}),
    ...(result?.analyzer ? { analyzer: result.analyzer } : {}),
    metadata: submitted.metadata,
    created_at: submitted.submitted_at,
    completed_at: state.completedAt ?? null,
    ...(state.error ? { error: state.error } : {}),
  };
}

/**
 * The submission as the row keeps it, for the documents of the job's later events: without a submitted transcript's
 * segments, which no document shows (a completed job shows its result's) and which every later event would parse
 * again. An empty array still says a transcript was submitted (`unfinished` reads it).
 */
function storedSubmission(submitted: TranscriptionJobSubmittedData, transcriptSubmitted: boolean): TranscriptionJobSubmittedData {
  // Last, whether the store detached the transcript or not: the row is the same either way.
  const { transcript: _transcript, ...fields } = submitted;
  return { ...fields, transcript: transcriptSubmitted ? [] : null };
}

/**
 * The stored document: the job's fields with a completed job's transcript added, where the spec shows it (after
 * `call_id`), as JSON text. The transcript is the text the event was recorded with, detached by the store
 * (Projection.detach), so a 4,000-segment transcript is neither parsed nor serialised on the lane every write's
 * read-your-writes waits for (issue 12: 9 ms of each such job's completion on a quiet machine, 30 to 180 ms under
 * a neighbour's load).
 */
function withTranscript(document: JobFields, transcript: string | null): string {
  if (transcript === null) return JSON.stringify(document);
  const { job_id, status, language, features, call_id, ...rest } = document;
  return `${JSON.stringify({ job_id, status, language, features, call_id }).slice(0, -1)},"transcript":${transcript},${JSON.stringify(rest).slice(1)}`;
}

// --------------------------------------------------------------------------------------------------------- queries

interface Queries {
  document: Statement<[string, string], { document: string }>;
  page: Statement<[string, string, string, number, number], { list_item: string }>;
  count: Statement<[string, string, string], { total: number }>;
  unfinished: Statement<[], { job_id: string; workspace_id: string; status: string; attempts: number; has_transcript: 0 | 1 }>;
}

const prepared = new WeakMap<Database, Queries>();

function queries(db: Database): Queries {
  let statements = prepared.get(db);
  if (statements === undefined) {
    statements = {
      document: db.prepare('SELECT document FROM transcription_jobs WHERE job_id = ? AND workspace_id = ?'),
      // `? = ''` makes the status filter optional without a second statement.
      page: db.prepare(
        `SELECT list_item FROM transcription_jobs WHERE workspace_id = ? AND (? = '' OR status = ?)
         ORDER BY created_at DESC, job_id DESC LIMIT (? + 0) OFFSET (? + 0)`,
      ),
      count: db.prepare("SELECT COUNT(*) AS total FROM transcription_jobs WHERE workspace_id = ? AND (? = '' OR status = ?)"),
      // Whether a transcript was submitted (no audio_url): read from the stored submission, so the table is unchanged.
      unfinished: db.prepare(
        `SELECT job_id, workspace_id, status, attempts, json_type(submitted, '$.transcript') = 'array' AS has_transcript
         FROM transcription_jobs WHERE status IN ('pending', 'processing') ORDER BY created_at, job_id`,
      ),
    };
    prepared.set(db, statements);
  }
  return statements;
}

/** The job's API document as JSON text, or undefined when no such job is in the workspace. */
export function findTranscriptionJobDocument(db: Database, workspaceId: string, jobId: string): string | undefined {
  return queries(db).document.get(jobId, workspaceId)?.document;
}

export function listTranscriptionJobs(db: Database, workspaceId: string, status: string | undefined, limit: number, offset: number): { items: string[]; total: number } {
  const filter = status ?? '';
  const statements = queries(db);
  return {
    items: statements.page.all(workspaceId, filter, filter, limit, offset).map((row) => row.list_item),
    total: statements.count.get(workspaceId, filter, filter)!.total,
  };
}

export interface UnfinishedTranscriptionJob {
  job_id: string;
  workspace_id: string;
  status: string;
  attempts: number;
  /** A transcript was submitted instead of an audio_url: no download, no recognition. */
  has_transcript: boolean;
}

/** Jobs not yet completed or failed, oldest first: what the worker resumes after a restart. */
export function unfinishedTranscriptionJobs(db: Database): UnfinishedTranscriptionJob[] {
  return queries(db).unfinished.all().map((row) => ({ ...row, has_transcript: row.has_transcript === 1 }));
}

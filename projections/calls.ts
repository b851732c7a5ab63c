import { preparedStatement } from './statement-cache.ts';
import type { Database, Statement } from 'better-sqlite3';
import { callIdOf, callTranscriptJobId, type AnsweredBy, type CallTransfer, type CallEscalated, type CallEvent, type CallFailureReason, type CallStatus } from '../domain/call.ts';
import type { Disposition } from '../domain/shared/disposition.ts';
import { defineProjection } from './projection.ts';

/**
 * Call records: one row per call (campaign attempt or single call) with every field of the spec's Call resource
 * except `recording_url`, which is signed when it is read (it is valid for one hour from then), plus the
 * workspace, the escalation, the recording's blob key and the failure reason.
 *
 * `started_at` is CallPlaced's, unless the end names the start of the call's own timeline (the sandbox carrier
 * runs a call at once and lays its timeline back from the end; see docs/calling.md, "Time").
 *
 * `transcript_job_id`: an answered call's transcript job has the id `callTranscriptJobId(call_id)` (the
 * contract between the calling and the analysis modules), so it is known from the moment the call ends, before
 * the job exists; `call.completed` names the same id. A job assigned on the call's stream replaces it.
 */
export const callsProjection = defineProjection<CallEvent>({
  name: 'calls',
  // v2: agent_id, and the escalation's agent. v3: caller_id, answered_by. v4: transfer.
  version: 4,
  tables: ['calls'],
  eventTypes: ['CallPlaced', 'CallAnswered', 'CallEscalated', 'CallTransferred', 'CallEnded', 'CallFailed', 'CallRecordingStored', 'CallTranscriptJobAssigned'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS calls (
      call_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      campaign_id TEXT,
      contact_index INTEGER,
      attempt INTEGER,
      phone TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      disposition TEXT,
      duration_seconds INTEGER NOT NULL DEFAULT 0,
      language TEXT NOT NULL,
      script_id TEXT NOT NULL,
      script_version INTEGER NOT NULL,
      recording_enabled INTEGER NOT NULL,
      started_at TEXT NOT NULL,
      answered_at TEXT,
      ended_at TEXT,
      failure_reason TEXT,
      escalation TEXT,
      recording_blob_key TEXT,
      recording_duration_seconds REAL,
      transcript_job_id TEXT,
      agent_id TEXT,
      caller_id TEXT,
      answered_by TEXT,
      transfer TEXT
    );
    CREATE INDEX IF NOT EXISTS calls_by_started ON calls (workspace_id, started_at DESC, call_id DESC);
    CREATE INDEX IF NOT EXISTS calls_by_campaign ON calls (campaign_id, started_at DESC, call_id DESC);
    CREATE INDEX IF NOT EXISTS calls_by_disposition ON calls (workspace_id, disposition, started_at DESC, call_id DESC);
    CREATE INDEX IF NOT EXISTS calls_by_language ON calls (workspace_id, language, started_at DESC, call_id DESC);
    CREATE INDEX IF NOT EXISTS calls_by_phone ON calls (workspace_id, phone, started_at);
    CREATE INDEX IF NOT EXISTS calls_by_agent ON calls (workspace_id, agent_id, started_at DESC, call_id DESC) WHERE agent_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS calls_in_progress ON calls (workspace_id, started_at DESC, call_id DESC) WHERE status = 'in_progress';
    -- Covers the campaign_performance report's distinct contacts attempted and reached (report-queries.ts
    -- contactReach) with its filters, so the range is read from the index alone.
    CREATE INDEX IF NOT EXISTS calls_contacts_by_started ON calls (workspace_id, started_at, campaign_id, contact_index, answered_at, agent_id, language)
      WHERE campaign_id IS NOT NULL;`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT OR REPLACE INTO calls (call_id, workspace_id, campaign_id, contact_index, attempt, phone, name, status, language,
         script_id, script_version, recording_enabled, started_at, agent_id, caller_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'in_progress', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const answered = db.prepare('UPDATE calls SET answered_at = ? WHERE call_id = ?');
    const escalated = db.prepare('UPDATE calls SET escalation = ?, agent_id = coalesce(?, agent_id) WHERE call_id = ?');
    const transferred = db.prepare('UPDATE calls SET transfer = ? WHERE call_id = ?');
    const ended = db.prepare(
      `UPDATE calls SET status = ?, disposition = ?, duration_seconds = ?, ended_at = ?, failure_reason = ?,
         transcript_job_id = coalesce(transcript_job_id, ?), started_at = coalesce(?, started_at), answered_by = ? WHERE call_id = ?`,
    );
    const recorded = db.prepare('UPDATE calls SET recording_blob_key = ?, recording_duration_seconds = ? WHERE call_id = ?');
    const jobAssigned = db.prepare('UPDATE calls SET transcript_job_id = ? WHERE call_id = ?');
    return (event) => {
      const callId = callIdOf(event.stream);
      switch (event.type) {
        case 'CallPlaced': {
          const data = event.data;
          insert.run(
            data.call_id,
            data.workspace_id,
            data.campaign_id,
            data.contact_index,
            data.attempt,
            data.contact.phone,
            data.contact.name,
            data.language,
            data.script_id,
            data.script_version,
            data.recording_enabled ? 1 : 0,
            data.started_at,
            data.agent_id ?? null,
            data.caller_id ?? null,
          );
          break;
        }
        case 'CallAnswered':
          answered.run(event.data.answered_at, callId);
          break;
        case 'CallEscalated': {
          const data = event.data;
          const escalation: CallEscalationDocument = {
            escalation_reason: data.escalation_reason,
            escalated_at: data.escalated_at,
            summary: data.summary,
            agent_id: data.agent_id,
            unassigned_reason: data.unassigned_reason,
          };
          escalated.run(JSON.stringify(escalation), data.agent_id, callId);
          break;
        }
        case 'CallTransferred': {
          const { agent_id, transferred_at, agent_answered_at } = event.data;
          transferred.run(JSON.stringify({ agent_id, transferred_at, agent_answered_at } satisfies CallTransfer), callId);
          break;
        }
        case 'CallEnded': {
          const data = event.data;
          const jobId = data.answered ? callTranscriptJobId(callId) : null;
          ended.run(data.status, data.disposition, data.duration_seconds, data.ended_at, null, jobId, data.started_at ?? null, data.answered_by ?? null, callId);
          break;
        }
        case 'CallFailed': {
          const data = event.data;
          ended.run(data.status, data.disposition, data.duration_seconds, data.ended_at, data.reason, null, data.started_at ?? null, null, callId);
          break;
        }
        case 'CallRecordingStored': {
          const data = event.data;
          recorded.run(data.blob_key, data.duration_seconds, callId);
          break;
        }
        case 'CallTranscriptJobAssigned':
          jobAssigned.run(event.data.job_id, callId);
          break;
      }
    };
  },
});

export interface CallEscalationDocument {
  escalation_reason: CallEscalated['data']['escalation_reason'];
  escalated_at: string;
  summary: string;
  /** The human agent the call went to; null when none was available (`unassigned_reason` says why). */
  agent_id: string | null;
  unassigned_reason: CallEscalated['data']['unassigned_reason'];
}

/** A call as the read model holds it; the HTTP layer adds `recording_url` (signed per request). */
export interface CallRecord {
  id: string;
  workspace_id: string;
  campaign_id: string | null;
  contact_index: number | null;
  attempt: number | null;
  contact: { phone: string; name: string };
  status: CallStatus;
  disposition: Disposition | null;
  duration_seconds: number;
  language: string;
  script_id: string;
  script_version: number;
  recording_enabled: boolean;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  failure_reason: CallFailureReason | null;
  escalation: CallEscalationDocument | null;
  recording_blob_key: string | null;
  transcript_job_id: string | null;
  /** The human agent who placed the call or took it over; null when only the voice agent spoke. */
  agent_id: string | null;
  /** E.164 caller id the call was placed with; null: the carrier's default. */
  caller_id: string | null;
  /** Answering-machine detection's verdict; null when it did not run (not answered, the sandbox, SIP_AMD off). */
  answered_by: AnsweredBy | null;
  /** The warm transfer to the escalation's agent (beyond the spec); null when none was made. */
  transfer: CallTransfer | null;
}

/** The spec's call list item: exactly these fields of the call. */
export type CallListItem = Pick<
  CallRecord,
  'id' | 'campaign_id' | 'contact' | 'status' | 'disposition' | 'duration_seconds' | 'language' | 'started_at' | 'ended_at'
>;

interface CallRow {
  call_id: string;
  workspace_id: string;
  campaign_id: string | null;
  contact_index: number | null;
  attempt: number | null;
  phone: string;
  name: string;
  status: CallStatus;
  disposition: Disposition | null;
  duration_seconds: number;
  language: string;
  script_id: string;
  script_version: number;
  recording_enabled: number;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  failure_reason: CallFailureReason | null;
  escalation: string | null;
  recording_blob_key: string | null;
  transcript_job_id: string | null;
  agent_id: string | null;
  caller_id: string | null;
  answered_by: AnsweredBy | null;
  transfer: string | null;
}

function recordOf(row: CallRow): CallRecord {
  return {
    id: row.call_id,
    workspace_id: row.workspace_id,
    campaign_id: row.campaign_id,
    contact_index: row.contact_index,
    attempt: row.attempt,
    contact: { phone: row.phone, name: row.name },
    status: row.status,
    disposition: row.disposition,
    duration_seconds: row.duration_seconds,
    language: row.language,
    script_id: row.script_id,
    script_version: row.script_version,
    recording_enabled: row.recording_enabled === 1,
    started_at: row.started_at,
    answered_at: row.answered_at,
    ended_at: row.ended_at,
    failure_reason: row.failure_reason,
    escalation: row.escalation === null ? null : (JSON.parse(row.escalation) as CallEscalationDocument),
    recording_blob_key: row.recording_blob_key,
    transcript_job_id: row.transcript_job_id,
    agent_id: row.agent_id,
    caller_id: row.caller_id,
    answered_by: row.answered_by,
    transfer: row.transfer === null ? null : (JSON.parse(row.transfer) as CallTransfer),
  };
}

type ListRow = Pick<CallRow, 'call_id' | 'campaign_id' | 'phone' | 'name' | 'status' | 'disposition' | 'duration_seconds' | 'language' | 'started_at' | 'ended_at'>;

function listItemOf(row: ListRow): CallListItem {
  return {
    id: row.call_id,
    campaign_id: row.campaign_id,
    contact: { phone: row.phone, name: row.name },
    status: row.status,
    disposition: row.disposition,
    duration_seconds: row.duration_seconds,
    language: row.language,
    started_at: row.started_at,
    ended_at: row.ended_at,
  };
}

export interface CallFilter {
  campaign_id?: string;
  /** Started at or after (ISO, UTC with milliseconds). */
  from?: string;
  /** Started at or before. */
  to?: string;
  disposition?: Disposition;
  language?: string;
  agent_id?: string;
}

const FILTER_COLUMNS = [
  ['campaign_id', 'campaign_id = ?'],
  ['from', 'started_at >= ?'],
  ['to', 'started_at <= ?'],
  ['disposition', 'disposition = ?'],
  ['language', 'language = ?'],
  ['agent_id', 'agent_id = ?'],
] as const;

const LIST_COLUMNS = 'call_id, campaign_id, phone, name, status, disposition, duration_seconds, language, started_at, ended_at';

interface Statements {
  one: Statement<[string, string], CallRow>;
  recording: Statement<[string], { recording_blob_key: string | null }>;
  /** Page and count statements per combination of filters, prepared on first use. */
  lists: Map<string, { page: Statement<unknown[], ListRow>; count: Statement<unknown[], { total: number }> }>;
}

const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    prepared = {
      one: db.prepare('SELECT * FROM calls WHERE workspace_id = ? AND call_id = ?'),
      recording: db.prepare('SELECT recording_blob_key FROM calls WHERE call_id = ?'),
      lists: new Map(),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

export function findCall(db: Database, workspaceId: string, callId: string): CallRecord | undefined {
  const row = statements(db).one.get(workspaceId, callId);
  return row ? recordOf(row) : undefined;
}

/** The contact names of the workspace's calls among `callIds` (a search page's hits: at most 100). */
export function contactNamesOf(db: Database, workspaceId: string, callIds: readonly string[]): Map<string, string> {
  if (callIds.length === 0) return new Map();
  // The ids as one JSON array: one statement whatever the page's size.
  const rows = preparedStatement<[string, string], { call_id: string; name: string }>(
    db,
    'SELECT call_id, name FROM calls WHERE workspace_id = ? AND call_id IN (SELECT value FROM json_each(?))',
  ).all(workspaceId, JSON.stringify([...new Set(callIds)]));
  return new Map(rows.map((row) => [row.call_id, row.name]));
}

/**
 * The blob key of a call's stored recording, whatever its workspace: the public recordings route has no API key
 * and relies on the URL's signature instead.
 */
export function findCallRecordingKey(db: Database, callId: string): string | null {
  return statements(db).recording.get(callId)?.recording_blob_key ?? null;
}

/** Calls of the workspace, newest first (started_at, then id). */
export function listCalls(db: Database, workspaceId: string, filter: CallFilter, limit: number, offset: number): { data: CallListItem[]; total: number } {
  const prepared = statements(db);
  const present = FILTER_COLUMNS.filter(([name]) => filter[name] !== undefined);
  const key = present.map(([name]) => name).join(',');
  let list = prepared.lists.get(key);
  if (!list) {
    const where = ['workspace_id = ?', ...present.map(([, condition]) => condition)].join(' AND ');
    list = {
      // `LIMIT (? + 0)`: a bare bound LIMIT makes SQLite re-prepare the statement on every execution.
      page: db.prepare(`SELECT ${LIST_COLUMNS} FROM calls WHERE ${where} ORDER BY started_at DESC, call_id DESC LIMIT (? + 0) OFFSET (? + 0)`),
      count: db.prepare(`SELECT count(*) AS total FROM calls WHERE ${where}`),
    };
    prepared.lists.set(key, list);
  }
  const parameters: unknown[] = [workspaceId, ...present.map(([name]) => filter[name])];
  return {
    data: list.page.all(...parameters, limit, offset).map(listItemOf),
    total: list.count.get(...parameters)?.total ?? 0,
  };
}

/** A call in progress: ringing until `answered_at` is set. */
export type LiveCall = CallListItem & { answered_at: string | null };

const activityStatements = new WeakMap<Database, { live: Statement<[string, number], ListRow & { answered_at: string | null }>; liveCount: Statement<[string], { total: number }> }>();

/**
 * The workspace's calls in progress (ringing or answered), newest first, at most `limit`, with their count: what
 * the dashboard's live activity shows (a partial index holds only the calls in progress).
 */
export function callsInProgress(db: Database, workspaceId: string, limit: number): { data: LiveCall[]; total: number } {
  let prepared = activityStatements.get(db);
  if (!prepared) {
    prepared = {
      live: db.prepare(`SELECT ${LIST_COLUMNS}, answered_at FROM calls WHERE workspace_id = ? AND status = 'in_progress' ORDER BY started_at DESC, call_id DESC LIMIT (? + 0)`),
      liveCount: db.prepare(`SELECT count(*) AS total FROM calls WHERE workspace_id = ? AND status = 'in_progress'`),
    };
    activityStatements.set(db, prepared);
  }
  return {
    data: prepared.live.all(workspaceId, limit).map((row) => ({ ...listItemOf(row), answered_at: row.answered_at })),
    total: prepared.liveCount.get(workspaceId)?.total ?? 0,
  };
}

const attemptStatements = new WeakMap<Database, Statement<[string, string, string], { count: number }>>();

/** Calls placed by the workspace to a number since an instant (the attempt caps of the pre-dial rules; indexed by phone). */
export function callsToNumberSince(db: Database, workspaceId: string, phone: string, since: Date): number {
  let statement = attemptStatements.get(db);
  if (!statement) {
    statement = db.prepare('SELECT count(*) AS count FROM calls WHERE workspace_id = ? AND phone = ? AND started_at >= ?');
    attemptStatements.set(db, statement);
  }
  return statement.get(workspaceId, phone, since.toISOString())?.count ?? 0;
}

import type { CallPurpose } from '../domain/compliance/rule.ts';
import type { VoicemailAction } from '../domain/campaign/types.ts';
import type { Database, Statement } from 'better-sqlite3';
import type { CampaignEvent, CampaignProgress, CampaignSchedule, CampaignStatus, CallingHours, CompletionReason } from '../domain/campaign.ts';
import { CAMPAIGN_LIFECYCLE_EVENT_TYPES, campaignIdOf } from '../domain/campaign.ts';
import { DISPOSITIONS, type Disposition, type DispositionSummary } from '../domain/shared/disposition.ts';
import { defineProjection } from './projection.ts';

/**
 * Campaigns with their progress counters: one row per campaign, no row per contact. The counters are kept by
 * incrementing on the campaign's own events (an attempt started, an attempt connected, a contact finalised), so a
 * 100,000-contact campaign costs one indexed UPDATE per event and its ContactsAdded events are not even read.
 * `total_contacts` comes from CampaignCreated and never shrinks: removed contacts keep counting, as the spec says.
 *
 * `campaign_snapshots` keeps the campaign as it was right after each start, pause and completion (status and
 * counters, keyed by the event's id): the `campaign.*` webhook payloads report progress as of their event, which
 * the one row per campaign no longer shows once calls go on.
 */
const DISPOSITION_COLUMNS = DISPOSITIONS.map((disposition) => `${disposition} INTEGER NOT NULL DEFAULT 0`).join(',\n      ');
const PROGRESS_COLUMNS = ['total_contacts', 'calls_made', 'calls_connected', ...DISPOSITIONS].join(', ');

export const campaignsProjection = defineProjection<CampaignEvent>({
  name: 'campaigns',
  // v4: caller_id, voicemail.
  version: 4,
  tables: ['campaigns', 'campaign_snapshots'],
  eventTypes: [
    ...CAMPAIGN_LIFECYCLE_EVENT_TYPES,
    'ContactAttemptStarted',
    'ContactAttemptEnded',
    'ContactFinalized',
  ],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS campaigns (
      campaign_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      script_id TEXT NOT NULL,
      script_version INTEGER NOT NULL,
      language TEXT NOT NULL,
      total_contacts INTEGER NOT NULL,
      max_attempts INTEGER NOT NULL,
      retry_interval_minutes INTEGER NOT NULL,
      schedule TEXT,
      calling_hours TEXT,
      recording_enabled INTEGER NOT NULL,
      purpose TEXT NOT NULL DEFAULT 'service',
      caller_id TEXT,
      voicemail TEXT NOT NULL DEFAULT 'hang_up',
      created_at TEXT NOT NULL,
      started_at TEXT,
      ended_at TEXT,
      completion_reason TEXT,
      calls_made INTEGER NOT NULL DEFAULT 0,
      calls_connected INTEGER NOT NULL DEFAULT 0,
      ${DISPOSITION_COLUMNS}
    );
    CREATE INDEX IF NOT EXISTS campaigns_by_created ON campaigns (workspace_id, created_at DESC, campaign_id DESC);
    CREATE INDEX IF NOT EXISTS campaigns_by_status ON campaigns (workspace_id, status, created_at DESC, campaign_id DESC);
    CREATE INDEX IF NOT EXISTS campaigns_by_script ON campaigns (workspace_id, script_id, status);
    CREATE TABLE IF NOT EXISTS campaign_snapshots (
      event_id TEXT PRIMARY KEY,
      campaign_id TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL,
      total_contacts INTEGER NOT NULL,
      calls_made INTEGER NOT NULL,
      calls_connected INTEGER NOT NULL,
      ${DISPOSITION_COLUMNS}
    );`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT OR REPLACE INTO campaigns (campaign_id, workspace_id, name, status, script_id, script_version, language, total_contacts,
         max_attempts, retry_interval_minutes, schedule, calling_hours, recording_enabled, purpose, caller_id, voicemail, created_at)
       VALUES (?, ?, ?, 'scheduled', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const setStatus = db.prepare('UPDATE campaigns SET status = ? WHERE campaign_id = ?');
    const started = db.prepare(`UPDATE campaigns SET status = 'running', started_at = ? WHERE campaign_id = ?`);
    const ended = db.prepare('UPDATE campaigns SET status = ?, ended_at = ?, completion_reason = ? WHERE campaign_id = ?');
    const attemptStarted = db.prepare('UPDATE campaigns SET calls_made = calls_made + 1 WHERE campaign_id = ?');
    const connected = db.prepare('UPDATE campaigns SET calls_connected = calls_connected + 1 WHERE campaign_id = ?');
    // Column names cannot be bound: one statement per disposition.
    const finalized = new Map<string, Statement<[string]>>(
      DISPOSITIONS.map((disposition) => [disposition, db.prepare(`UPDATE campaigns SET ${disposition} = ${disposition} + 1 WHERE campaign_id = ?`)]),
    );
    const snapshot = db.prepare(
      `INSERT OR REPLACE INTO campaign_snapshots (event_id, campaign_id, name, status, ${PROGRESS_COLUMNS})
       SELECT ?, campaign_id, name, status, ${PROGRESS_COLUMNS} FROM campaigns WHERE campaign_id = ?`,
    );
    return (event) => {
      const campaignId = campaignIdOf(event.stream);
      switch (event.type) {
        case 'CampaignCreated': {
          const created = event.data;
          insert.run(
            created.campaign_id,
            created.workspace_id,
            created.name,
            created.script_id,
            created.script_version,
            created.language,
            created.total_contacts,
            created.max_attempts,
            created.retry_interval_minutes,
            created.schedule ? JSON.stringify(created.schedule) : null,
            created.calling_hours ? JSON.stringify(created.calling_hours) : null,
            created.recording_enabled ? 1 : 0,
            created.purpose,
            created.caller_id ?? null,
            created.voicemail ?? 'hang_up',
            created.created_at,
          );
          break;
        }
        case 'CampaignStarted':
          started.run(event.data.started_at, campaignId);
          snapshot.run(event.id, campaignId);
          break;
        case 'CampaignPaused':
          setStatus.run('paused', campaignId);
          snapshot.run(event.id, campaignId);
          break;
        case 'CampaignResumed':
          setStatus.run('running', campaignId);
          break;
        case 'CampaignStopped':
          ended.run('stopped', event.data.stopped_at, null, campaignId);
          break;
        case 'CampaignCompleted':
          ended.run('completed', event.data.completed_at, event.data.reason, campaignId);
          snapshot.run(event.id, campaignId);
          break;
        case 'ContactAttemptStarted':
          attemptStarted.run(campaignId);
          break;
        case 'ContactAttemptEnded':
          if (event.data.outcome === 'connected') connected.run(campaignId);
          break;
        case 'ContactFinalized':
          finalized.get(event.data.disposition)?.run(campaignId);
          break;
      }
    };
  },
});

/** What the API answers for a campaign: the spec's create fields and detail fields together, plus our extensions. */
export interface CampaignDocument {
  id: string;
  name: string;
  status: CampaignStatus;
  script_id: string;
  script_version: number;
  language: string;
  total_contacts: number;
  max_attempts: number;
  retry_interval_minutes: number;
  schedule: CampaignSchedule | null;
  calling_hours: CallingHours | null;
  recording_enabled: boolean;
  purpose: CallPurpose;
  /** E.164; null: the carrier's default caller id. */
  caller_id: string | null;
  voicemail: VoicemailAction;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  completion_reason: CompletionReason | null;
  calls_made: number;
  calls_connected: number;
  disposition_summary: DispositionSummary;
}

interface CampaignRow extends Record<Disposition, number> {
  campaign_id: string;
  name: string;
  status: CampaignStatus;
  script_id: string;
  script_version: number;
  language: string;
  total_contacts: number;
  max_attempts: number;
  retry_interval_minutes: number;
  schedule: string | null;
  calling_hours: string | null;
  recording_enabled: number;
  purpose: CallPurpose;
  caller_id: string | null;
  voicemail: VoicemailAction;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  completion_reason: CompletionReason | null;
  calls_made: number;
  calls_connected: number;
}

function dispositionSummaryOf(row: Record<Disposition, number>): DispositionSummary {
  return {
    interested: row.interested,
    not_interested: row.not_interested,
    callback: row.callback,
    not_reachable: row.not_reachable,
    dnd: row.dnd,
    escalated: row.escalated,
  };
}

function documentOf(row: CampaignRow): CampaignDocument {
  return {
    id: row.campaign_id,
    name: row.name,
    status: row.status,
    script_id: row.script_id,
    script_version: row.script_version,
    language: row.language,
    total_contacts: row.total_contacts,
    max_attempts: row.max_attempts,
    retry_interval_minutes: row.retry_interval_minutes,
    schedule: row.schedule === null ? null : (JSON.parse(row.schedule) as CampaignSchedule),
    calling_hours: row.calling_hours === null ? null : (JSON.parse(row.calling_hours) as CallingHours),
    recording_enabled: row.recording_enabled === 1,
    purpose: row.purpose,
    caller_id: row.caller_id,
    voicemail: row.voicemail,
    created_at: row.created_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
    completion_reason: row.completion_reason,
    calls_made: row.calls_made,
    calls_connected: row.calls_connected,
    disposition_summary: dispositionSummaryOf(row),
  };
}

export interface CampaignFilter {
  status?: CampaignStatus;
  /** Created at or after (ISO, UTC with milliseconds). */
  from?: string;
  /** Created at or before. */
  to?: string;
}

interface SnapshotRow extends Record<Disposition, number> {
  name: string;
  status: CampaignStatus;
  total_contacts: number;
  calls_made: number;
  calls_connected: number;
}

interface Statements {
  one: Statement<[string, string], CampaignRow>;
  snapshot: Statement<[string], SnapshotRow>;
  activeUsingScript: Statement<[string, string], { total: number }>;
  /** Page and count statements per combination of filters, prepared on first use. */
  lists: Map<string, { page: Statement<unknown[], CampaignRow>; count: Statement<unknown[], { total: number }> }>;
}

// Statements are prepared once per database: these queries sit on hot GET paths.
const statementsByDatabase = new WeakMap<Database, Statements>();

function statements(db: Database): Statements {
  let prepared = statementsByDatabase.get(db);
  if (!prepared) {
    prepared = {
      one: db.prepare('SELECT * FROM campaigns WHERE workspace_id = ? AND campaign_id = ?'),
      snapshot: db.prepare(`SELECT name, status, ${PROGRESS_COLUMNS} FROM campaign_snapshots WHERE event_id = ?`),
      activeUsingScript: db.prepare(
        `SELECT count(*) AS total FROM campaigns WHERE workspace_id = ? AND script_id = ? AND status IN ('scheduled', 'running', 'paused')`,
      ),
      lists: new Map(),
    };
    statementsByDatabase.set(db, prepared);
  }
  return prepared;
}

export function findCampaign(db: Database, workspaceId: string, campaignId: string): CampaignDocument | undefined {
  const row = statements(db).one.get(workspaceId, campaignId);
  return row ? documentOf(row) : undefined;
}

/** Campaigns of the workspace, newest first (created_at, then id). */
export function listCampaigns(db: Database, workspaceId: string, filter: CampaignFilter, limit: number, offset: number): { data: CampaignDocument[]; total: number } {
  const prepared = statements(db);
  const key = `${filter.status ? 's' : ''}${filter.from ? 'f' : ''}${filter.to ? 't' : ''}`;
  let list = prepared.lists.get(key);
  if (!list) {
    let where = 'workspace_id = ?';
    if (filter.status) where += ' AND status = ?';
    if (filter.from) where += ' AND created_at >= ?';
    if (filter.to) where += ' AND created_at <= ?';
    list = {
      // `LIMIT (? + 0)`: a bare bound LIMIT makes SQLite re-prepare the statement on every execution.
      page: db.prepare(`SELECT * FROM campaigns WHERE ${where} ORDER BY created_at DESC, campaign_id DESC LIMIT (? + 0) OFFSET (? + 0)`),
      count: db.prepare(`SELECT count(*) AS total FROM campaigns WHERE ${where}`),
    };
    prepared.lists.set(key, list);
  }
  const parameters: unknown[] = [workspaceId];
  if (filter.status) parameters.push(filter.status);
  if (filter.from) parameters.push(filter.from);
  if (filter.to) parameters.push(filter.to);
  return {
    data: list.page.all(...parameters, limit, offset).map(documentOf),
    total: list.count.get(...parameters)?.total ?? 0,
  };
}

/** Campaigns of the workspace that use the script and have not finished (scheduled, running or paused). */
export function countActiveCampaignsUsingScript(db: Database, workspaceId: string, scriptId: string): number {
  return statements(db).activeUsingScript.get(workspaceId, scriptId)?.total ?? 0;
}

/** The campaign right after one of its starts, pauses or completions (by the event's id): its status and progress. */
export function campaignSnapshotAfter(db: Database, eventId: string): (CampaignProgress & { name: string; status: CampaignStatus }) | undefined {
  const row = statements(db).snapshot.get(eventId);
  if (!row) return undefined;
  return {
    name: row.name,
    status: row.status,
    total_contacts: row.total_contacts,
    calls_made: row.calls_made,
    calls_connected: row.calls_connected,
    disposition_summary: dispositionSummaryOf(row),
  };
}

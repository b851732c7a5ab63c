import type { Database } from 'better-sqlite3';
import type { ReportEvent, ReportRequestedData } from '../domain/report.ts';
import { defineProjection } from './projection.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * Reports and their runs, as GET /v1/reports and GET /v1/reports/{id} show them (the route signs download URLs
 * and reads a JSON run's data from the blob store when it answers). A report's `status` is its latest run's
 * (`queued` and `generating` both show as `generating`).
 */
export const reportsProjection = defineProjection<ReportEvent>({
  name: 'reports',
  version: 1,
  tables: ['reports', 'report_runs'],
  eventTypes: [
    'ReportRequested',
    'ReportRunQueued',
    'ReportNextRunPlanned',
    'ReportRunStarted',
    'ReportRunCompleted',
    'ReportRunAttemptFailed',
    'ReportRunFailed',
    'ReportScheduleCancelled',
    'ReportEmailSent',
    'ReportEmailFailed',
    'ReportRunExpired',
  ],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS reports (
      report_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      type TEXT NOT NULL,
      scheduled INTEGER NOT NULL,
      schedule_active INTEGER NOT NULL,
      status TEXT NOT NULL,
      latest_run_id TEXT,
      next_run_at TEXT,
      created_at TEXT NOT NULL,
      request TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS reports_by_workspace ON reports (workspace_id, created_at DESC, report_id DESC);
    CREATE TABLE IF NOT EXISTS report_runs (
      run_id TEXT PRIMARY KEY,
      report_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      period_from TEXT NOT NULL,
      period_to TEXT NOT NULL,
      trigger TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      queued_at TEXT NOT NULL,
      completed_at TEXT,
      error TEXT,
      output TEXT,
      expired INTEGER NOT NULL DEFAULT 0,
      email_status TEXT,
      email_error TEXT
    );
    CREATE INDEX IF NOT EXISTS report_runs_by_report ON report_runs (report_id, queued_at DESC, run_id DESC);
    CREATE INDEX IF NOT EXISTS report_runs_by_status ON report_runs (status);`);
  },
  prepare(db) {
    const insertReport = db.prepare(
      `INSERT OR REPLACE INTO reports (report_id, workspace_id, type, scheduled, schedule_active, status, created_at, request) VALUES (?, ?, ?, ?, ?, 'generating', ?, ?)`,
    );
    const insertRun = db.prepare(
      `INSERT OR IGNORE INTO report_runs (run_id, report_id, workspace_id, period_from, period_to, trigger, status, attempts, queued_at) VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?)`,
    );
    const latest = db.prepare("UPDATE reports SET latest_run_id = ?, status = 'generating' WHERE report_id = ?");
    const nextRun = db.prepare('UPDATE reports SET next_run_at = ? WHERE report_id = ?');
    const cancelled = db.prepare('UPDATE reports SET schedule_active = 0, next_run_at = NULL WHERE report_id = ?');
    const runStatus = db.prepare('UPDATE report_runs SET status = ?, attempts = max(attempts, ?), completed_at = ?, error = ?, output = coalesce(?, output) WHERE run_id = ?');
    // The report shows its latest run's status.
    const reportStatus = db.prepare(
      `UPDATE reports SET status = CASE ? WHEN 'completed' THEN 'completed' WHEN 'failed' THEN 'failed' ELSE 'generating' END WHERE report_id = ? AND latest_run_id = ?`,
    );
    const email = db.prepare('UPDATE report_runs SET email_status = ?, email_error = ? WHERE run_id = ?');
    const expired = db.prepare('UPDATE report_runs SET expired = 1 WHERE run_id = ?');
    const setRun = (reportId: string, runId: string, status: string, attempt: number, completedAt: string | null, error: string | null, output: string | null) => {
      runStatus.run(status, attempt, completedAt, error, output, runId);
      reportStatus.run(status, reportId, runId);
    };
    return (event) => {
      switch (event.type) {
        case 'ReportRequested': {
          const data = event.data;
          insertReport.run(data.report_id, data.workspace_id, data.type, data.schedule ? 1 : 0, data.schedule ? 1 : 0, data.requested_at, JSON.stringify(data));
          break;
        }
        case 'ReportRunQueued': {
          const data = event.data;
          insertRun.run(data.run_id, data.report_id, event.metadata.workspace_id, data.period.from, data.period.to, data.trigger, data.queued_at);
          latest.run(data.run_id, data.report_id);
          break;
        }
        case 'ReportNextRunPlanned':
          nextRun.run(event.data.next_run_at, event.data.report_id);
          break;
        case 'ReportScheduleCancelled':
          cancelled.run(event.data.report_id);
          break;
        case 'ReportRunStarted':
          setRun(event.data.report_id, event.data.run_id, 'generating', event.data.attempt, null, null, null);
          break;
        case 'ReportRunAttemptFailed':
          setRun(event.data.report_id, event.data.run_id, 'queued', event.data.attempt, null, JSON.stringify(event.data.error), null);
          break;
        case 'ReportRunCompleted':
          setRun(event.data.report_id, event.data.run_id, 'completed', event.data.attempt, event.data.completed_at, null, JSON.stringify(event.data.output));
          break;
        case 'ReportRunFailed':
          setRun(event.data.report_id, event.data.run_id, 'failed', event.data.attempt, event.data.failed_at, JSON.stringify(event.data.error), null);
          break;
        case 'ReportEmailSent':
          email.run(`sent_${event.data.delivery}`, null, event.data.run_id);
          break;
        case 'ReportEmailFailed':
          email.run(event.data.final ? 'failed' : 'retrying', JSON.stringify(event.data.error), event.data.run_id);
          break;
        case 'ReportRunExpired':
          expired.run(event.data.run_id);
          break;
      }
    };
  },
});

// --------------------------------------------------------------------------------------------------------- queries

export interface ReportRow {
  report_id: string;
  workspace_id: string;
  type: string;
  scheduled: number;
  schedule_active: number;
  status: 'generating' | 'completed' | 'failed';
  latest_run_id: string | null;
  next_run_at: string | null;
  created_at: string;
  request: ReportRequestedData;
}

export interface ReportRunRow {
  run_id: string;
  report_id: string;
  workspace_id: string;
  period_from: string;
  period_to: string;
  trigger: 'request' | 'schedule';
  status: 'queued' | 'generating' | 'completed' | 'failed';
  attempts: number;
  queued_at: string;
  completed_at: string | null;
  error: { code: string; message: string } | null;
  output: { blob_key: string; content_type: string; file_name: string; size_bytes: number } | null;
  expired: boolean;
  email_status: string | null;
  email_error: { code: string; message: string } | null;
}

type RawRun = Omit<ReportRunRow, 'error' | 'output' | 'expired' | 'email_error'> & { error: string | null; output: string | null; expired: number; email_error: string | null };

function reportOf(row: Omit<ReportRow, 'request'> & { request: string }): ReportRow {
  return { ...row, request: JSON.parse(row.request) as ReportRequestedData };
}

function runOf(row: RawRun): ReportRunRow {
  return {
    ...row,
    error: row.error === null ? null : JSON.parse(row.error),
    output: row.output === null ? null : JSON.parse(row.output),
    expired: row.expired === 1,
    email_error: row.email_error === null ? null : JSON.parse(row.email_error),
  };
}

export function findReport(db: Database, workspaceId: string, reportId: string): ReportRow | undefined {
  const row = preparedStatement(db, 'SELECT * FROM reports WHERE report_id = ? AND workspace_id = ?').get(reportId, workspaceId) as (Omit<ReportRow, 'request'> & { request: string }) | undefined;
  return row && reportOf(row);
}

export interface ReportListFilter {
  type?: string;
  status?: string;
  scheduled?: boolean;
}

export function listReports(db: Database, workspaceId: string, filter: ReportListFilter, limit: number, offset: number): { data: ReportRow[]; total: number } {
  const where = `workspace_id = ? AND (? IS NULL OR type = ?) AND (? IS NULL OR status = ?) AND (? IS NULL OR scheduled = ?)`;
  const scheduled = filter.scheduled === undefined ? null : filter.scheduled ? 1 : 0;
  const values = [workspaceId, filter.type ?? null, filter.type ?? null, filter.status ?? null, filter.status ?? null, scheduled, scheduled];
  const rows = preparedStatement(db, `SELECT * FROM reports WHERE ${where} ORDER BY created_at DESC, report_id DESC LIMIT ? OFFSET ?`).all(...values, limit, offset) as Array<Omit<ReportRow, 'request'> & { request: string }>;
  const total = (preparedStatement(db, `SELECT count(*) AS total FROM reports WHERE ${where}`).get(...values) as { total: number }).total;
  return { data: rows.map(reportOf), total };
}

/** A report's runs, newest first. */
export function reportRuns(db: Database, reportId: string, limit: number): ReportRunRow[] {
  return (preparedStatement(db, 'SELECT * FROM report_runs WHERE report_id = ? ORDER BY queued_at DESC, run_id DESC LIMIT ?').all(reportId, limit) as RawRun[]).map(runOf);
}

export function findReportRun(db: Database, runId: string): ReportRunRow | undefined {
  const row = preparedStatement(db, 'SELECT * FROM report_runs WHERE run_id = ?').get(runId) as RawRun | undefined;
  return row && runOf(row);
}

/** Runs not yet completed or failed, oldest first: what the generator resumes after a restart. */
export function unfinishedReportRuns(db: Database): Array<{ report_id: string; run_id: string; workspace_id: string }> {
  return preparedStatement(db, "SELECT report_id, run_id, workspace_id FROM report_runs WHERE status IN ('queued', 'generating') ORDER BY queued_at, run_id").all() as Array<{
    report_id: string;
    run_id: string;
    workspace_id: string;
  }>;
}

/** Completed runs whose file is older than the retention and still kept. */
export function runsPastRetention(db: Database, completedBefore: string, limit: number): Array<{ report_id: string; run_id: string; workspace_id: string; blob_key: string }> {
  return preparedStatement(
    db,
    `SELECT report_id, run_id, workspace_id, json_extract(output, '$.blob_key') AS blob_key FROM report_runs
     WHERE status = 'completed' AND expired = 0 AND completed_at < ? ORDER BY completed_at LIMIT ?`,
  ).all(completedBefore, limit) as Array<{ report_id: string; run_id: string; workspace_id: string; blob_key: string }>;
}

/** Completed runs of reports with e-mail delivery whose mail has not been tried yet: what the mailer resumes at start. */
export function runsAwaitingEmail(db: Database): Array<{ report_id: string; run_id: string }> {
  return preparedStatement(
    db,
    `SELECT r.report_id AS report_id, r.run_id AS run_id FROM report_runs r JOIN reports p ON p.report_id = r.report_id
     WHERE r.status = 'completed' AND r.expired = 0 AND r.email_status IS NULL AND json_extract(p.request, '$.email') IS NOT NULL
     ORDER BY r.completed_at`,
  ).all() as Array<{ report_id: string; run_id: string }>;
}

import type { Database, Statement } from 'better-sqlite3';
import { complianceAuditIdOf, type AuditBatch, type ComplianceAuditEvent } from '../domain/compliance/audit.ts';
import { defineProjection } from './projection.ts';

/** At most this many call ids are listed as newly failing (the count is exact). */
export const LISTED_CALLS = 100;

/** Re-audits and what they found so far, for GET /v1/compliance/audits/{id} and the runner's recovery. */
export const complianceAuditsProjection = defineProjection<ComplianceAuditEvent>({
  name: 'compliance-audits',
  version: 2,
  tables: ['compliance_audits'],
  eventTypes: ['ComplianceAuditRequested', 'ComplianceAuditProgressed', 'ComplianceAuditCompleted'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS compliance_audits (
      audit_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      status TEXT NOT NULL,
      basis TEXT NOT NULL,
      packs TEXT NOT NULL,
      range_from TEXT NOT NULL,
      range_to TEXT NOT NULL,
      campaign_id TEXT,
      total INTEGER NOT NULL,
      processed INTEGER NOT NULL DEFAULT 0,
      newly_failing INTEGER NOT NULL DEFAULT 0,
      newly_failing_ids TEXT NOT NULL DEFAULT '[]',
      newly_passing INTEGER NOT NULL DEFAULT 0,
      changed INTEGER NOT NULL DEFAULT 0,
      by_check TEXT NOT NULL DEFAULT '[]',
      classifiers TEXT NOT NULL DEFAULT '[]',
      judged_by_other_model INTEGER NOT NULL DEFAULT 0,
      requested_at TEXT NOT NULL,
      completed_at TEXT
    );
    CREATE INDEX IF NOT EXISTS compliance_audits_running ON compliance_audits (status) WHERE status = 'running';
    CREATE INDEX IF NOT EXISTS compliance_audits_by_workspace ON compliance_audits (workspace_id, requested_at DESC);`);
  },
  prepare(db) {
    const insert = db.prepare(
      `INSERT OR REPLACE INTO compliance_audits (audit_id, workspace_id, status, basis, packs, range_from, range_to, campaign_id, total, requested_at)
       VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const current = db.prepare<[string], { newly_failing_ids: string; by_check: string; classifiers: string }>('SELECT newly_failing_ids, by_check, classifiers FROM compliance_audits WHERE audit_id = ?');
    const progress = db.prepare(
      `UPDATE compliance_audits SET processed = processed + ?, newly_failing = newly_failing + ?, newly_failing_ids = ?, newly_passing = newly_passing + ?,
         changed = changed + ?, by_check = ?, classifiers = ?, judged_by_other_model = judged_by_other_model + ? WHERE audit_id = ?`,
    );
    const complete = db.prepare(`UPDATE compliance_audits SET status = 'completed', completed_at = ? WHERE audit_id = ?`);
    return (event) => {
      const auditId = complianceAuditIdOf(event.stream);
      switch (event.type) {
        case 'ComplianceAuditRequested': {
          const data = event.data;
          insert.run(auditId, data.workspace_id, data.basis, JSON.stringify(data.packs), data.from, data.to, data.campaign_id, data.total, data.requested_at);
          return;
        }
        case 'ComplianceAuditProgressed': {
          const row = current.get(auditId);
          if (!row) return;
          const ids = [...(JSON.parse(row.newly_failing_ids) as string[]), ...event.data.newly_failing].slice(0, LISTED_CALLS);
          const byCheck = mergeByCheck(JSON.parse(row.by_check) as AuditBatch['by_check'], event.data.by_check);
          const classifiers = JSON.parse(row.classifiers) as string[];
          const classifier = event.data.classifier;
          if (typeof classifier === 'string' && !classifiers.includes(classifier)) classifiers.push(classifier);
          progress.run(
            event.data.processed,
            event.data.newly_failing.length,
            JSON.stringify(ids),
            event.data.newly_passing.length,
            event.data.changed,
            JSON.stringify(byCheck),
            JSON.stringify(classifiers),
            event.data.judged_by_other_model ?? 0,
            auditId,
          );
          return;
        }
        case 'ComplianceAuditCompleted':
          complete.run(event.data.completed_at, auditId);
          return;
      }
    };
  },
});

function mergeByCheck(totals: AuditBatch['by_check'], batch: AuditBatch['by_check']): AuditBatch['by_check'] {
  const merged = new Map(totals.map((entry) => [entry.check, { ...entry }]));
  for (const entry of batch) {
    const total = merged.get(entry.check) ?? { check: entry.check, severity: entry.severity, added: 0, removed: 0 };
    total.added += entry.added;
    total.removed += entry.removed;
    merged.set(entry.check, total);
  }
  return [...merged.values()].sort((a, b) => b.added + b.removed - (a.added + a.removed) || a.check.localeCompare(b.check));
}

export interface ComplianceAuditRow {
  audit_id: string;
  workspace_id: string;
  status: 'running' | 'completed';
  basis: 'settings' | 'rule_pack_version';
  packs: Array<{ id: string; version: string; parameters: Record<string, unknown> }>;
  from: string;
  to: string;
  campaign_id: string | null;
  total: number;
  processed: number;
  newly_failing: number;
  newly_failing_ids: string[];
  newly_passing: number;
  changed: number;
  by_check: AuditBatch['by_check'];
  /** The trained models the audit judged with so far (empty: the rules alone). */
  classifiers: string[];
  judged_by_other_model: number;
  requested_at: string;
  completed_at: string | null;
}

interface RawRow extends Omit<ComplianceAuditRow, 'packs' | 'from' | 'to' | 'newly_failing_ids' | 'by_check' | 'classifiers'> {
  packs: string;
  classifiers: string;
  range_from: string;
  range_to: string;
  newly_failing_ids: string;
  by_check: string;
}

const prepared = new WeakMap<
  Database,
  { one: Statement<[string, string], RawRow>; running: Statement<[], RawRow>; page: Statement<[string, number, number], RawRow>; count: Statement<[string], { total: number }>; subjects: Map<string, Statement> }
>();

function statements(db: Database) {
  let found = prepared.get(db);
  if (!found) {
    found = {
      one: db.prepare('SELECT * FROM compliance_audits WHERE workspace_id = ? AND audit_id = ?'),
      running: db.prepare(`SELECT * FROM compliance_audits WHERE status = 'running' ORDER BY requested_at`),
      // `LIMIT (? + 0)`: a bare bound LIMIT makes SQLite re-prepare the statement on every execution.
      page: db.prepare('SELECT * FROM compliance_audits WHERE workspace_id = ? ORDER BY requested_at DESC, rowid DESC LIMIT (? + 0) OFFSET (? + 0)'),
      count: db.prepare('SELECT count(*) AS total FROM compliance_audits WHERE workspace_id = ?'),
      subjects: new Map(),
    };
    prepared.set(db, found);
  }
  return found;
}

function rowOf(raw: RawRow): ComplianceAuditRow {
  const { packs, range_from, range_to, newly_failing_ids, by_check, classifiers, ...rest } = raw;
  return { ...rest, packs: JSON.parse(packs), from: range_from, to: range_to, newly_failing_ids: JSON.parse(newly_failing_ids), by_check: JSON.parse(by_check), classifiers: JSON.parse(classifiers) };
}

export function findComplianceAudit(db: Database, workspaceId: string, auditId: string): ComplianceAuditRow | undefined {
  const raw = statements(db).one.get(workspaceId, auditId);
  return raw ? rowOf(raw) : undefined;
}

/** The workspace's audits, newest first (indexed by workspace and request time). */
export function listComplianceAudits(db: Database, workspaceId: string, limit: number, offset: number): { data: ComplianceAuditRow[]; total: number } {
  const { page, count } = statements(db);
  return { data: page.all(workspaceId, limit, offset).map(rowOf), total: count.get(workspaceId)?.total ?? 0 };
}

export function runningComplianceAudits(db: Database): ComplianceAuditRow[] {
  return statements(db).running.all().map(rowOf);
}

/** Calls with a current compliance result in the range, after the cursor, in (occurred_at, subject_id) order. */
export function auditSubjects(
  db: Database,
  query: { workspaceId: string; from: string; to: string; campaignId: string | null; after: { occurred_at: string; subject_id: string } | null; limit: number },
): Array<{ subject_id: string; occurred_at: string; job_id: string; call_id: string | null; violations: string; classifier: string | null }> {
  const { subjects } = statements(db);
  const key = `${query.campaignId !== null},${query.after !== null}`;
  let statement = subjects.get(key);
  if (!statement) {
    statement = db.prepare(
      `SELECT subject_id, occurred_at, job_id, call_id, violations, classifier FROM compliance_results
       WHERE workspace_id = @workspace_id AND occurred_at >= @from AND occurred_at <= @to
       ${query.campaignId !== null ? 'AND campaign_id = @campaign_id' : ''}
       ${query.after !== null ? 'AND (occurred_at, subject_id) > (@after_time, @after_id)' : ''}
       ORDER BY occurred_at, subject_id LIMIT @limit`,
    );
    subjects.set(key, statement);
  }
  const parameters: Record<string, unknown> = { workspace_id: query.workspaceId, from: query.from, to: query.to, limit: query.limit };
  if (query.campaignId !== null) parameters.campaign_id = query.campaignId;
  if (query.after !== null) {
    parameters.after_time = query.after.occurred_at;
    parameters.after_id = query.after.subject_id;
  }
  return statement.all(parameters) as ReturnType<typeof auditSubjects>;
}

const countStatements = new WeakMap<Database, Map<string, Statement>>();

export function countAuditSubjects(db: Database, query: { workspaceId: string; from: string; to: string; campaignId: string | null }): number {
  let byKey = countStatements.get(db);
  if (!byKey) countStatements.set(db, (byKey = new Map()));
  const key = String(query.campaignId !== null);
  let statement = byKey.get(key);
  if (!statement) {
    statement = db.prepare(
      `SELECT count(*) AS total FROM compliance_results WHERE workspace_id = @workspace_id AND occurred_at >= @from AND occurred_at <= @to
       ${query.campaignId !== null ? 'AND campaign_id = @campaign_id' : ''}`,
    );
    byKey.set(key, statement);
  }
  const parameters: Record<string, unknown> = { workspace_id: query.workspaceId, from: query.from, to: query.to };
  if (query.campaignId !== null) parameters.campaign_id = query.campaignId;
  return (statement.get(parameters) as { total: number }).total;
}

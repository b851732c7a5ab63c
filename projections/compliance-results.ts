import type { Database, Statement } from 'better-sqlite3';
import { campaignIdOf, type CampaignEvent } from '../domain/campaign.ts';
import type { ComplianceViolation } from '../domain/compliance/evaluation.ts';
import type { EnabledPack } from '../domain/compliance/packs.ts';
import type { ComplianceResultEvent } from '../domain/compliance/result.ts';
import { defineProjection } from './projection.ts';

/**
 * The compliance read models (issue 14): each call's current result (its latest evaluation), one row per check
 * that applied (for the aggregate by check and severity), and the attempts the pre-dial rules blocked. All rows
 * carry the workspace and the time the aggregate selects on, indexed.
 */
export const complianceResultsProjection = defineProjection<ComplianceResultEvent | Extract<CampaignEvent, { type: 'ContactAttemptBlocked' }>>({
  name: 'compliance-results',
  version: 3,
  tables: ['compliance_results', 'compliance_checks', 'compliance_blocked_attempts', 'compliance_failures'],
  eventTypes: ['ComplianceEvaluated', 'ComplianceEvaluationFailed', 'ContactAttemptBlocked'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS compliance_results (
      subject_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      call_id TEXT,
      job_id TEXT NOT NULL,
      campaign_id TEXT,
      language TEXT NOT NULL,
      occurred_at TEXT NOT NULL,
      score REAL NOT NULL,
      passed INTEGER NOT NULL,
      passed_checks TEXT NOT NULL,
      violations TEXT NOT NULL,
      packs TEXT NOT NULL,
      classifier TEXT,
      evaluated_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS compliance_results_by_time ON compliance_results (workspace_id, occurred_at);
    -- The aggregate's totals (calls, average score, passed) of a range, filtered or not, from the index alone.
    CREATE INDEX IF NOT EXISTS compliance_results_totals ON compliance_results (workspace_id, occurred_at, score, passed, campaign_id, language);
    -- The violation log (complianceViolationLog): the calls with findings in call order, with their count of findings,
    -- so neither the log nor its total reads the calls without any.
    CREATE INDEX IF NOT EXISTS compliance_results_with_findings ON compliance_results (workspace_id, occurred_at, subject_id, json_array_length(violations))
      WHERE violations <> '[]';
    CREATE TABLE IF NOT EXISTS compliance_checks (
      subject_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      occurred_at TEXT NOT NULL,
      campaign_id TEXT,
      language TEXT NOT NULL,
      check_name TEXT NOT NULL,
      severity TEXT NOT NULL,
      passed INTEGER NOT NULL,
      violations INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS compliance_checks_by_subject ON compliance_checks (subject_id);
    -- The failed checks of a range with what the aggregate sums and filters by, so it reads the index alone (it
    -- replaced compliance_checks_by_time, the same rows without the columns).
    DROP INDEX IF EXISTS compliance_checks_by_time;
    CREATE INDEX IF NOT EXISTS compliance_checks_failed_by_time ON compliance_checks (workspace_id, occurred_at, check_name, severity, subject_id, violations, campaign_id, language)
      WHERE passed = 0;
    -- Every check of a workspace by check and call, with what complianceCheckResults counts and filters by: read in
    -- this order, its GROUP BY needs no sort (the time bound is checked on each entry).
    CREATE INDEX IF NOT EXISTS compliance_checks_by_check ON compliance_checks (workspace_id, check_name, severity, subject_id, occurred_at, passed, violations, campaign_id, language);
    CREATE TABLE IF NOT EXISTS compliance_blocked_attempts (
      event_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      campaign_id TEXT NOT NULL,
      contact_index INTEGER NOT NULL,
      rule_id TEXT NOT NULL,
      severity TEXT NOT NULL,
      final INTEGER NOT NULL,
      blocked_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS compliance_blocked_by_time ON compliance_blocked_attempts (workspace_id, blocked_at);
    CREATE TABLE IF NOT EXISTS compliance_failures (
      subject_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      code TEXT NOT NULL,
      message TEXT NOT NULL,
      failed_at TEXT NOT NULL
    );`);
  },
  prepare(db) {
    const upsertResult = db.prepare(
      `INSERT OR REPLACE INTO compliance_results (subject_id, workspace_id, call_id, job_id, campaign_id, language, occurred_at, score, passed,
         passed_checks, violations, packs, classifier, evaluated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const clearChecks = db.prepare('DELETE FROM compliance_checks WHERE subject_id = ?');
    const insertCheck = db.prepare(
      `INSERT INTO compliance_checks (subject_id, workspace_id, occurred_at, campaign_id, language, check_name, severity, passed, violations)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertBlocked = db.prepare(
      `INSERT OR IGNORE INTO compliance_blocked_attempts (event_id, workspace_id, campaign_id, contact_index, rule_id, severity, final, blocked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertFailure = db.prepare('INSERT OR REPLACE INTO compliance_failures (subject_id, workspace_id, code, message, failed_at) VALUES (?, ?, ?, ?, ?)');
    const clearFailure = db.prepare('DELETE FROM compliance_failures WHERE subject_id = ?');
    return (event) => {
      if (event.type === 'ComplianceEvaluationFailed') {
        const data = event.data;
        insertFailure.run(data.subject_id, data.workspace_id, data.error.code, data.error.message, data.failed_at);
        return;
      }
      if (event.type === 'ContactAttemptBlocked') {
        const data = event.data;
        insertBlocked.run(event.id, event.metadata.workspace_id ?? '', campaignIdOf(event.stream), data.contact_index, data.rule_id, data.severity, data.resumes_at === null ? 1 : 0, data.blocked_at);
        return;
      }
      const data = event.data;
      clearFailure.run(data.subject_id);
      const passed = data.violations.some((violation) => violation.severity === 'critical') ? 0 : 1;
      upsertResult.run(
        data.subject_id,
        data.workspace_id,
        data.call_id,
        data.job_id,
        data.campaign_id,
        data.language,
        data.occurred_at,
        data.compliance_score,
        passed,
        JSON.stringify(data.passed_checks),
        JSON.stringify(data.violations),
        JSON.stringify(data.packs.map(({ id, version }) => ({ id, version }))),
        data.classifier ?? null,
        data.evaluated_at,
      );
      clearChecks.run(data.subject_id);
      for (const check of data.checks) {
        const violations = check.passed ? 0 : data.violations.filter((violation) => violation.rule_id === check.rule_id).length;
        insertCheck.run(data.subject_id, data.workspace_id, data.occurred_at, data.campaign_id, data.language, check.check, check.severity, check.passed ? 1 : 0, violations);
      }
    };
  },
});

export interface ComplianceResultRow {
  subject_id: string;
  call_id: string | null;
  job_id: string;
  compliance_score: number;
  passed_checks: string[];
  violations: ComplianceViolation[];
  rule_packs: Array<Pick<EnabledPack, 'id' | 'version'>>;
  /** ComplianceEvaluatedData.classifier; null also for a result recorded before the model was kept. */
  classifier: string | null;
  evaluated_at: string;
}

interface Prepared {
  one: Statement<[string, string], { subject_id: string; call_id: string | null; job_id: string; score: number; passed_checks: string; violations: string; packs: string; classifier: string | null; evaluated_at: string }>;
  aggregates: Map<string, { totals: Statement; bySeverity: Statement; byCheck: Statement; blocked: Statement }>;
}

const prepared = new WeakMap<Database, Prepared>();

function statements(db: Database): Prepared {
  let found = prepared.get(db);
  if (!found) {
    found = {
      one: db.prepare('SELECT subject_id, call_id, job_id, score, passed_checks, violations, packs, classifier, evaluated_at FROM compliance_results WHERE workspace_id = ? AND subject_id = ?'),
      aggregates: new Map(),
    };
    prepared.set(db, found);
  }
  return found;
}

/** The current result of a call (by call id) or of a standalone job (by job id). */
export function findComplianceResult(db: Database, workspaceId: string, subjectId: string): ComplianceResultRow | undefined {
  const row = statements(db).one.get(workspaceId, subjectId);
  if (!row) return undefined;
  return {
    subject_id: row.subject_id,
    call_id: row.call_id,
    job_id: row.job_id,
    compliance_score: row.score,
    passed_checks: JSON.parse(row.passed_checks) as string[],
    violations: JSON.parse(row.violations) as ComplianceViolation[],
    rule_packs: JSON.parse(row.packs) as Array<Pick<EnabledPack, 'id' | 'version'>>,
    classifier: row.classifier,
    evaluated_at: row.evaluated_at,
  };
}

export interface ComplianceFilter {
  fromInstant: string;
  toInstant: string;
  campaign_id?: string;
  language?: string;
}

export interface ComplianceAggregate {
  calls_evaluated: number;
  avg_compliance_score: number | null;
  passed_calls: number;
  violations_by_severity: { critical: number; warning: number };
  violations_by_check: Array<{ check: string; severity: string; count: number; calls: number }>;
  blocked_attempts_by_rule: Array<{ rule_id: string; severity: string; count: number; final: number }>;
}

/** The evaluated calls of the range (by the time the call happened) of one workspace, as the aggregate selects them. */
const RANGE_CLAUSE = 'workspace_id = @workspace_id AND occurred_at >= @from AND occurred_at <= @to';

/** The optional campaign and language conditions of a filter (column prefix `alias`). */
function filterClause(filter: ComplianceFilter, alias = ''): string {
  return `${filter.campaign_id !== undefined ? ` AND ${alias}campaign_id = @campaign_id` : ''}${filter.language !== undefined ? ` AND ${alias}language = @language` : ''}`;
}

function filterParameters(workspaceId: string, filter: ComplianceFilter): Record<string, unknown> {
  const parameters: Record<string, unknown> = { workspace_id: workspaceId, from: filter.fromInstant, to: filter.toInstant };
  if (filter.campaign_id !== undefined) parameters.campaign_id = filter.campaign_id;
  if (filter.language !== undefined) parameters.language = filter.language;
  return parameters;
}

export function complianceAggregate(db: Database, workspaceId: string, filter: ComplianceFilter): ComplianceAggregate {
  const { aggregates } = statements(db);
  const key = `${filter.campaign_id !== undefined},${filter.language !== undefined}`;
  let query = aggregates.get(key);
  if (!query) {
    const extra = (alias: string) => filterClause(filter, alias);
    const range = RANGE_CLAUSE;
    // Blocked attempts know their campaign; the language is the campaign's (campaigns read model).
    const blockedLanguage = filter.language !== undefined ? ' AND campaign_id IN (SELECT campaign_id FROM campaigns WHERE workspace_id = @workspace_id AND language = @language)' : '';
    query = {
      totals: db.prepare(`SELECT count(*) AS calls, avg(score) AS score, coalesce(sum(passed), 0) AS passed FROM compliance_results WHERE ${range}${extra('')}`),
      bySeverity: db.prepare(`SELECT severity, sum(violations) AS count FROM compliance_checks WHERE ${range} AND passed = 0${extra('')} GROUP BY severity`),
      byCheck: db.prepare(
        `SELECT check_name AS "check", severity, sum(violations) AS count, count(DISTINCT subject_id) AS calls FROM compliance_checks
         WHERE ${range} AND passed = 0${extra('')} GROUP BY check_name, severity ORDER BY count DESC, check_name`,
      ),
      blocked: db.prepare(
        `SELECT rule_id, severity, count(*) AS count, sum(final) AS final FROM compliance_blocked_attempts
         WHERE workspace_id = @workspace_id AND blocked_at >= @from AND blocked_at <= @to
         ${filter.campaign_id !== undefined ? ' AND campaign_id = @campaign_id' : ''}${blockedLanguage}
         GROUP BY rule_id, severity ORDER BY count DESC, rule_id`,
      ),
    };
    aggregates.set(key, query);
  }
  const parameters = filterParameters(workspaceId, filter);
  const totals = query.totals.get(parameters) as { calls: number; score: number | null; passed: number };
  const bySeverity = { critical: 0, warning: 0 };
  for (const row of query.bySeverity.all(parameters) as Array<{ severity: 'critical' | 'warning'; count: number }>) bySeverity[row.severity] = row.count;
  return {
    calls_evaluated: totals.calls,
    avg_compliance_score: totals.score === null ? null : Math.round(totals.score * 10) / 10,
    passed_calls: totals.passed,
    violations_by_severity: bySeverity,
    violations_by_check: query.byCheck.all(parameters) as ComplianceAggregate['violations_by_check'],
    blocked_attempts_by_rule: query.blocked.all(parameters) as ComplianceAggregate['blocked_attempts_by_rule'],
  };
}

const failureStatements = new WeakMap<Database, Statement<[string, string], { code: string; message: string; failed_at: string }>>();

/** Why a call's evaluation failed, when it did and no later one succeeded. */
export function findComplianceFailure(db: Database, workspaceId: string, subjectId: string): { code: string; message: string; failed_at: string } | undefined {
  let statement = failureStatements.get(db);
  if (!statement) {
    statement = db.prepare('SELECT code, message, failed_at FROM compliance_failures WHERE workspace_id = ? AND subject_id = ?');
    failureStatements.set(db, statement);
  }
  return statement.get(workspaceId, subjectId);
}

/** One check over the range: how many evaluated calls it applied to, how many of them failed it, its findings. */
export interface ComplianceCheckResult {
  check: string;
  severity: string;
  calls_evaluated: number;
  failed_calls: number;
  violations: number;
}

const checkResultStatements = new WeakMap<Database, Map<string, Statement>>();

/**
 * Every check that applied in the range with its passes and failures (the aggregate above lists only failures): the
 * same `compliance_checks` rows, the same range and filters. Read from compliance_checks_by_check alone, in the
 * order of the GROUP BY (no table rows, no sort; the calls are still counted DISTINCT, as a call can have a check
 * twice, from two packs). The index is read over the workspace's whole history, the range being a condition on each
 * entry: a compliance rollup would bound it by the range. (Grouping by call in a subquery instead was slower.)
 */
export function complianceCheckResults(db: Database, workspaceId: string, filter: ComplianceFilter): ComplianceCheckResult[] {
  let byKey = checkResultStatements.get(db);
  if (!byKey) checkResultStatements.set(db, (byKey = new Map()));
  const key = `${filter.campaign_id !== undefined},${filter.language !== undefined}`;
  let statement = byKey.get(key);
  if (!statement) {
    statement = db.prepare(
      `SELECT check_name AS "check", severity, count(DISTINCT subject_id) AS calls_evaluated,
         count(DISTINCT CASE WHEN passed = 0 THEN subject_id END) AS failed_calls, coalesce(sum(violations), 0) AS violations
       FROM compliance_checks INDEXED BY compliance_checks_by_check WHERE ${RANGE_CLAUSE}${filterClause(filter)}
       GROUP BY check_name, severity ORDER BY failed_calls DESC, check_name`,
    );
    byKey.set(key, statement);
  }
  return statement.all(filterParameters(workspaceId, filter)) as ComplianceCheckResult[];
}

/** One finding of the violation log, in the order the calls happened. */
export interface ComplianceLogEntry {
  call_id: string | null;
  job_id: string;
  campaign_id: string | null;
  language: string;
  occurred_at: string;
  violation: ComplianceViolation;
}

const logStatements = new WeakMap<Database, Map<string, { rows: Statement; total: Statement }>>();

/**
 * The findings of the range, oldest call first, at most `limit` of them (read row by row: memory is bounded by the
 * limit, not the range), with the total number of findings.
 */
export function complianceViolationLog(db: Database, workspaceId: string, filter: ComplianceFilter, limit: number): { total: number; entries: ComplianceLogEntry[] } {
  let byKey = logStatements.get(db);
  if (!byKey) logStatements.set(db, (byKey = new Map()));
  const key = `${filter.campaign_id !== undefined},${filter.language !== undefined}`;
  let query = byKey.get(key);
  if (!query) {
    const where = `${RANGE_CLAUSE}${filterClause(filter)} AND violations <> '[]'`;
    query = {
      rows: db.prepare(
        `SELECT call_id, job_id, campaign_id, language, occurred_at, violations FROM compliance_results INDEXED BY compliance_results_with_findings WHERE ${where} ORDER BY occurred_at, subject_id`,
      ),
      total: db.prepare(`SELECT coalesce(sum(json_array_length(violations)), 0) AS total FROM compliance_results INDEXED BY compliance_results_with_findings WHERE ${where}`),
    };
    byKey.set(key, query);
  }
  const parameters = filterParameters(workspaceId, filter);
  const entries: ComplianceLogEntry[] = [];
  if (limit > 0) {
    type LogRow = { call_id: string | null; job_id: string; campaign_id: string | null; language: string; occurred_at: string; violations: string };
    for (const row of query.rows.iterate(parameters) as IterableIterator<LogRow>) {
      for (const violation of JSON.parse(row.violations) as ComplianceViolation[]) {
        entries.push({ call_id: row.call_id, job_id: row.job_id, campaign_id: row.campaign_id, language: row.language, occurred_at: row.occurred_at, violation });
        if (entries.length === limit) break;
      }
      if (entries.length === limit) break;
    }
  }
  const { total } = query.total.get(parameters) as { total: number };
  return { total, entries };
}

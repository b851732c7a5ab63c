import type { Database } from 'better-sqlite3';
import { QA_DIMENSIONS, QA_LEVELS } from './analytics.ts';
import { BUCKET_MATCH, compareText, edgeMatch, EDGES_FROM, planRange, RUN_MATCH, RUNS_FROM, type AnalyticsRange } from './analytics-range-plan.ts';
import { ALL, levelFor } from './rollup-levels.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * `GET /v1/analytics/qa` over the analytics read model: one call's QA results, or QA aggregated over a range
 * (scored calls by when they started, standalone jobs by when they completed): whole UTC buckets of the rollups
 * plus edges under 15 minutes from the per-result rows (projections/analytics-range-plan.ts), in any zone.
 * Parameters aggregate by name, across scorecards and their versions; `max_score` is the highest the parameter had.
 */
export interface CallQaResult {
  scorecard_id: string;
  scorecard_version: number;
  overall_score: number;
  passed: boolean;
  parameter_scores: Array<{ parameter_name: string; score: number; max_score: number; passed: boolean }>;
}

export function callQaResults(db: Database, workspaceId: string, callId: string): CallQaResult[] {
  const rows = preparedStatement(
    db,
    'SELECT scorecard_id, scorecard_version, overall_score, passed, parameter_scores FROM analytics_qa WHERE call_id = ? AND workspace_id = ? ORDER BY scorecard_id',
  ).all(callId, workspaceId) as Array<{ scorecard_id: string; scorecard_version: number; overall_score: number; passed: number; parameter_scores: string }>;
  return rows.map((row) => ({
    scorecard_id: row.scorecard_id,
    scorecard_version: row.scorecard_version,
    overall_score: row.overall_score,
    passed: row.passed === 1,
    parameter_scores: JSON.parse(row.parameter_scores) as CallQaResult['parameter_scores'],
  }));
}

export interface QaFilter {
  agent_id?: string;
  scorecard_id?: string;
}

export interface QaSums {
  evaluated: number;
  score_sum: number;
  passed: number;
  parameters: Array<{ name: string; evaluated: number; score_sum: number; max_score: number; passed: number }>;
}

/** The filter of the rows of `table`; for the rollups (`level` given), ALL where the level does not keep a dimension. */
function filterSql(filter: QaFilter, table: string, level?: readonly string[]): { where: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of QA_DIMENSIONS) {
    const value = level && !level.includes(column) ? ALL : filter[column];
    if (value === undefined) continue;
    conditions.push(` AND ${table}.${column} = ?`);
    values.push(value);
  }
  return { where: conditions.join(''), values };
}

type ParameterSums = QaSums['parameters'][number];

export function qaSums(db: Database, workspaceId: string, range: AnalyticsRange, filter: QaFilter): QaSums {
  const filtered = QA_DIMENSIONS.some((dimension) => filter[dimension] !== undefined);
  const plan = planRange(range, undefined, filtered);
  const totals = { evaluated: 0, score_milli: 0, passed: 0 };
  const parameterRows: Array<Omit<ParameterSums, 'score_sum'> & { score_milli: number }> = [];
  const add = (row: typeof totals | undefined) => {
    if (!row) return;
    totals.evaluated += row.evaluated;
    totals.score_milli += row.score_milli;
    totals.passed += row.passed;
  };
  if (plan.hasRuns) {
    const level = levelFor(QA_LEVELS, QA_DIMENSIONS.filter((dimension) => filter[dimension] !== undefined));
    const { where, values } = filterSql(filter, 'r', level);
    const scope = (table: string) => `${RUNS_FROM} ${table} AS r WHERE r.workspace_id = ? AND r.level = ? AND ${filtered ? BUCKET_MATCH : RUN_MATCH}${where}`;
    const parameters = [plan.runs, workspaceId, QA_LEVELS.indexOf(level), ...values];
    add(
      preparedStatement(db, `SELECT sum(r.evaluated) AS evaluated, sum(r.score_milli) AS score_milli, sum(r.passed) AS passed FROM ${scope('analytics_qa_rollups')} HAVING count(*) > 0`).get(
        ...parameters,
      ) as typeof totals | undefined,
    );
    parameterRows.push(
      ...(preparedStatement(
        db,
        `SELECT r.parameter_name AS name, sum(r.evaluated) AS evaluated, sum(r.score_milli) AS score_milli, max(r.max_score) AS max_score, sum(r.passed) AS passed
         FROM ${scope('analytics_qa_parameter_rollups')} GROUP BY r.parameter_name`,
      ).all(...parameters) as typeof parameterRows),
    );
  }
  if (plan.hasEdges) {
    const { where, values } = filterSql(filter, 'q');
    const scope = (join: string) => `${EDGES_FROM} analytics_qa AS q${join} WHERE q.workspace_id = ? AND ${edgeMatch('q.at')}${where}`;
    const parameters = [plan.edges, workspaceId, ...values];
    add(
      preparedStatement(db, `SELECT count(*) AS evaluated, coalesce(sum(round(q.overall_score * 1000)), 0) AS score_milli, coalesce(sum(q.passed), 0) AS passed FROM ${scope('')}`).get(
        ...parameters,
      ) as typeof totals,
    );
    parameterRows.push(
      ...(preparedStatement(
        db,
        `SELECT p.parameter_name AS name, count(*) AS evaluated, sum(round(p.score * 1000)) AS score_milli, max(p.max_score) AS max_score, sum(p.passed) AS passed
         FROM ${scope(' JOIN analytics_qa_parameters AS p ON p.source_id = q.source_id')} GROUP BY p.parameter_name`,
      ).all(...parameters) as typeof parameterRows),
    );
  }
  const byName = new Map<string, (typeof parameterRows)[number]>();
  for (const row of parameterRows) {
    const into = byName.get(row.name);
    if (!into) {
      byName.set(row.name, { ...row });
      continue;
    }
    into.evaluated += row.evaluated;
    into.score_milli += row.score_milli;
    into.max_score = Math.max(into.max_score, row.max_score);
    into.passed += row.passed;
  }
  return {
    evaluated: totals.evaluated,
    score_sum: totals.score_milli / 1000,
    passed: totals.passed,
    parameters: [...byName.values()]
      .sort((a, b) => compareText(a.name, b.name))
      .map(({ score_milli, ...parameter }) => ({ ...parameter, score_sum: score_milli / 1000 })),
  };
}

export interface QaAgentSums {
  /** '' for results without an agent. */
  agent_id: string;
  evaluated: number;
  score_sum: number;
  passed: number;
}

/**
 * QA results by agent over the same range, rollups and edges as qaSums (the rollup level that keeps the agent and
 * the filters), ordered by agent in SQLite's text order; agents without a result in the range are left out.
 */
export function qaSumsByAgent(db: Database, workspaceId: string, range: AnalyticsRange, filter: QaFilter): QaAgentSums[] {
  const filtered = QA_DIMENSIONS.some((dimension) => filter[dimension] !== undefined);
  const plan = planRange(range, undefined, filtered);
  const rows: Array<{ agent_id: string; evaluated: number; score_milli: number; passed: number }> = [];
  if (plan.hasRuns) {
    const level = levelFor(QA_LEVELS, QA_DIMENSIONS.filter((dimension) => dimension === 'agent_id' || filter[dimension] !== undefined));
    const { where, values } = filterSql(filter, 'r', level);
    rows.push(
      ...(preparedStatement(
        db,
        `SELECT r.agent_id AS agent_id, sum(r.evaluated) AS evaluated, sum(r.score_milli) AS score_milli, sum(r.passed) AS passed
         FROM ${RUNS_FROM} analytics_qa_rollups AS r WHERE r.workspace_id = ? AND r.level = ? AND ${filtered ? BUCKET_MATCH : RUN_MATCH}${where} GROUP BY r.agent_id`,
      ).all(plan.runs, workspaceId, QA_LEVELS.indexOf(level), ...values) as typeof rows),
    );
  }
  if (plan.hasEdges) {
    const { where, values } = filterSql(filter, 'q');
    rows.push(
      ...(preparedStatement(
        db,
        `SELECT q.agent_id AS agent_id, count(*) AS evaluated, sum(round(q.overall_score * 1000)) AS score_milli, sum(q.passed) AS passed
         FROM ${EDGES_FROM} analytics_qa AS q WHERE q.workspace_id = ? AND ${edgeMatch('q.at')}${where} GROUP BY q.agent_id`,
      ).all(plan.edges, workspaceId, ...values) as typeof rows),
    );
  }
  const byAgent = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const into = byAgent.get(row.agent_id);
    if (!into) {
      byAgent.set(row.agent_id, { ...row });
      continue;
    }
    into.evaluated += row.evaluated;
    into.score_milli += row.score_milli;
    into.passed += row.passed;
  }
  return [...byAgent.values()]
    .filter((row) => row.evaluated > 0)
    .sort((a, b) => compareText(a.agent_id, b.agent_id))
    .map(({ score_milli, ...row }) => ({ ...row, score_sum: score_milli / 1000 }));
}

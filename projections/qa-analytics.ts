import type { Database } from 'better-sqlite3';
import { canUseRollups, type AnalyticsRange } from './call-analytics.ts';
import { preparedStatement } from './statement-cache.ts';
import { QA_DIMENSIONS, QA_LEVELS } from './analytics.ts';
import { levelFor } from './rollup-levels.ts';

/**
 * `GET /v1/analytics/qa` over the analytics read model: one call's QA results, or QA aggregated over a range
 * (scored calls by the day they started, standalone jobs by the day they completed), from the per-day rollups for
 * whole days in a rollup zone and from the per-result rows otherwise. Parameters aggregate by name, across
 * scorecards and their versions; `max_score` is the highest the parameter had.
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

function filterSql(filter: QaFilter, prefix = ''): { where: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of ['agent_id', 'scorecard_id'] as const) {
    const value = filter[column];
    if (value === undefined) continue;
    conditions.push(` AND ${prefix}${column} = ?`);
    values.push(value);
  }
  return { where: conditions.join(''), values };
}

export function qaSums(db: Database, workspaceId: string, range: AnalyticsRange, filter: QaFilter): QaSums {
  if (canUseRollups(range)) {
    const filtered = filterSql(filter);
    const level = levelFor(QA_LEVELS, QA_DIMENSIONS.filter((dimension) => filter[dimension] !== undefined));
    const where = `${filtered.where} AND level = ?`;
    const values = [...filtered.values, QA_LEVELS.indexOf(level)];
    const scope = `workspace_id = ? AND timezone = ? AND day BETWEEN ? AND ?${where}`;
    const parameters = [workspaceId, range.timezone, range.fromDay, range.toDay, ...values];
    const totals = preparedStatement(
      db,
      `SELECT coalesce(sum(evaluated), 0) AS evaluated, coalesce(sum(score_sum), 0) AS score_sum, coalesce(sum(passed), 0) AS passed FROM analytics_qa_days WHERE ${scope}`,
    ).get(...parameters) as Omit<QaSums, 'parameters'>;
    const parameterRows = preparedStatement(
      db,
      `SELECT parameter_name AS name, sum(evaluated) AS evaluated, sum(score_sum) AS score_sum, max(max_score) AS max_score, sum(passed) AS passed
       FROM analytics_qa_parameter_days WHERE ${scope} GROUP BY parameter_name ORDER BY parameter_name`,
    ).all(...parameters) as QaSums['parameters'];
    return { ...totals, parameters: parameterRows };
  }
  const { where, values } = filterSql(filter, 'q.');
  const scope = `q.workspace_id = ? AND q.at >= ? AND q.at <= ?${where}`;
  const parameters = [workspaceId, range.fromInstant, range.toInstant, ...values];
  const totals = preparedStatement(
    db,
    `SELECT count(*) AS evaluated, coalesce(sum(overall_score), 0) AS score_sum, coalesce(sum(passed), 0) AS passed FROM analytics_qa q WHERE ${scope}`,
  ).get(...parameters) as Omit<QaSums, 'parameters'>;
  const parameterRows = preparedStatement(
    db,
    `SELECT p.parameter_name AS name, count(*) AS evaluated, sum(p.score) AS score_sum, max(p.max_score) AS max_score, sum(p.passed) AS passed
     FROM analytics_qa q JOIN analytics_qa_parameters p ON p.source_id = q.source_id WHERE ${scope} GROUP BY p.parameter_name ORDER BY p.parameter_name`,
  ).all(...parameters) as QaSums['parameters'];
  return { ...totals, parameters: parameterRows };
}

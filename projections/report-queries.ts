import type { Database } from 'better-sqlite3';
import type { AnalyticsRange, CallAnalyticsFilter } from './call-analytics.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * The few figures reports need that the analytics queries (call-analytics.ts, qa-analytics.ts) do not answer:
 * dispositions and contact attempts (from the `calls` read model, which has them), and QA grouped by agent or
 * campaign with example calls (from the analytics read model's per-result rows). They read per-call and per-result
 * rows by the time index, never the rollup tables, so a change to the rollups' layout does not touch them, and
 * they add no aggregates of their own. Bounds are instants (`range.fromInstant` .. `range.toInstant`, inclusive).
 */

function callFilterSql(filter: CallAnalyticsFilter, prefix = ''): { where: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of ['campaign_id', 'agent_id', 'language'] as const) {
    const value = filter[column];
    if (value === undefined) continue;
    conditions.push(` AND ${prefix}${column} = ?`);
    values.push(value);
  }
  return { where: conditions.join(''), values };
}

export interface DispositionCount {
  /** Null for single calls (POST /v1/calls). */
  campaign_id: string | null;
  disposition: string;
  calls: number;
}

/** Finished calls by campaign and disposition (calls still in progress have none yet). */
export function dispositionCounts(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter): DispositionCount[] {
  const { where, values } = callFilterSql(filter);
  return preparedStatement(
    db,
    `SELECT campaign_id, disposition, count(*) AS calls FROM calls
     WHERE workspace_id = ? AND started_at >= ? AND started_at <= ? AND disposition IS NOT NULL${where}
     GROUP BY campaign_id, disposition ORDER BY campaign_id, disposition`,
  ).all(workspaceId, range.fromInstant, range.toInstant, ...values) as DispositionCount[];
}

export interface ContactReach {
  campaign_id: string;
  /** Contacts with at least one attempt that started in the range. */
  contacts_attempted: number;
  /** Of those, contacts with at least one answered attempt in the range. */
  contacts_reached: number;
  attempts: number;
}

/** Per campaign: contacts attempted and reached, and attempts made, by the attempts that started in the range. */
export function contactReach(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter): ContactReach[] {
  const { where, values } = callFilterSql(filter);
  return preparedStatement(
    db,
    `SELECT campaign_id, count(*) AS contacts_attempted, sum(reached) AS contacts_reached, sum(attempts) AS attempts FROM (
       SELECT campaign_id, contact_index, count(*) AS attempts, max(answered_at IS NOT NULL) AS reached FROM calls
       WHERE workspace_id = ? AND started_at >= ? AND started_at <= ? AND campaign_id IS NOT NULL${where}
       GROUP BY campaign_id, contact_index)
     GROUP BY campaign_id ORDER BY campaign_id`,
  ).all(workspaceId, range.fromInstant, range.toInstant, ...values) as ContactReach[];
}

export interface QaFacts {
  agent_id?: string;
  scorecard_id?: string;
}

export interface QaGroup {
  /** '' for results without an agent or a campaign. */
  group: string;
  evaluated: number;
  score_sum: number;
  passed: number;
}

/**
 * QA results by agent, or by the campaign of the scored call (a standalone job has none), over the same rows and
 * the same time rule as `qaSums` (scored calls by the day they started, standalone jobs by the day they completed).
 */
export function qaGroups(db: Database, workspaceId: string, range: AnalyticsRange, filter: QaFacts, by: 'agent' | 'campaign'): QaGroup[] {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of ['agent_id', 'scorecard_id'] as const) {
    if (filter[column] === undefined) continue;
    conditions.push(` AND q.${column} = ?`);
    values.push(filter[column]);
  }
  const group = by === 'agent' ? 'q.agent_id' : "coalesce(c.campaign_id, '')";
  const join = by === 'agent' ? '' : ' LEFT JOIN analytics_calls c ON c.call_id = q.call_id';
  return preparedStatement(
    db,
    `SELECT ${group} AS grp, count(*) AS evaluated, sum(q.overall_score) AS score_sum, sum(q.passed) AS passed
     FROM analytics_qa q${join} WHERE q.workspace_id = ? AND q.at >= ? AND q.at <= ?${conditions.join('')}
     GROUP BY grp ORDER BY grp`,
  )
    .all(workspaceId, range.fromInstant, range.toInstant, ...values)
    .map((row) => {
      const { grp, evaluated, score_sum, passed } = row as Omit<QaGroup, 'group'> & { grp: string };
      return { group: grp, evaluated, score_sum, passed };
    });
}

export interface ExampleCall {
  call_id: string;
  score: number;
  max_score: number;
}

/** An agent's scored calls with the lowest scores on one parameter (worst first), as coaching examples. */
export function lowestScoringCalls(db: Database, workspaceId: string, range: AnalyticsRange, agentId: string, parameterName: string, scorecardId: string | undefined, limit: number): ExampleCall[] {
  return preparedStatement(
    db,
    `SELECT q.call_id AS call_id, p.score AS score, p.max_score AS max_score FROM analytics_qa q JOIN analytics_qa_parameters p ON p.source_id = q.source_id
     WHERE q.workspace_id = ? AND q.at >= ? AND q.at <= ? AND q.agent_id = ? AND p.parameter_name = ? AND q.call_id IS NOT NULL
       AND (? IS NULL OR q.scorecard_id = ?)
     ORDER BY p.score * 1.0 / p.max_score, q.at DESC LIMIT ?`,
  ).all(workspaceId, range.fromInstant, range.toInstant, agentId, parameterName, scorecardId ?? null, scorecardId ?? null, limit) as ExampleCall[];
}

import type { Database } from 'better-sqlite3';
import { callDispositions, type AnalyticsRange, type CallAnalyticsFilter } from './call-analytics.ts';
import { qaSumsByAgent } from './qa-analytics.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * The figures reports need beyond the analytics endpoints' (call-analytics.ts, qa-analytics.ts): dispositions and
 * QA by agent from the analytics rollups (as the endpoints read theirs), and what no rollup can keep read from
 * per-call and per-result rows through covering indexes: distinct contacts attempted and reached (the `calls` read
 * model's calls_contacts_by_started), QA by campaign (analytics_qa_by_campaign: a result keeps its call's campaign),
 * and an agent's lowest-scoring calls on a parameter (the first
 * entries of analytics_qa_parameters_lowest). Bounds are instants (`range.fromInstant` .. `range.toInstant`,
 * inclusive). tests/projections/report-queries.test.ts checks each against the per-call query it replaced.
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

/** Finished calls by campaign and disposition (calls still in progress have none yet), single calls first. */
export function dispositionCounts(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter): DispositionCount[] {
  return callDispositions(db, workspaceId, range, filter).map((row) => ({ campaign_id: row.campaign_id === '' ? null : row.campaign_id, disposition: row.disposition, calls: row.calls }));
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
 * QA results by agent (the QA rollups), or by the campaign of the scored call (a standalone job has none; per-result
 * rows, which keep the call's campaign), over the same rows and the same time rule as `qaSums` (scored calls by the day they started, standalone
 * jobs by the day they completed). Scores are summed in thousandths of a point, as qaSums does.
 */
export function qaGroups(db: Database, workspaceId: string, range: AnalyticsRange, filter: QaFacts, by: 'agent' | 'campaign'): QaGroup[] {
  if (by === 'agent') return qaSumsByAgent(db, workspaceId, range, filter).map(({ agent_id, evaluated, score_sum, passed }) => ({ group: agent_id, evaluated, score_sum, passed }));
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of ['agent_id', 'scorecard_id'] as const) {
    if (filter[column] === undefined) continue;
    conditions.push(` AND q.${column} = ?`);
    values.push(filter[column]);
  }
  return preparedStatement(
    db,
    `SELECT q.campaign_id AS grp, count(*) AS evaluated, sum(round(q.overall_score * 1000)) AS score_milli, sum(q.passed) AS passed
     FROM analytics_qa q INDEXED BY analytics_qa_by_campaign WHERE q.workspace_id = ? AND q.at >= ? AND q.at <= ?${conditions.join('')}
     GROUP BY grp ORDER BY grp`,
  )
    .all(workspaceId, range.fromInstant, range.toInstant, ...values)
    .map((row) => {
      const { grp, evaluated, score_milli, passed } = row as Omit<QaGroup, 'group' | 'score_sum'> & { grp: string; score_milli: number };
      return { group: grp, evaluated, score_sum: score_milli / 1000, passed };
    });
}

export interface ExampleCall {
  call_id: string;
  score: number;
  max_score: number;
}

/**
 * An agent's scored calls with the lowest scores on one parameter (worst first; then the latest, then by source id),
 * as coaching examples: the index analytics_qa_parameters_lowest is in that order, so the query reads its entries
 * from the worst until `limit` of them are in the range (and of the scorecard), not every result of the range.
 */
export function lowestScoringCalls(db: Database, workspaceId: string, range: AnalyticsRange, agentId: string, parameterName: string, scorecardId: string | undefined, limit: number): ExampleCall[] {
  return preparedStatement(
    db,
    `SELECT p.call_id AS call_id, p.score AS score, p.max_score AS max_score FROM analytics_qa_parameters p INDEXED BY analytics_qa_parameters_lowest
     WHERE p.workspace_id = ? AND p.agent_id = ? AND p.parameter_name = ? AND p.call_id IS NOT NULL AND p.at >= ? AND p.at <= ?
       AND (? IS NULL OR p.scorecard_id = ?)
     ORDER BY p.score * 1.0 / p.max_score, p.at DESC, p.source_id LIMIT ?`,
  ).all(workspaceId, agentId, parameterName, range.fromInstant, range.toInstant, scorecardId ?? null, scorecardId ?? null, limit) as ExampleCall[];
}

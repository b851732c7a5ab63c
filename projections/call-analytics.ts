import type { Database } from 'better-sqlite3';
import { CALL_DIMENSIONS, CALL_LEVELS } from './analytics.ts';
import { BUCKET_MATCH, compareText, EDGE_PIECE, edgeMatch, EDGES_FROM, planRange, RUN_MATCH, RUN_PIECE, RUNS_FROM, type AnalyticsRange } from './analytics-range-plan.ts';
import { ALL, levelFor } from './rollup-levels.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * `GET /v1/analytics/calls` over the analytics read model (projections/analytics.ts), in any time zone and for any
 * bounds: the range (cut at each local day or week when grouped so) is read as whole UTC buckets of the rollups,
 * a few rows per period, plus edges under 15 minutes from the per-call facts through their (workspace, start)
 * index (projections/analytics-range-plan.ts). No query reads more calls than start in 30 minutes.
 */
export type { AnalyticsRange } from './analytics-range-plan.ts';
export type CallAnalyticsGroupBy = 'day' | 'week' | 'agent' | 'campaign' | 'language';

export interface CallAnalyticsFilter {
  campaign_id?: string;
  agent_id?: string;
  language?: string;
}

export interface CallTotals {
  total_calls: number;
  connected_calls: number;
  duration_sum: number;
  positive: number;
  neutral: number;
  negative: number;
  qa_sum: number;
  qa_count: number;
}

export interface CallAnalyticsSums {
  totals: CallTotals;
  intents: Record<string, number>;
  /** With group_by: each group's totals (day and week: every period of the range, in order, zeros included). */
  groups: Array<{ group: string; totals: CallTotals }> | null;
}

/** Sums in the order of CallTotals, QA in thousandths of a point (qa_milli; qa_sum is derived from it). */
const ROLLUP_SUMS = `sum(r.total_calls) AS total_calls, sum(r.connected_calls) AS connected_calls, sum(r.duration_sum) AS duration_sum,
  sum(r.positive) AS positive, sum(r.neutral) AS neutral, sum(r.negative) AS negative, sum(r.qa_milli) AS qa_milli, sum(r.qa_count) AS qa_count`;

const FACT_SUMS = `count(*) AS total_calls, coalesce(sum(c.connected), 0) AS connected_calls,
  coalesce(sum(CASE WHEN c.connected = 1 THEN c.duration_seconds ELSE 0 END), 0) AS duration_sum,
  count(CASE WHEN c.sentiment = 'positive' THEN 1 END) AS positive, count(CASE WHEN c.sentiment = 'neutral' THEN 1 END) AS neutral,
  count(CASE WHEN c.sentiment = 'negative' THEN 1 END) AS negative, coalesce(sum(round(c.qa_score * 1000)), 0) AS qa_milli, count(c.qa_score) AS qa_count`;

const DIMENSION_COLUMN = { agent: 'agent_id', campaign: 'campaign_id', language: 'language' } as const;

type SumRow = Omit<CallTotals, 'qa_sum'> & { grp: string | number; qa_milli: number };

function emptyTotals(): Omit<CallTotals, 'qa_sum'> & { qa_milli: number } {
  return { total_calls: 0, connected_calls: 0, duration_sum: 0, positive: 0, neutral: 0, negative: 0, qa_milli: 0, qa_count: 0 };
}

/** The per-call facts' filter. */
function filterSql(filter: CallAnalyticsFilter): { where: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of CALL_DIMENSIONS) {
    const value = filter[column];
    if (value === undefined) continue;
    conditions.push(` AND c.${column} = ?`);
    values.push(value);
  }
  return { where: conditions.join(''), values };
}

/**
 * The least detailed rollup level that keeps every dimension filtered or grouped by, and the rollup rows' filter:
 * the value of each filtered dimension and ALL for each the level does not keep, so that with one bucket per run
 * entry the whole key is an index seek.
 */
function levelOf(filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): { level: number; where: string; values: string[] } {
  const grouped = groupBy === undefined || groupBy === 'day' || groupBy === 'week' ? undefined : DIMENSION_COLUMN[groupBy];
  const needed = CALL_DIMENSIONS.filter((dimension) => filter[dimension] !== undefined || grouped === dimension);
  const level = levelFor(CALL_LEVELS, needed);
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of CALL_DIMENSIONS) {
    const value = level.includes(column) ? filter[column] : ALL;
    if (value === undefined) continue;
    conditions.push(` AND r.${column} = ?`);
    values.push(value);
  }
  return { level: CALL_LEVELS.indexOf(level), where: conditions.join(''), values };
}

export function callAnalytics(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): CallAnalyticsSums {
  const byPeriod = groupBy === 'day' || groupBy === 'week';
  const filtered = CALL_DIMENSIONS.some((dimension) => filter[dimension] !== undefined);
  const plan = planRange(range, byPeriod ? groupBy : undefined, filtered);
  const { level, ...rollupFilter } = levelOf(filter, groupBy);
  const factFilter = filterSql(filter);
  const dimension = groupBy !== undefined && !byPeriod ? DIMENSION_COLUMN[groupBy] : undefined;
  const rollupGroup = dimension ? `r.${dimension}` : RUN_PIECE;
  const factGroup = dimension ? `c.${dimension}` : EDGE_PIECE;
  const rollupScope = (table: string) => `${RUNS_FROM} ${table} AS r WHERE r.workspace_id = ? AND r.level = ? AND ${filtered ? BUCKET_MATCH : RUN_MATCH}${rollupFilter.where}`;
  const rollupParameters = [plan.runs, workspaceId, level, ...rollupFilter.values];
  const factScope = `${EDGES_FROM} analytics_calls AS c WHERE c.workspace_id = ? AND ${edgeMatch('c.started_at')}${factFilter.where}`;
  const factParameters = [plan.edges, workspaceId, ...factFilter.values];

  const rows: SumRow[] = [];
  const intentRows: Array<{ intent: string; calls: number }> = [];
  if (plan.hasRuns) {
    rows.push(...(preparedStatement(db, `SELECT ${rollupGroup} AS grp, ${ROLLUP_SUMS} FROM ${rollupScope('analytics_call_rollups')} GROUP BY grp`).all(...rollupParameters) as SumRow[]));
    intentRows.push(
      ...(preparedStatement(db, `SELECT r.intent AS intent, sum(r.calls) AS calls FROM ${rollupScope('analytics_intent_rollups')} GROUP BY r.intent`).all(...rollupParameters) as typeof intentRows),
    );
  }
  if (plan.hasEdges) {
    rows.push(...(preparedStatement(db, `SELECT ${factGroup} AS grp, ${FACT_SUMS} FROM ${factScope} GROUP BY grp`).all(...factParameters) as SumRow[]));
    intentRows.push(
      ...(preparedStatement(db, `SELECT c.intent AS intent, count(*) AS calls FROM ${factScope} AND c.intent IS NOT NULL GROUP BY c.intent`).all(...factParameters) as typeof intentRows),
    );
  }

  const byGroup = new Map<string | number, ReturnType<typeof emptyTotals>>();
  if (byPeriod) plan.pieces.forEach((_, index) => byGroup.set(index, emptyTotals()));
  const totals = emptyTotals();
  for (const { grp, ...sums } of rows) {
    let into = byGroup.get(grp);
    if (!into) byGroup.set(grp, (into = emptyTotals()));
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) {
      into[key] += sums[key];
      totals[key] += sums[key];
    }
  }
  let groups: CallAnalyticsSums['groups'] = null;
  if (byPeriod) {
    groups = plan.pieces.map((period, index) => ({ group: period, totals: withQaSum(byGroup.get(index)!) }));
  } else if (dimension) {
    groups = [...byGroup]
      .map(([group, sums]) => ({ group: String(group), totals: withQaSum(sums) }))
      .sort((a, b) => compareText(a.group, b.group));
  }
  return { totals: withQaSum(totals), intents: intentsOf(intentRows), groups };
}

function withQaSum({ qa_milli, ...sums }: ReturnType<typeof emptyTotals>): CallTotals {
  return { ...sums, qa_sum: qa_milli / 1000 };
}

function intentsOf(rows: Array<{ intent: string; calls: number }>): Record<string, number> {
  const intents = new Map<string, number>();
  for (const row of rows) intents.set(row.intent, (intents.get(row.intent) ?? 0) + row.calls);
  const result: Record<string, number> = {};
  for (const [intent, calls] of [...intents].sort(([a], [b]) => compareText(a, b))) if (calls > 0) result[intent] = calls;
  return result;
}

export interface DispositionSums {
  /** '' for single calls (POST /v1/calls), as the rollups key them. */
  campaign_id: string;
  disposition: string;
  calls: number;
}

/**
 * Ended calls by campaign and disposition (calls in progress have none yet), over the same range, rollups, edges
 * and filters as callAnalytics: the disposition rollups at the level that keeps the campaign (and the filters).
 * Ordered by campaign, then disposition, in SQLite's text order.
 */
export function callDispositions(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter): DispositionSums[] {
  const filtered = CALL_DIMENSIONS.some((dimension) => filter[dimension] !== undefined);
  const plan = planRange(range, undefined, filtered);
  const { level, ...rollupFilter } = levelOf(filter, 'campaign');
  const factFilter = filterSql(filter);
  const rows: DispositionSums[] = [];
  if (plan.hasRuns) {
    rows.push(
      ...(preparedStatement(
        db,
        `SELECT r.campaign_id AS campaign_id, r.disposition AS disposition, sum(r.calls) AS calls
         FROM ${RUNS_FROM} analytics_disposition_rollups AS r WHERE r.workspace_id = ? AND r.level = ? AND ${filtered ? BUCKET_MATCH : RUN_MATCH}${rollupFilter.where}
         GROUP BY r.campaign_id, r.disposition`,
      ).all(plan.runs, workspaceId, level, ...rollupFilter.values) as DispositionSums[]),
    );
  }
  if (plan.hasEdges) {
    rows.push(
      ...(preparedStatement(
        db,
        `SELECT c.campaign_id AS campaign_id, c.disposition AS disposition, count(*) AS calls
         FROM ${EDGES_FROM} analytics_calls AS c WHERE c.workspace_id = ? AND ${edgeMatch('c.started_at')}${factFilter.where} AND c.disposition IS NOT NULL
         GROUP BY c.campaign_id, c.disposition`,
      ).all(plan.edges, workspaceId, ...factFilter.values) as DispositionSums[]),
    );
  }
  const sums = new Map<string, DispositionSums>();
  for (const row of rows) {
    const key = `${row.campaign_id}\u0000${row.disposition}`;
    const into = sums.get(key);
    if (into) into.calls += row.calls;
    else sums.set(key, { ...row });
  }
  return [...sums.values()].filter((row) => row.calls > 0).sort((a, b) => compareText(a.campaign_id, b.campaign_id) || compareText(a.disposition, b.disposition));
}

import type { Database } from 'better-sqlite3';
import { addDays, isoWeekStart, startOfLocalDate } from '../domain/shared/time-zone.ts';
import { ANALYTICS_ROLLUP_ZONES, CALL_DIMENSIONS, CALL_LEVELS } from './analytics.ts';
import { levelFor } from './rollup-levels.ts';
import { preparedStatement } from './statement-cache.ts';

/**
 * `GET /v1/analytics/calls` over the analytics read model (projections/analytics.ts). Two ways to the same sums:
 * - whole local days in a rollup zone (UTC, Asia/Kolkata): the per-day rollups, ~days × groups rows;
 * - anything else (a datetime bound, another zone): the per-call facts, by instant range through an index, one
 *   query per period when grouped by day or week.
 */
export type CallAnalyticsGroupBy = 'day' | 'week' | 'agent' | 'campaign' | 'language';

/** The calls a query covers: from the first instant to the last (inclusive), with the local days they span. */
export interface AnalyticsRange {
  fromInstant: string;
  toInstant: string;
  /** The local dates of the two bounds, and whether the bounds are exactly those whole days. */
  fromDay: string;
  toDay: string;
  wholeDays: boolean;
  timezone: string;
}

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

const SUMS = `coalesce(sum(total_calls), 0) AS total_calls, coalesce(sum(connected_calls), 0) AS connected_calls,
  coalesce(sum(duration_sum), 0) AS duration_sum, coalesce(sum(positive), 0) AS positive, coalesce(sum(neutral), 0) AS neutral,
  coalesce(sum(negative), 0) AS negative, coalesce(sum(qa_sum), 0) AS qa_sum, coalesce(sum(qa_count), 0) AS qa_count`;

const FACT_SUMS = `count(*) AS total_calls, coalesce(sum(connected), 0) AS connected_calls,
  coalesce(sum(CASE WHEN connected = 1 THEN duration_seconds ELSE 0 END), 0) AS duration_sum,
  count(CASE WHEN sentiment = 'positive' THEN 1 END) AS positive, count(CASE WHEN sentiment = 'neutral' THEN 1 END) AS neutral,
  count(CASE WHEN sentiment = 'negative' THEN 1 END) AS negative, coalesce(sum(qa_score), 0) AS qa_sum, count(qa_score) AS qa_count`;

const DIMENSION_COLUMN = { agent: 'agent_id', campaign: 'campaign_id', language: 'language' } as const;

function emptyTotals(): CallTotals {
  return { total_calls: 0, connected_calls: 0, duration_sum: 0, positive: 0, neutral: 0, negative: 0, qa_sum: 0, qa_count: 0 };
}

function addTotals(into: CallTotals, from: CallTotals): void {
  for (const key of Object.keys(into) as Array<keyof CallTotals>) into[key] += from[key];
}

/** The start date of each day or week of the range, in order (a week: the Monday on or before). */
export function periodsOf(range: Pick<AnalyticsRange, 'fromDay' | 'toDay'>, unit: 'day' | 'week'): string[] {
  const periods: string[] = [];
  const first = unit === 'day' ? range.fromDay : isoWeekStart(range.fromDay);
  for (let day = first; day <= range.toDay; day = addDays(day, unit === 'day' ? 1 : 7)) periods.push(day);
  return periods;
}

function filterSql(filter: CallAnalyticsFilter): { where: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  for (const column of CALL_DIMENSIONS) {
    const value = filter[column];
    if (value === undefined) continue;
    conditions.push(`${column} = ?`);
    values.push(value);
  }
  return { where: conditions.map((condition) => ` AND ${condition}`).join(''), values };
}

/** The rollup rows of the least detailed level that keeps every dimension filtered or grouped by. */
function levelSql(filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): { where: string; values: Array<string | number> } {
  const needed = CALL_DIMENSIONS.filter((dimension) => filter[dimension] !== undefined || (groupBy !== undefined && groupBy !== 'day' && groupBy !== 'week' && DIMENSION_COLUMN[groupBy] === dimension));
  const level = levelFor(CALL_LEVELS, needed);
  const filtered = filterSql(filter);
  return { where: `${filtered.where} AND level = ?`, values: [...filtered.values, CALL_LEVELS.indexOf(level)] };
}

export function canUseRollups(range: AnalyticsRange): boolean {
  return range.wholeDays && (ANALYTICS_ROLLUP_ZONES as readonly string[]).includes(range.timezone);
}

export function callAnalytics(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): CallAnalyticsSums {
  return canUseRollups(range) ? fromRollups(db, workspaceId, range, filter, groupBy) : fromFacts(db, workspaceId, range, filter, groupBy);
}

function fromRollups(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): CallAnalyticsSums {
  const { where, values } = levelSql(filter, groupBy);
  const scope = `workspace_id = ? AND timezone = ? AND day BETWEEN ? AND ?${where}`;
  const parameters = [workspaceId, range.timezone, range.fromDay, range.toDay, ...values];
  const totals = preparedStatement(db, `SELECT ${SUMS} FROM analytics_call_days WHERE ${scope}`).get(...parameters) as CallTotals;
  const intentRows = preparedStatement(db, `SELECT intent, sum(calls) AS calls FROM analytics_intent_days WHERE ${scope} GROUP BY intent`).all(...parameters) as Array<{ intent: string; calls: number }>;
  let groups: CallAnalyticsSums['groups'] = null;
  if (groupBy === 'day' || groupBy === 'week') {
    const rows = preparedStatement(db, `SELECT day AS grp, ${SUMS} FROM analytics_call_days WHERE ${scope} GROUP BY day`).all(...parameters) as Array<CallTotals & { grp: string }>;
    groups = periodGroups(range, groupBy, rows.map((row) => ({ day: row.grp, totals: row })));
  } else if (groupBy !== undefined) {
    const column = DIMENSION_COLUMN[groupBy];
    const rows = preparedStatement(db, `SELECT ${column} AS grp, ${SUMS} FROM analytics_call_days WHERE ${scope} GROUP BY ${column} ORDER BY ${column}`).all(...parameters) as Array<CallTotals & { grp: string }>;
    groups = rows.map(({ grp, ...sums }) => ({ group: grp, totals: sums }));
  }
  return { totals, intents: intentsOf(intentRows), groups };
}

function fromFacts(db: Database, workspaceId: string, range: AnalyticsRange, filter: CallAnalyticsFilter, groupBy: CallAnalyticsGroupBy | undefined): CallAnalyticsSums {
  const { where, values } = filterSql(filter);
  const scope = `workspace_id = ? AND started_at >= ? AND started_at <= ?${where}`;
  const parameters = [workspaceId, range.fromInstant, range.toInstant, ...values];
  const totals = preparedStatement(db, `SELECT ${FACT_SUMS} FROM analytics_calls WHERE ${scope}`).get(...parameters) as CallTotals;
  const intentRows = preparedStatement(db, `SELECT intent, count(*) AS calls FROM analytics_calls WHERE ${scope} AND intent IS NOT NULL GROUP BY intent`)
    .all(...parameters) as Array<{ intent: string; calls: number }>;
  let groups: CallAnalyticsSums['groups'] = null;
  if (groupBy === 'day' || groupBy === 'week') {
    // One indexed range query per period, bounded by the range's local midnights (DST-correct in any zone).
    const periodQuery = preparedStatement(db, `SELECT ${FACT_SUMS} FROM analytics_calls WHERE ${scope}`);
    const periods = periodsOf(range, groupBy);
    groups = periods.map((period, index) => {
      const next = index + 1 < periods.length ? periods[index + 1]! : addDays(period, groupBy === 'day' ? 1 : 7);
      const start = maxIso(startOfLocalDate(period, range.timezone).toISOString(), range.fromInstant);
      const end = minIso(new Date(startOfLocalDate(next, range.timezone).getTime() - 1).toISOString(), range.toInstant);
      const sums = start <= end ? (periodQuery.get(workspaceId, start, end, ...values) as CallTotals) : emptyTotals();
      return { group: period, totals: sums };
    });
  } else if (groupBy !== undefined) {
    const column = DIMENSION_COLUMN[groupBy];
    const rows = preparedStatement(db, `SELECT ${column} AS grp, ${FACT_SUMS} FROM analytics_calls WHERE ${scope} GROUP BY ${column} ORDER BY ${column}`).all(...parameters) as Array<CallTotals & { grp: string }>;
    groups = rows.map(({ grp, ...sums }) => ({ group: grp, totals: sums }));
  }
  return { totals, intents: intentsOf(intentRows), groups };
}

/** Days' sums folded into every period of the range, zeros where no call started. */
function periodGroups(range: AnalyticsRange, unit: 'day' | 'week', days: Array<{ day: string; totals: CallTotals }>): Array<{ group: string; totals: CallTotals }> {
  const byPeriod = new Map(periodsOf(range, unit).map((period) => [period, emptyTotals()]));
  for (const { day, totals } of days) {
    const period = unit === 'day' ? day : isoWeekStart(day);
    const into = byPeriod.get(period);
    if (into) addTotals(into, totals);
  }
  return [...byPeriod].map(([group, totals]) => ({ group, totals }));
}

function intentsOf(rows: Array<{ intent: string; calls: number }>): Record<string, number> {
  const intents: Record<string, number> = {};
  for (const row of rows) if (row.calls > 0) intents[row.intent] = row.calls;
  return intents;
}

function maxIso(a: string, b: string): string {
  return a > b ? a : b;
}

function minIso(a: string, b: string): string {
  return a < b ? a : b;
}

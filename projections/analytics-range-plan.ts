import { addDays, isoWeekStart, startOfLocalDate } from '../domain/shared/time-zone.ts';
import { coverRange } from './time-buckets.ts';

/**
 * How an analytics query reads its range: the range cut into pieces (each day or week of a `group_by=day|week`,
 * else the whole range), each piece covered by runs of whole UTC buckets of the rollups and edges under 15 minutes
 * read from the per-call facts (projections/time-buckets.ts). The runs and edges go to SQLite as JSON arrays, one
 * statement reading them all (`json_each`), so the statement text does not depend on the range.
 */

/** The calls a query covers: from the first instant to the last (inclusive), with the local days they span. */
export interface AnalyticsRange {
  fromInstant: string;
  toInstant: string;
  /** The local dates of the two bounds in `timezone`. */
  fromDay: string;
  toDay: string;
  timezone: string;
}

export interface RangePlan {
  /** Piece labels, in order: each period's first date, or one '' for the whole range. */
  pieces: string[];
  /** JSON `[[piece, grain, fromBucket, toBucket], ...]` for RUN_MATCH, or `[[piece, grain, bucket], ...]` for BUCKET_MATCH. */
  runs: string;
  /** JSON `[[piece, fromIso, toIso], ...]` (half-open): for edgeMatch. */
  edges: string;
  hasRuns: boolean;
  hasEdges: boolean;
}

/** Joins the rollup table aliased `r` to the runs bound as JSON (the runs drive: one index range per run). */
export const RUNS_FROM = 'json_each(?) AS run CROSS JOIN';
export const RUN_MATCH = 'r.grain = run.value ->> 1 AND r.bucket >= run.value ->> 2 AND r.bucket < run.value ->> 3';
/**
 * One bucket per JSON entry: with the dimensions of the row's key that follow the bucket given too (a filter), the
 * index seeks the one row of each bucket instead of reading every campaign or agent of it.
 */
export const BUCKET_MATCH = 'r.grain = run.value ->> 1 AND r.bucket = run.value ->> 2';
export const RUN_PIECE = 'run.value ->> 0';
export const EDGES_FROM = 'json_each(?) AS edge CROSS JOIN';
export const EDGE_PIECE = 'edge.value ->> 0';
/** The facts whose `column` (ISO 8601 text, as toISOString writes it) falls in an edge. */
export function edgeMatch(column: string): string {
  return `${column} >= edge.value ->> 1 AND ${column} < edge.value ->> 2`;
}

/** The start date of each day or week of the range, in order (a week: the Monday on or before). */
export function periodsOf(range: Pick<AnalyticsRange, 'fromDay' | 'toDay'>, unit: 'day' | 'week'): string[] {
  const periods: string[] = [];
  const first = unit === 'day' ? range.fromDay : isoWeekStart(range.fromDay);
  for (let day = first; day <= range.toDay; day = addDays(day, unit === 'day' ? 1 : 7)) periods.push(day);
  return periods;
}

/**
 * The plan of a range, cut at the local start of each period (in the range's zone) when grouped by day or week;
 * with `eachBucket`, runs listed bucket by bucket (BUCKET_MATCH), else as ranges (RUN_MATCH).
 */
export function planRange(range: AnalyticsRange, unit: 'day' | 'week' | undefined, eachBucket = false): RangePlan {
  const fromMs = Date.parse(range.fromInstant);
  const toMs = Date.parse(range.toInstant) + 1;
  const pieces: Array<{ label: string; fromMs: number; toMs: number }> = [];
  if (unit === undefined) {
    pieces.push({ label: '', fromMs, toMs });
  } else {
    const periods = periodsOf(range, unit);
    const starts = [...periods, addDays(periods[periods.length - 1]!, unit === 'day' ? 1 : 7)].map((day) => localMidnightMs(day, range.timezone));
    periods.forEach((period, index) => pieces.push({ label: period, fromMs: Math.max(starts[index]!, fromMs), toMs: Math.min(starts[index + 1]!, toMs) }));
  }
  const runs: number[][] = [];
  const edges: Array<[number, string, string]> = [];
  pieces.forEach((piece, index) => {
    const cover = coverRange(piece.fromMs, piece.toMs);
    for (const run of cover.runs) {
      if (!eachBucket) runs.push([index, run.grain, run.from, run.to]);
      else for (let bucket = run.from; bucket < run.to; bucket += run.grain) runs.push([index, run.grain, bucket]);
    }
    for (const edge of cover.edges) edges.push([index, new Date(edge.fromMs).toISOString(), new Date(edge.toMs).toISOString()]);
  });
  return { pieces: pieces.map((piece) => piece.label), runs: JSON.stringify(runs), edges: JSON.stringify(edges), hasRuns: runs.length > 0, hasEdges: edges.length > 0 };
}

/**
 * When a local date begins, remembered: each costs two ICU look-ups (more than the rest of a plan), a year by day
 * needs 367 of them, and dashboards ask for the same periods again. Bounded: forgotten all at once when full.
 */
const midnights = new Map<string, number>();
const MIDNIGHTS_KEPT = 20_000;

function localMidnightMs(day: string, timezone: string): number {
  if (timezone === 'UTC') return Date.parse(`${day}T00:00:00Z`);
  const key = `${timezone} ${day}`;
  let start = midnights.get(key);
  if (start === undefined) {
    if (midnights.size >= MIDNIGHTS_KEPT) midnights.clear();
    start = startOfLocalDate(day, timezone).getTime();
    midnights.set(key, start);
  }
  return start;
}

/** SQLite's order of TEXT (BINARY: the bytes of UTF-8), for merging groups from two queries as one ORDER BY would. */
export function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

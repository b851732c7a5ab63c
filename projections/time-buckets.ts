/**
 * UTC time buckets of the analytics rollups (docs/analysis.md, "Analytics read model"): every call counts in one
 * 15-minute, one hour and one UTC-day bucket. Every UTC offset a zone has used since 1980 is a multiple of 15
 * minutes (`npx tsx scripts/check-zone-offsets.ts` checks every zone ICU knows), so a local midnight in any zone,
 * and so every local day and ISO week, begins on a 15-minute edge: a range decomposes into whole buckets, the
 * coarsest that fit (UTC days in the middle, hours and quarters at the ends), and reads a few rows per period
 * instead of every call.
 *
 * Buckets are named by their first minute since the Unix epoch (UTC), so a day bucket starts at UTC midnight.
 * What is not on a 15-minute edge (a date-time bound such as 10:07, or a local midnight of a zone whose offset was
 * not a multiple of 15 minutes: Africa/Monrovia before 1972, Pacific/Kiritimati before 1979) is an edge of under
 * 15 minutes, left to the per-call facts.
 */
export const GRAINS = [15, 60, 1440] as const;
export type Grain = (typeof GRAINS)[number];

const MINUTE_MS = 60_000;
export const FINEST_MS = GRAINS[0] * MINUTE_MS;

/** A run of consecutive buckets of one grain: bucket names from `from` (inclusive) to `to` (exclusive), minutes. */
export interface BucketRun {
  grain: Grain;
  from: number;
  to: number;
}

/** A part of a range under 15 minutes, in milliseconds since the epoch (half-open). */
export interface Edge {
  fromMs: number;
  toMs: number;
}

/** The bucket a call started in at each grain (the minute each starts). */
export function bucketsOf(instantMs: number): Array<{ grain: Grain; bucket: number }> {
  const minute = Math.floor(instantMs / MINUTE_MS);
  return GRAINS.map((grain) => ({ grain, bucket: minute - mod(minute, grain) }));
}

/**
 * The half-open range [fromMs, toMs) as whole buckets (each the coarsest that fits between the range's ends) and
 * at most two edges under 15 minutes at its ends. At most (60/15 - 1) quarters and (24 - 1) hours on each side.
 */
export function coverRange(fromMs: number, toMs: number): { runs: BucketRun[]; edges: Edge[] } {
  if (fromMs >= toMs) return { runs: [], edges: [] };
  const alignedFrom = Math.ceil(fromMs / FINEST_MS) * FINEST_MS;
  const alignedTo = Math.floor(toMs / FINEST_MS) * FINEST_MS;
  if (alignedFrom >= alignedTo) return { runs: [], edges: [{ fromMs, toMs }] };
  const edges: Edge[] = [];
  if (fromMs < alignedFrom) edges.push({ fromMs, toMs: alignedFrom });
  if (alignedTo < toMs) edges.push({ fromMs: alignedTo, toMs });
  return { runs: alignedRuns(alignedFrom / MINUTE_MS, alignedTo / MINUTE_MS), edges };
}

/** [from, to) in minutes, both on 15-minute edges: finer runs at each end, each grain up to the next's edge. */
function alignedRuns(from: number, to: number): BucketRun[] {
  const left: BucketRun[] = [];
  const right: BucketRun[] = [];
  let lo = from;
  let hi = to;
  for (let index = 0; index < GRAINS.length - 1; index += 1) {
    const grain = GRAINS[index]!;
    const coarser = GRAINS[index + 1]!;
    const coarseFrom = lo + mod(-lo, coarser);
    const coarseTo = hi - mod(hi, coarser);
    if (coarseFrom >= coarseTo) {
      // No whole bucket of the coarser grain fits: this grain covers what is left.
      return [...left, { grain, from: lo, to: hi }, ...right.reverse()];
    }
    if (lo < coarseFrom) left.push({ grain, from: lo, to: coarseFrom });
    if (coarseTo < hi) right.push({ grain, from: coarseTo, to: hi });
    lo = coarseFrom;
    hi = coarseTo;
  }
  return [...left, { grain: GRAINS[GRAINS.length - 1]!, from: lo, to: hi }, ...right.reverse()];
}

function mod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}

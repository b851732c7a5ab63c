/**
 * Fixed one-minute windows per workspace: window n covers [n·60 s, (n+1)·60 s) of wall-clock time. Rate limits
 * protect the server in real time, so they use the wall clock even when the service runs on a manual clock.
 * A fixed window may let through up to twice the limit across a window boundary; that is the documented price of
 * O(1) memory and one integer per workspace.
 */
export const WINDOW_MS = 60_000;

export interface WindowCounter {
  windowStartMs: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends (epoch milliseconds). */
  resetAtMs: number;
  counter: WindowCounter;
}

export function windowStart(nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
}

/** Counts one request against `limit` per window. Refused requests count too (a client hammering gets nothing). */
export function consume(counter: WindowCounter | undefined, nowMs: number, limit: number): RateDecision {
  const start = windowStart(nowMs);
  const current = counter && counter.windowStartMs === start ? counter : { windowStartMs: start, count: 0 };
  const next = { windowStartMs: start, count: current.count + 1 };
  return {
    allowed: next.count <= limit,
    limit,
    remaining: Math.max(0, limit - next.count),
    resetAtMs: start + WINDOW_MS,
    counter: next,
  };
}

/** `X-RateLimit-Reset` is in Unix seconds; `Retry-After` in whole seconds from now (at least 1). */
export function resetSeconds(decision: RateDecision): number {
  return Math.ceil(decision.resetAtMs / 1000);
}

export function retryAfterSeconds(decision: RateDecision, nowMs: number): number {
  return Math.max(1, Math.ceil((decision.resetAtMs - nowMs) / 1000));
}

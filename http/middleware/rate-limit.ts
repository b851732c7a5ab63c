import type { Database } from 'better-sqlite3';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../domain/workspace.ts';
import { ReadModelCache } from '../../projections/read-model-version.ts';
import { findWorkspace } from '../../projections/workspaces.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { setResponseHeader } from '../response-headers.ts';
import { consume, resetSeconds, retryAfterSeconds, type RateDecision, type WindowCounter } from '../rate-limit-window.ts';

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(resetSeconds(decision)),
  };
}

/**
 * Per-workspace request limit (the operator sets it with `cli workspaces set-rate-limit`; default 1,000 a
 * minute), counted in this process. The configured limit is kept in memory while the read models are unchanged
 * (ReadModelCache), so a change applies from the next request on without a query per request. Every
 * authenticated response carries the X-RateLimit-* headers; past the limit the request is refused with 429
 * before it does any work.
 */
export class WorkspaceRateLimiter {
  private readonly limits = new ReadModelCache<string, number>();
  private readonly counters = new Map<string, WindowCounter>();

  constructor(private readonly db: Database) {}

  /** Counts the request against its workspace and sets the X-RateLimit-* headers; 429 past the limit. */
  admit(c: AppContext, workspaceId: string, generation: number): void {
    const nowMs = Date.now();
    const limit = this.limits.get(
      generation,
      workspaceId,
      (id) => findWorkspace(this.db, id)?.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
    );
    const decision = consume(this.counters.get(workspaceId), nowMs, limit);
    this.counters.set(workspaceId, decision.counter);
    const headers = rateHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limit_exceeded',
        `More than ${decision.limit} requests this minute for this workspace.`,
        { limit: decision.limit, reset_at: new Date(decision.resetAtMs).toISOString() },
        { ...headers, 'Retry-After': String(retryAfterSeconds(decision, nowMs)) },
      );
    }
    for (const name in headers) setResponseHeader(c, name, headers[name]!);
  }
}

import type { Database } from 'better-sqlite3';
import { createMiddleware } from 'hono/factory';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../domain/workspace.ts';
import { findWorkspace } from '../../projections/workspaces.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { setResponseHeader } from '../response-headers.ts';
import { consume, resetSeconds, retryAfterSeconds, type RateDecision, type WindowCounter } from '../rate-limit-window.ts';

/** How long a workspace's configured limit is trusted before it is read again from the `workspaces` read model. */
export const LIMIT_REFRESH_MS = 2_000;

function rateHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(resetSeconds(decision)),
  };
}

/**
 * Per-workspace request limit (the operator sets it with `cli workspaces set-rate-limit`; default 1,000 a
 * minute), counted in this process. The limit is re-read at most every LIMIT_REFRESH_MS per workspace, so a change
 * applies within seconds without a query per request. Every authenticated response carries the X-RateLimit-*
 * headers; past the limit the request is refused with 429 before it does any work.
 */
export function rateLimit(db: Database, refreshMs = LIMIT_REFRESH_MS) {
  const limits = new Map<string, { limit: number; readAtMs: number }>();
  const counters = new Map<string, WindowCounter>();

  const limitOf = (workspaceId: string, nowMs: number): number => {
    const cached = limits.get(workspaceId);
    if (cached && nowMs - cached.readAtMs < refreshMs) return cached.limit;
    const limit = findWorkspace(db, workspaceId)?.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
    limits.set(workspaceId, { limit, readAtMs: nowMs });
    return limit;
  };

  return createMiddleware<AppEnv>(async (c, next) => {
    // Public routes (health, metrics, the reference) have no workspace to count against.
    const principal = c.get('principal');
    if (!principal) return next();
    const { workspaceId } = principal;
    const nowMs = Date.now();
    const decision = consume(counters.get(workspaceId), nowMs, limitOf(workspaceId, nowMs));
    counters.set(workspaceId, decision.counter);
    const headers = rateHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limit_exceeded',
        `More than ${decision.limit} requests this minute for this workspace.`,
        { limit: decision.limit, reset_at: new Date(decision.resetAtMs).toISOString() },
        { ...headers, 'Retry-After': String(retryAfterSeconds(decision, nowMs)) },
      );
    }
    for (const [name, value] of Object.entries(headers)) setResponseHeader(c, name, value);
    await next();
  });
}

import { createMiddleware } from 'hono/factory';
import type { ReadModelVersion } from '../../projections/read-model-version.ts';
import type { AppEnv } from '../context.ts';
import type { Authenticator } from './auth.ts';
import type { Idempotency } from './idempotency.ts';
import { expectsJsonBody, parseJsonBody, parseJsonBytes, readJsonBody } from './json-body.ts';
import { LargeBodyTurns } from './large-body-turns.ts';
import type { WorkspaceRateLimiter } from './rate-limit.ts';
import type { RouteResolver } from './resolve-route.ts';
import { requireScope } from './scope.ts';
import { refuseKeysInUrl } from './url-key-guard.ts';
import { internalPrincipalOf } from '../internal-caller.ts';

export interface GateParts {
  routes: RouteResolver;
  readModels: ReadModelVersion;
  authenticator: Authenticator;
  rateLimiter: WorkspaceRateLimiter;
  idempotency: Idempotency;
  /** Requests with large bodies, one at a time, workspaces in turn. */
  largeBodies: LargeBodyTurns;
}

/**
 * Every check a request passes before its route, in order, as one middleware:
 *
 *   key-in-URL refusal (401) → route resolution (404 / 405) → bearer auth (401) → workspace rate limit (429,
 *   X-RateLimit-*) → scope (403) → a large body's turn (large-body-turns.ts) → JSON body (400 / 413)
 *   → Idempotency-Key (POST)
 *
 * One middleware, not one each: every Hono middleware layer costs the request a closure, a promise and a trip
 * through Hono's dispatcher, and the steps are synchronous except for reading a body (measured: docs/api.md,
 * Performance). Whatever a step throws leaves through the app's error handler, as from any middleware.
 */
export function requestGate({ routes, readModels, authenticator, rateLimiter, idempotency, largeBodies }: GateParts) {
  // Not an async function: a request without a body (most) passes straight on to `next()`, without a promise of
  // its own and the microtask that resolving it costs.
  return createMiddleware<AppEnv>((c, next) => {
    refuseKeysInUrl(c.req.url);
    const route = routes.resolve(c);
    c.set('route', route);
    // One look at the read models' version serves every cached lookup of this request (key, limit, route's own).
    const generation = readModels.forRequest();
    c.set('readModelGeneration', generation);
    if (!route.public) {
      // The dashboard's in-process requests carry the session's principal (checked against the api_keys read model
      // on every page request); everything else authenticates with its bearer key.
      const principal = internalPrincipalOf(c.req.raw) ?? authenticator.authenticate(c.req.header('authorization'), generation);
      c.set('principal', principal);
      rateLimiter.admit(c, principal.workspaceId, generation);
      requireScope(route, principal);
    }
    if (!expectsJsonBody(c.req.raw)) return next();
    if (!LargeBodyTurns.mayBeLarge(c.req.raw)) return parseJsonBody(c).then(() => idempotency.around(c, next));
    return largeBodies.run(
      c.get('principal')?.workspaceId ?? '',
      c.req.raw.signal,
      () => readJsonBody(c),
      (bytes) => parseJsonBytes(c, bytes).then(() => idempotency.around(c, next)),
    );
  });
}

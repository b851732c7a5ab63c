import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { ApiKeyScope } from '../domain/api-key.ts';

/** Who is calling: the API key the request authenticated with. */
export interface Principal {
  keyId: string;
  workspaceId: string;
  scope: ApiKeyScope;
}

/** The route a request resolved to: its pattern (`/v1/scripts/:id`) labels logs and metrics. */
export interface ResolvedRoute {
  pattern: string;
  /** Needs no API key (operations endpoints, the OpenAPI document and its page). */
  public: boolean;
  /** The least scope the route needs, from its definition (see define-route.ts). */
  requiredScope: ApiKeyScope;
}

/** Hono's environment for every route and middleware of the app. */
export interface AppEnv {
  /** Node's request and response objects on @hono/node-server; absent under `app.request` (tests). */
  Bindings: Partial<HttpBindings> | undefined;
  Variables: {
    requestId: string;
    /** Null when nothing matches (the request ends in 404 or 405). */
    route: ResolvedRoute | null;
    principal: Principal | undefined;
    /**
     * The read models' version when the request passed the gate (ReadModelVersion.current()): a cache of read-model
     * rows (ReadModelCache) keyed by it answers what a query would answer at that moment.
     */
    readModelGeneration: number;
    /** The parsed JSON body of a POST/PUT/PATCH (and DELETE with a body). */
    jsonBody: unknown;
    /** The body was over LARGE_BODY_BYTES: its parsing and validation give other requests turns in between. */
    largeBody: boolean | undefined;
    /** The request's Idempotency-Key (POST) and when its first run began, once the idempotency step accepted it. */
    idempotencyKey: { key: string; begunAtMs: number } | undefined;
    /**
     * What a replay of this response should answer instead of the response itself: set by a route whose response
     * holds a secret shown once (a new API key), which is never stored.
     */
    idempotentReplayBody: string | undefined;
  };
}

export type AppContext = Context<AppEnv>;

/** The caller of an authenticated route. Routes behind the auth middleware always have one. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get('principal');
  if (!principal) throw new Error('principalOf used on a route without authentication');
  return principal;
}

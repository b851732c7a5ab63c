import type { OpenAPIHono } from '@hono/zod-openapi';
import { matchedRoutes } from 'hono/route';
import type { RouterRoute } from 'hono/types';
import { TrieRouter } from 'hono/router/trie-router';
import type { ApiKeyScope } from '../../domain/api-key.ts';
import type { AppContext, AppEnv, ResolvedRoute } from '../context.ts';
import { ApiError } from '../errors.ts';

export const SCOPE_RANK: Record<ApiKeyScope, number> = { 'Read-Only': 0, 'Read-Write': 1, Admin: 2 };

/** The least scope a method needs anywhere: Read-Only keys may only read. */
export function methodScope(method: string): ApiKeyScope {
  return method === 'GET' || method === 'HEAD' ? 'Read-Only' : 'Read-Write';
}

/** `/v1/scripts/{id}` (OpenAPI) → `/v1/scripts/:id` (Hono). */
const honoPath = (path: string) => path.replaceAll(/\{([^}]+)\}/g, ':$1');

/** `GET /v1/scripts/:id` → what the route needs. */
type RouteTable = Map<string, ResolvedRoute>;

/**
 * Every (method, pattern) the app serves, from Hono's own route list, with what the OpenAPI definitions say about
 * each (public or not, `x-required-scope`).
 */
export function buildRouteTable(app: OpenAPIHono<AppEnv>): RouteTable {
  const declared = new Map<string, { public: boolean; scope?: ApiKeyScope }>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const route = definition.route as typeof definition.route & { 'x-required-scope'?: ApiKeyScope };
    declared.set(`${route.method.toUpperCase()} ${honoPath(route.path)}`, {
      public: Array.isArray(route.security) && route.security.length === 0,
      scope: route['x-required-scope'],
    });
  }
  const table: RouteTable = new Map();
  for (const route of app.routes) {
    // Middleware is registered as method ALL; HEAD is served by GET routes.
    const key = `${route.method} ${route.path}`;
    if (route.method === 'ALL' || table.has(key)) continue;
    const declaration = declared.get(key);
    const floor = methodScope(route.method);
    const scope = declaration?.scope && SCOPE_RANK[declaration.scope] > SCOPE_RANK[floor] ? declaration.scope : floor;
    table.set(key, { pattern: route.path, public: declaration?.public ?? false, requiredScope: scope });
  }
  return table;
}

/** Finds the methods served on a path (HEAD wherever GET), for 405's `Allow`. */
function methodRouter(table: RouteTable): TrieRouter<string> {
  const router = new TrieRouter<string>();
  for (const [key, route] of table) router.add('ALL', route.pattern, key.slice(0, key.indexOf(' ')));
  return router;
}

/**
 * Resolves the request to its route before anything else runs, so that logs and metrics are labelled by route
 * pattern even for refused requests, and so that an unknown path (404 `not_found`) or a wrong method (405
 * `method_not_allowed` with `Allow`) is answered the same way with or without credentials: the OpenAPI document
 * already tells everyone which routes exist.
 *
 * Hono has already matched the request when the middleware runs: the route that will answer is the first matched
 * one that is not middleware, so resolving is a map lookup, not a second routing. The table is built on the first
 * request, when every route is registered.
 */
export class RouteResolver {
  private routes: { table: RouteTable; methods: TrieRouter<string> } | null = null;
  private readonly byEndpoint = new Map<RouterRoute, ResolvedRoute>();

  constructor(private readonly app: OpenAPIHono<AppEnv>) {}

  resolve(c: AppContext): ResolvedRoute {
    if (!this.routes) {
      const table = buildRouteTable(this.app);
      this.routes = { table, methods: methodRouter(table) };
    }
    const endpoint = matchedRoutes(c).find((route) => route.method !== 'ALL');
    if (endpoint) {
      // Hono's route objects are the app's own, one per registration: the first look-up by name is remembered.
      let route = this.byEndpoint.get(endpoint);
      if (route === undefined) {
        route = this.routes.table.get(`${endpoint.method} ${endpoint.path}`);
        if (route) this.byEndpoint.set(endpoint, route);
      }
      if (route) return route;
    }
    const allowed = new Set<string>();
    for (const [method] of this.routes.methods.match('ALL', c.req.path)[0]) {
      allowed.add(method);
      if (method === 'GET') allowed.add('HEAD');
    }
    if (allowed.size === 0) {
      throw new ApiError('not_found', `No endpoint ${c.req.path}; see /v1/openapi.json.`, { path: c.req.path });
    }
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}.`, { method: c.req.method, allowed: [...allowed] }, {
      Allow: [...allowed].join(', '),
    });
  }
}

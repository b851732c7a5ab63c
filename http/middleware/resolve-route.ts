import type { OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { TrieRouter } from 'hono/router/trie-router';
import type { ApiKeyScope } from '../../domain/api-key.ts';
import type { AppEnv, ResolvedRoute } from '../context.ts';
import { ApiError } from '../errors.ts';

export const SCOPE_RANK: Record<ApiKeyScope, number> = { 'Read-Only': 0, 'Read-Write': 1, Admin: 2 };

/** The least scope a method needs anywhere: Read-Only keys may only read. */
export function methodScope(method: string): ApiKeyScope {
  return method === 'GET' || method === 'HEAD' ? 'Read-Only' : 'Read-Write';
}

interface PathEntry {
  pattern: string;
  methods: Map<string, ResolvedRoute>;
}

/** `/v1/scripts/{id}` (OpenAPI) → `/v1/scripts/:id` (Hono). */
const honoPath = (path: string) => path.replaceAll(/\{([^}]+)\}/g, ':$1');

/**
 * Every (method, pattern) the app serves, from Hono's own route list, with what the OpenAPI definitions say about
 * each (public or not, `x-required-scope`). Built once, on the first request, when every route is registered.
 */
export function buildRouteTable(app: OpenAPIHono<AppEnv>): TrieRouter<PathEntry> {
  const declared = new Map<string, { public: boolean; scope?: ApiKeyScope }>();
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const route = definition.route as typeof definition.route & { 'x-required-scope'?: ApiKeyScope };
    declared.set(`${route.method.toUpperCase()} ${honoPath(route.path)}`, {
      public: Array.isArray(route.security) && route.security.length === 0,
      scope: route['x-required-scope'],
    });
  }
  const entries = new Map<string, PathEntry>();
  for (const route of app.routes) {
    // Middleware is registered as method ALL; HEAD is served by GET routes.
    if (route.method === 'ALL') continue;
    const entry = entries.get(route.path) ?? { pattern: route.path, methods: new Map() };
    entries.set(route.path, entry);
    if (entry.methods.has(route.method)) continue;
    const declaration = declared.get(`${route.method} ${route.path}`);
    const floor = methodScope(route.method);
    const scope = declaration?.scope && SCOPE_RANK[declaration.scope] > SCOPE_RANK[floor] ? declaration.scope : floor;
    entry.methods.set(route.method, { pattern: route.path, public: declaration?.public ?? false, requiredScope: scope });
  }
  const router = new TrieRouter<PathEntry>();
  for (const entry of entries.values()) router.add('ALL', entry.pattern, entry);
  return router;
}

export function allowedMethods(entries: readonly PathEntry[]): string[] {
  const methods = new Set<string>();
  for (const entry of entries) {
    for (const method of entry.methods.keys()) {
      methods.add(method);
      if (method === 'GET') methods.add('HEAD');
    }
  }
  return [...methods];
}

/**
 * Resolves the request to its route before anything else runs, so that logs and metrics are labelled by route
 * pattern even for refused requests, and so that an unknown path (404 `not_found`) or a wrong method (405
 * `method_not_allowed` with `Allow`) is answered the same way with or without credentials: the OpenAPI document
 * already tells everyone which routes exist.
 */
export function resolveRoute(app: OpenAPIHono<AppEnv>) {
  let router: TrieRouter<PathEntry> | null = null;
  return createMiddleware<AppEnv>(async (c, next) => {
    router ??= buildRouteTable(app);
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const matches = router.match('ALL', c.req.path)[0].map(([entry]) => entry);
    const route = matches.map((entry) => entry.methods.get(method)).find((candidate) => candidate !== undefined);
    if (route) {
      c.set('route', route);
      return next();
    }
    c.set('route', null);
    if (matches.length === 0) {
      throw new ApiError('not_found', `No endpoint ${c.req.path}; see /v1/openapi.json.`, { path: c.req.path });
    }
    const allowed = allowedMethods(matches);
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}.`, { method: c.req.method, allowed }, { Allow: allowed.join(', ') });
  });
}

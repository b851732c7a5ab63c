import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import type { ApiKeyScope } from '../domain/api-key.ts';
import type { AppEnv } from './context.ts';
import { invalidParameter, validationError } from './errors.ts';
import { withValidatedInputs } from './input-validator.ts';
import { methodScope } from './middleware/resolve-route.ts';
import { ErrorSchema } from './schemas/common.ts';

export const BEARER_SCHEME = 'bearerAuth';

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ErrorSchema } } };
}

const AUTHENTICATED_ERRORS = {
  400: errorResponse('invalid_parameter: a parameter or body field is missing, malformed or out of range.'),
  401: errorResponse('unauthorized: Authorization header missing, token malformed, key unknown or revoked, or a key in the URL.'),
  403: errorResponse('forbidden: the key\'s scope does not allow this.'),
  404: errorResponse('resource_not_found: no such id in this workspace.'),
  429: errorResponse('rate_limit_exceeded: too many requests this minute for the workspace.'),
  500: errorResponse('internal_error: unexpected; details.request_id identifies the log entry.'),
};

const BODY_ERRORS = {
  409: errorResponse('invalid_state, idempotency_key_reused or idempotency_in_progress.'),
  413: errorResponse('payload_too_large: the body is over 10 MB.'),
};

/**
 * The validation hook of every router: a failed zod check becomes 400 `invalid_parameter` with `field` (a path
 * such as `steps[1].listen.routes[2].next`), `provided` and `expected`.
 */
export function validationHook(result: { target: string; success: boolean; error?: ZodError; data?: unknown }, c: Context<AppEnv>): void {
  if (result.success) return;
  // A route that declares a body, reached without one (e.g. a DELETE without a body).
  if (result.target === 'json' && c.get('jsonBody') === undefined) {
    throw invalidParameter('body', null, 'a JSON object with Content-Type: application/json', 'This request needs a JSON body.');
  }
  throw validationError(result.target, result.error!, result.data);
}

/**
 * A router for one resource (mounted with `app.route('/v1', ...)`); validation failures use our envelope.
 * `router.openapi(route, handler)` registers the route in the OpenAPI document as usual; a route whose only inputs
 * are its query string and path is validated by withValidatedInputs (one synchronous step), any other by
 * @hono/zod-openapi's own validators.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const openapi = router.openapi;
  router.openapi = ((route: RouteConfig & { hide?: boolean }, handler: Handler<AppEnv>, hook?: unknown) => {
    const { hide, middleware, ...definition } = route;
    const request = definition.request;
    if (hook || middleware || request?.body || request?.headers || request?.cookies) return openapi(route as never, handler as never, hook as never);
    if (!hide) router.openAPIRegistry.registerPath(definition);
    const path = definition.path.replaceAll(/\{([^}]+)\}/g, ':$1');
    const query = request?.query as ZodType | undefined;
    const params = request?.params as ZodType | undefined;
    router.on([definition.method], [path], query || params ? withValidatedInputs(query, params, validationHook, handler) : handler);
    return router;
  }) as typeof router.openapi;
  return router;
}

export interface RouteOptions {
  /** A scope above the method's own (GET: Read-Only, others: Read-Write), e.g. `Admin` for API keys. */
  scope?: ApiKeyScope;
  /** Served without an API key (operations endpoints, the API reference). */
  public?: boolean;
}

/**
 * `createRoute` plus what every route of this API shares: the bearer security requirement (or none when public),
 * the scope it needs as `x-required-scope` (the scope middleware reads it from here), and the error responses.
 */
export function defineRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P }>(route: R, options: RouteOptions = {}): R {
  const method = route.method.toUpperCase();
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH' || route.request?.body !== undefined;
  const errors = options.public ? { 500: AUTHENTICATED_ERRORS[500] } : { ...AUTHENTICATED_ERRORS, ...(hasBody ? BODY_ERRORS : {}) };
  const scope = options.scope ?? methodScope(method);
  return createRoute({
    ...route,
    ...(options.public ? { security: [] } : { security: [{ [BEARER_SCHEME]: [] }], 'x-required-scope': scope }),
    responses: { ...errors, ...route.responses },
  }) as unknown as R;
}

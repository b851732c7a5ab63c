import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ZodError, ZodType } from 'zod';
import type { ApiKeyScope } from '../domain/api-key.ts';
import type { AppEnv } from './context.ts';
import { invalidParameter, validationError } from './errors.ts';
import { withValidatedInputs } from './input-validator.ts';
import { methodScope } from './middleware/resolve-route.ts';
import { errorResponse, standardErrors } from './contract/error-responses.ts';
import { idempotencyKeyRef, sharedHeadersOf, type Access } from './contract/headers.ts';

export const BEARER_SCHEME = 'bearerAuth';

/**
 * The validation hook of every router: a failed zod check becomes 400 `invalid_parameter` with `field` (a path
 * such as `steps[1].listen.routes[2].next`), `provided` and `expected`. The hook is awaited by the body validator
 * only; query and path validation (withValidatedInputs) never reach the turn it may give.
 */
export function validationHook(result: { target: string; success: boolean; error?: ZodError; data?: unknown }, c: Context<AppEnv>): void | Promise<void> {
  // Validating a large body took milliseconds: let waiting requests have a turn before the route's own work.
  if (result.success) return result.target === 'json' && c.get('largeBody') ? nextTurn() : undefined;
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
  /** The 409s the route's own rules answer (beyond the Idempotency-Key's on a POST), e.g. `invalid_state: ...`. */
  conflicts?: string;
  /** A 404 for an id the body names (a path parameter's 404 is declared anyway), e.g. `resource_not_found: ...`. */
  references?: string;
}

type Responses = RouteConfig['responses'];

/** Every response with the shared headers its status gets (contract/headers.ts), the route's own kept. */
function withSharedHeaders(responses: Responses, access: Access, method: string): Responses {
  const result: Responses = {};
  for (const [status, response] of Object.entries(responses)) {
    if ('$ref' in response) {
      result[status] = response;
      continue;
    }
    const own = response.headers && !('shape' in response.headers) ? response.headers : {};
    result[status] = { ...response, headers: { ...sharedHeadersOf(Number(status), access, method), ...own } };
  }
  return result;
}

/**
 * `createRoute` plus what every route of this API shares: a stable `operationId` (required: generated clients
 * name their functions after it), the bearer security requirement (or none when public), the scope it needs as
 * `x-required-scope` (the scope middleware reads it from here), the `Idempotency-Key` parameter on every
 * authenticated POST, the error responses the middleware chain can answer, and the shared response headers.
 */
export function defineRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P; operationId: string }>(route: R, options: RouteOptions = {}): R {
  const method = route.method.toUpperCase();
  const access: Access = options.public ? 'public' : 'authenticated';
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH' || route.request?.body !== undefined;
  const errors: Responses = standardErrors(access, {
    method,
    hasBody,
    hasPathParameters: route.request?.params !== undefined,
    hasQuery: route.request?.query !== undefined,
  });
  if (options.conflicts) {
    const idempotency = method === 'POST' && errors[409] && !('$ref' in errors[409]) ? `${errors[409].description} ` : '';
    errors[409] = errorResponse(`${idempotency}${options.conflicts}`);
  }
  if (options.references) errors[404] = errorResponse(options.references);
  const scope = options.scope ?? methodScope(method);
  const idempotent = access === 'authenticated' && method === 'POST';
  return createRoute({
    ...route,
    ...(idempotent ? { parameters: [...(route.parameters ?? []), idempotencyKeyRef()] } : {}),
    ...(options.public ? { security: [] } : { security: [{ [BEARER_SCHEME]: [] }], 'x-required-scope': scope }),
    responses: withSharedHeaders({ ...errors, ...route.responses }, access, method),
  }) as unknown as R;
}

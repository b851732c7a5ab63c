import { ERROR_STATUS, type ErrorCode } from '../errors.ts';
import { ErrorSchema } from '../schemas/common.ts';
import type { Access } from './headers.ts';

/** An error response in the one envelope (`{"error": {"code", "message", "details"}}`). */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ErrorSchema } } };
}

/** The codes the service answers with `status` (errors.ts owns the mapping). */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);
}

/** What an operation takes, which decides the errors the middleware chain can answer it with. */
export interface OperationInputs {
  method: string;
  hasPathParameters: boolean;
  hasQuery: boolean;
  hasBody: boolean;
}

/**
 * The errors every operation can get from the middleware chain (middleware/gate.ts), before and around its
 * handler. A route adds its own (a 404 for an id in the body, a 409 for a state it refuses) in its definition.
 * Not listed because no operation answers them: 404 `not_found` and 405 (a path or method that is no operation),
 * 415 (a body without `Content-Type: application/json` is 400 `invalid_parameter` on `body`) and 422 (every
 * validation failure is 400).
 */
export function standardErrors(access: Access, { method, hasPathParameters, hasQuery, hasBody }: OperationInputs) {
  // A credential in the URL is refused before anything else, public endpoints included (middleware/url-key-guard.ts).
  const keyInUrl = errorResponse('unauthorized: a credential in the URL (query string or path) is refused, whatever else the request carries.');
  const unexpected = errorResponse('internal_error: unexpected; `details.request_id` (also in `X-Request-Id`) identifies the log entry.');
  if (access === 'public') return { 401: keyInUrl, 500: unexpected };

  const post = method === 'POST';
  return {
    ...(hasPathParameters || hasQuery || hasBody || post
      ? { 400: errorResponse('invalid_parameter: a parameter, header or body field is missing, malformed or out of range (`details.field`, `provided`, `expected`).') }
      : {}),
    401: errorResponse('unauthorized: `Authorization` header missing, token malformed, key unknown or revoked, or a credential in the URL.'),
    403: errorResponse('forbidden: the key\'s scope does not allow this (`details.required_scope`, `current_scope`).'),
    ...(hasPathParameters ? { 404: errorResponse('resource_not_found: no such id in this workspace (`details.resource_type`, `id`).') } : {}),
    // A route whose own rules refuse a state adds them (RouteOptions.conflicts); on a POST they join these.
    ...(post ? { 409: errorResponse('idempotency_key_reused: the `Idempotency-Key` was used for a different request; idempotency_in_progress: the first request with it is still running.') } : {}),
    ...(hasBody ? { 413: errorResponse('payload_too_large: the body is over 10 MB (`details.limit_bytes`).') } : {}),
    429: errorResponse('rate_limit_exceeded: over the workspace\'s requests per minute (`details.limit`, `reset_at`); see `Retry-After`.'),
    500: unexpected,
    503: errorResponse('service_unavailable: the API key tables are being rebuilt after an upgrade; retry after `Retry-After` seconds.'),
  };
}

import type { OpenAPIHono } from '@hono/zod-openapi';
import { IDEMPOTENCY_KEY_EXPECTED, IDEMPOTENCY_KEY_PATTERN } from '../middleware/idempotency.ts';
import { MAX_CLIENT_REQUEST_ID_LENGTH } from '../middleware/request-context.ts';

/**
 * The headers every operation shares, declared once under `components` and referenced from each response (and, for
 * `Idempotency-Key`, each request) so that generated clients see one definition. Who sets them: request-context.ts
 * (`X-Request-Id`), middleware/rate-limit.ts (`X-RateLimit-*`, `Retry-After` on 429), middleware/auth.ts
 * (`Retry-After` on 503), middleware/idempotency.ts (`Idempotency-Key`, `Idempotent-Replayed`).
 */
export const RESPONSE_HEADERS = {
  requestId: 'X-Request-Id',
  rateLimitLimit: 'X-RateLimit-Limit',
  rateLimitRemaining: 'X-RateLimit-Remaining',
  rateLimitReset: 'X-RateLimit-Reset',
  retryAfter: 'Retry-After',
  idempotentReplayed: 'Idempotent-Replayed',
} as const;

export type ResponseHeaderName = (typeof RESPONSE_HEADERS)[keyof typeof RESPONSE_HEADERS];

export const IDEMPOTENCY_KEY_PARAMETER = 'Idempotency-Key';

const integer = { type: 'integer', minimum: 0 } as const;

const HEADER_COMPONENTS: Record<ResponseHeaderName, { description: string; schema: Record<string, unknown> }> = {
  'X-Request-Id': {
    description:
      `Identifies the request in the server's log. The client's own \`X-Request-Id\` when it sent one of 1 to ${MAX_CLIENT_REQUEST_ID_LENGTH} ` +
      'characters from `A-Z a-z 0-9 . _ : -`, otherwise a new UUID. Quote it when reporting a problem.',
    schema: { type: 'string', example: '3f1c2a9e-5b7d-4e0f-9a61-2c8d4b7e1f30' },
  },
  'X-RateLimit-Limit': { description: 'Requests the workspace may make in the current one-minute window.', schema: { ...integer, example: 1000 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { ...integer, example: 997 } },
  'X-RateLimit-Reset': { description: 'When the current window ends, in Unix seconds.', schema: { ...integer, example: 1772359260 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { ...integer, example: 17 } },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this is the stored response of an earlier request with the same `Idempotency-Key`: nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** `{ $ref }` to a shared response header. */
export function headerRef(name: ResponseHeaderName): { $ref: string } {
  return { $ref: `#/components/headers/${name}` };
}

/** `{ $ref }` to the shared `Idempotency-Key` request parameter. */
export function idempotencyKeyRef(): { $ref: string } {
  return { $ref: `#/components/parameters/${IDEMPOTENCY_KEY_PARAMETER}` };
}

export function registerSharedHeaders(registry: OpenAPIHono['openAPIRegistry']): void {
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) registry.registerComponent('headers', name, header);
  registry.registerComponent('parameters', IDEMPOTENCY_KEY_PARAMETER, {
    name: IDEMPOTENCY_KEY_PARAMETER,
    in: 'header',
    required: false,
    description:
      'Makes the POST safe to retry: a retry with the same key, method, path and body within 24 hours gets the first ' +
      'response again (with `Idempotent-Replayed: true`) and creates nothing; the same key with a different request ' +
      `is 409 \`idempotency_key_reused\`. Keys are per workspace; ${IDEMPOTENCY_KEY_EXPECTED}.`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source, example: '5f0c6a34-8f0e-4f51-a1b8-0f1f9e7f6d21' },
  });
}

/** Who a response goes to: any caller (public endpoints) or a caller with an API key of a workspace. */
export type Access = 'public' | 'authenticated';

const RATE_LIMIT = [RESPONSE_HEADERS.rateLimitLimit, RESPONSE_HEADERS.rateLimitRemaining, RESPONSE_HEADERS.rateLimitReset] as const;
// Statuses answered before the Idempotency-Key is looked at (middleware/gate.ts order), or never stored (5xx).
const NEVER_REPLAYED = new Set([401, 403, 413, 429, 500, 503]);

/**
 * The shared headers of one response, from where it is decided in the middleware chain (middleware/gate.ts):
 * every response has `X-Request-Id`; an authenticated one has the rate-limit headers once the key is known (not on
 * 401, nor on 503 while the key tables are rebuilt); 429 and 503 say `Retry-After`; a POST's stored response may be
 * a replay.
 */
export function sharedHeadersOf(status: number, access: Access, method: string): Partial<Record<ResponseHeaderName, { $ref: string }>> {
  const names: ResponseHeaderName[] = [RESPONSE_HEADERS.requestId];
  if (access === 'authenticated' && status !== 401 && status !== 503) names.push(...RATE_LIMIT);
  if (access === 'authenticated' && (status === 429 || status === 503)) names.push(RESPONSE_HEADERS.retryAfter);
  if (access === 'authenticated' && method === 'POST' && !NEVER_REPLAYED.has(status)) names.push(RESPONSE_HEADERS.idempotentReplayed);
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

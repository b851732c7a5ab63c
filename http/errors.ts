import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
import { DomainError } from '../domain/shared/errors.ts';
import type { Logger } from '../infra/logger.ts';
import type { AppEnv } from './context.ts';

/**
 * Every error leaves the API as `{"error": {"code", "message", "details"}}`. This file owns the codes, their
 * statuses, and the one error handler (`app.onError`) that formats whatever was thrown: our ApiError, a domain
 * refusal (DomainError), Hono's HTTPException, or anything unexpected (500 `internal_error`, logged with the
 * request id; the client sees only the id, never the message or stack).
 */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  unauthorized: 401,
  forbidden: 403,
  resource_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  invalid_state: 409,
  already_exists: 409,
  number_suppressed: 409,
  compliance_blocked: 409,
  limit_exceeded: 409,
  idempotency_key_reused: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  headers_too_large: 431,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  search_budget_exceeded: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every `error.code` the service answers with: the OpenAPI document declares them as an enum. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

/**
 * The client went away before its request was done (its connection closed while its body was read or while the
 * request waited for a turn). Nobody reads the answer: it is counted and logged as 499 (nginx's "client closed
 * request"), a client-side status, rather than as a 500 of ours.
 */
export class ClientClosedRequest extends Error {
  constructor() {
    super('The client closed the connection before the request was done.');
    this.name = 'ClientClosedRequest';
  }
}
export const CLIENT_CLOSED_REQUEST_STATUS = 499;

export function errorBody(code: string, message: string, details: ErrorDetails = {}): { error: { code: string; message: string; details: ErrorDetails } } {
  return { error: { code, message, details } };
}

export function invalidParameter(field: string, provided: unknown, expected: string, message?: string): ApiError {
  return new ApiError('invalid_parameter', message ?? `Invalid ${field}: expected ${expected}.`, { field, provided: safeProvided(field, provided), expected });
}

export function resourceNotFound(resourceType: string, id: string, extra: ErrorDetails = {}): ApiError {
  return new ApiError('resource_not_found', `No ${resourceType} with id ${id}.`, { resource_type: resourceType, id, ...extra });
}

export function unauthorized(): ApiError {
  return new ApiError('unauthorized', 'A valid API key is required: header Authorization: Bearer <key>.');
}

// ------------------------------------------------------------------------------------------- validation details

/** `['contacts', 3, 'phone']` → `contacts[3].phone`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let field = '';
  for (const segment of path) {
    if (typeof segment === 'number') field += `[${segment}]`;
    else field += field === '' ? String(segment) : `.${String(segment)}`;
  }
  return field;
}

const SECRET_FIELD = /(secret|password|token|api_?key|authorization|^key$)/i;
const MAX_PROVIDED_CHARACTERS = 256;

/** The offending value as the client sent it, minus secrets, cut short when large. */
export function safeProvided(field: string, value: unknown): unknown {
  const last = field.split(/[.[\]]/).filter(Boolean).pop() ?? '';
  if (SECRET_FIELD.test(last) && value !== undefined && value !== null) return '[redacted]';
  if (value === undefined) return null;
  if (typeof value === 'string') return value.length > MAX_PROVIDED_CHARACTERS ? `${value.slice(0, MAX_PROVIDED_CHARACTERS)}…` : value;
  if (typeof value === 'object' && value !== null) {
    const text = JSON.stringify(value);
    if (text.length > MAX_PROVIDED_CHARACTERS) return Array.isArray(value) ? `[an array of ${value.length} items]` : '[an object]';
  }
  return value;
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

type Issue = ZodError['issues'][number];

// Zod's own messages start like this; any other message was written by a schema author for the client.
const DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized key|Expected|Required)/;

function describeExpected(issue: Issue): string {
  if (!DEFAULT_MESSAGE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'object' ? 'an object' : issue.expected === 'array' ? 'an array' : `a ${issue.expected}`;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const word = issue.code === 'too_small' ? 'at least' : 'at most';
      const plural = Number(bound) === 1 ? '' : 's';
      if (issue.origin === 'string') return `a string of ${word} ${String(bound)} character${plural}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${word} ${String(bound)} item${plural}`;
      const comparison = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      return `a number ${comparison} ${String(bound)}`;
    }
    case 'invalid_value':
      return `one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `a string matching ${String(issue.pattern)}` : `a valid ${issue.format}`;
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'only the documented fields';
    case 'invalid_union':
      return 'one of the documented shapes';
    default:
      return issue.message;
  }
}

/** The first problem of a failed validation, in the spec's shape: `field`, `provided`, `expected`. */
export function validationError(target: string, error: ZodError, input: unknown): ApiError {
  const issue = error.issues[0];
  if (!issue) return invalidParameter(target === 'json' ? 'body' : target, input, 'a valid value');
  let path: PropertyKey[] = [...issue.path];
  // An unknown key is reported at the key itself, e.g. `steps[0].sya`.
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path = [...path, issue.keys[0]];
  const field = path.length === 0 ? (target === 'json' ? 'body' : target) : fieldPath(path);
  // A refinement over a whole value (a total, a count) reports what it measured; the value itself would say less.
  const measured = issue.code === 'custom' && issue.params !== undefined && 'provided' in issue.params;
  const provided = measured ? issue.params!.provided : valueAt(input, path);
  const expected = describeExpected(issue);
  const message =
    issue.code === 'unrecognized_keys'
      ? `Unknown field ${field}.`
      : provided === undefined
        ? `Missing ${field}: expected ${expected}.`
        : `Invalid ${field}: expected ${expected}.`;
  return invalidParameter(field, provided, expected, message);
}

// -------------------------------------------------------------------------------------------------- formatting

function fromHttpException(error: HTTPException): ApiError {
  switch (error.status) {
    case 413:
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 415:
    case 400:
      return invalidParameter('body', null, 'a JSON object with Content-Type: application/json', error.message || undefined);
    case 401:
      return unauthorized();
    case 404:
      return new ApiError('not_found', 'No such endpoint.');
    default:
      return new ApiError('internal_error', 'Unexpected error.');
  }
}

function fromDomainError(error: DomainError): { status: ContentfulStatusCode; code: string } {
  const known = (ERROR_STATUS as Record<string, ContentfulStatusCode>)[error.code];
  // A domain refusal we have no status for is still the client's request clashing with the current state.
  return { status: known ?? 409, code: error.code };
}

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(errorBody(error.code, error.message, error.details), error.status);
}

/** The app's single error handler. */
export function createErrorHandler(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (error instanceof DomainError) {
      const { status, code } = fromDomainError(error);
      const details = 'provided' in error.details && typeof error.details.field === 'string'
        ? { ...error.details, provided: safeProvided(error.details.field, error.details.provided) }
        : error.details;
      return c.json(errorBody(code, error.message, details), status);
    }
    if (error instanceof HTTPException && error.status < 500) return errorResponse(c, fromHttpException(error));
    if (error instanceof ClientClosedRequest || c.req.raw.signal.aborted) return new Response(null, { status: CLIENT_CLOSED_REQUEST_STATUS });
    const requestId = c.get('requestId');
    logger.error({ err: error, request_id: requestId, method: c.req.method, path: c.req.path }, 'unexpected error');
    return c.json(errorBody('internal_error', 'Unexpected server error; quote the request id when reporting it.', { request_id: requestId }), 500);
  };
}

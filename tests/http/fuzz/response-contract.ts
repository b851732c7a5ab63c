import * as assert from 'uvu/assert';
import { ERROR_STATUS } from '../../../http/errors.ts';

/**
 * What every response must be, whatever was sent: never a 5xx, JSON unless the route serves something else on
 * success, the spec's error envelope on every error, and nothing of the server's insides (stack traces, paths).
 */
export interface ObservedResponse {
  status: number;
  contentType: string;
  text: string;
}

const STACK_TRACE = /\n\s+at [^\n]+:\d+:\d+|node:internal|file:\/\/\/|\/work\/|\.ts:\d+|SqliteError|TypeError|RangeError|SyntaxError: /;

export function checkResponse(response: ObservedResponse, successContentTypes: string[], request: string): void {
  const context = `${request} → ${response.status} ${response.text.slice(0, 300)}`;
  assert.ok(response.status < 500, `a 5xx: ${context}`);
  assert.not.match(response.text, STACK_TRACE, `the body shows the server's insides: ${context}`);
  const isSuccess = response.status < 400;
  const servesOtherThanJson = isSuccess && successContentTypes.length > 0 && !successContentTypes.some((type) => type.includes('json'));
  if (servesOtherThanJson || response.status === 204 || response.status === 304 || (isSuccess && response.text === '' && request.startsWith('HEAD'))) return;
  assert.match(response.contentType, /^application\/json\b/, `Content-Type ${response.contentType}: ${context}`);
  if (request.startsWith('HEAD')) return;
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    assert.unreachable(`not JSON: ${context}`);
  }
  if (!isSuccess) checkErrorEnvelope(body, response.status, context);
}

/** Exactly `{error: {code, message, details}}`: a known code with its status, a message, an object of details. */
export function checkErrorEnvelope(body: unknown, status: number, context: string): void {
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `the envelope is an object: ${context}`);
  assert.equal(Object.keys(body as object), ['error'], `only "error" at the top: ${context}`);
  const error = (body as { error: unknown }).error as Record<string, unknown>;
  assert.ok(error !== null && typeof error === 'object' && !Array.isArray(error), `error is an object: ${context}`);
  assert.equal(Object.keys(error).sort(), ['code', 'details', 'message'], `error has code, message and details: ${context}`);
  assert.type(error.code, 'string', context);
  assert.ok((error.code as string).length > 0, `a code: ${context}`);
  assert.type(error.message, 'string', context);
  assert.ok(error.details !== null && typeof error.details === 'object' && !Array.isArray(error.details), `details is an object: ${context}`);
  const expected = (ERROR_STATUS as Record<string, number>)[error.code as string];
  // Domain refusals without a mapped code are 409s (errors.ts); every other code has its one status.
  assert.is(expected ?? 409, status, `code ${String(error.code)} with status ${status}: ${context}`);
}

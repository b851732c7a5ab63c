import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import { ApiError, ClientClosedRequest, invalidParameter } from '../errors.ts';

/** The documented limit of a request body (the spec leaves it open). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * How deeply a body's arrays and objects may nest. Our deepest schema (a script's steps and routes) needs under 10
 * levels; thousands of levels would overflow the stack of every recursive reader (validation, fingerprints).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Above this size, parsing and the depth check each take milliseconds (1.7 MB, a 20,000-contact campaign: about
 * 12 and 7 ms), so the other requests waiting on the event loop get a turn between them and the route's own work.
 */
export const LARGE_BODY_BYTES = 256 * 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_MEDIA_TYPE = /^application\/json\s*(;.*)?$/i;
const EXPECTED = 'a JSON object with Content-Type: application/json';
// Stateless when `fatal`: one decoder serves every request.
const decoder = new TextDecoder('utf-8', { fatal: true });

function tooLarge(): ApiError {
  // The rest of the upload is never read: close the connection rather than reuse it mid-body.
  return new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { limit_bytes: MAX_BODY_BYTES }, { Connection: 'close' });
}

function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return request.headers.has('transfer-encoding') || (length !== null && length !== '0');
}

/** Reads the body, refusing it as soon as it passes the limit: a huge upload is never buffered whole. */
async function readLimited(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    // Reading a request's own body fails only when its connection does.
    const { done, value } = await reader.read().catch(() => {
      throw new ClientClosedRequest();
    });
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Whether `value` nests arrays and objects deeper than `limit` levels (walked without recursion). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

function jsonKind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * Whether the request carries a body to read: every POST, PUT and PATCH, and a DELETE that carries one
 * (`DELETE /v1/campaigns/{id}/contacts`).
 */
export function expectsJsonBody(request: Request): boolean {
  return BODY_METHODS.has(request.method) || (request.method === 'DELETE' && hasBody(request));
}

/**
 * Request bodies are JSON objects (spec: "Content-Type: application/json and a JSON object body"). A body is read
 * here once, within the size limit, and parsed once: the idempotency key's fingerprint and the route's zod
 * validator both use that one parsed value. Any other body is a 400 on `body`.
 */
export async function parseJsonBody(c: AppContext): Promise<void> {
  await parseJsonBytes(c, await readJsonBody(c));
}

/** Reads the body (a 400 unless it is sent as JSON; a 413 past the limit): the first half of parseJsonBody. */
export async function readJsonBody(c: AppContext): Promise<Uint8Array> {
  const request = c.req.raw;
  const contentType = request.headers.get('content-type');
  if (!contentType || !JSON_MEDIA_TYPE.test(contentType)) {
    throw invalidParameter('body', contentType ?? null, EXPECTED, 'The body must be JSON, sent with Content-Type: application/json.');
  }
  return readLimited(request);
}

/** Parses a body read by readJsonBody, for the idempotency fingerprint and the route's validator: the second half. */
export async function parseJsonBytes(c: AppContext, bytes: Uint8Array): Promise<void> {
  const large = bytes.byteLength > LARGE_BODY_BYTES;
  if (large) await nextTurn();
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
  } catch {
    // The parser's message quotes the body, which may hold a secret: say only what is wrong.
    const reason = bytes.byteLength === 0 ? 'The body is empty.' : 'The body is not valid JSON (UTF-8).';
    throw invalidParameter('body', null, EXPECTED, reason);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('body', jsonKind(parsed), EXPECTED, `The body must be a JSON object, not ${jsonKind(parsed)}.`);
  }
  if (large) await nextTurn();
  if (nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
    throw invalidParameter('body', null, `JSON nested at most ${MAX_JSON_DEPTH} levels deep`, `The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  if (large) {
    c.set('largeBody', true);
    await nextTurn();
  }
  c.set('jsonBody', parsed);
  // The validator of @hono/zod-openapi calls c.req.json(); hand it the value parsed above instead of the
  // (already consumed) stream, so a large body is neither read nor parsed twice.
  c.req.json = <T>() => Promise.resolve(parsed as T);
}

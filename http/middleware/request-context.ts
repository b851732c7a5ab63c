import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { containsApiKeySecret, redactApiKeySecrets } from '../../infra/crypto/api-key-secret.ts';
import type { Logger } from '../../infra/logger.ts';
import type { AppEnv } from '../context.ts';
import type { HttpMetrics } from '../metrics.ts';
import { setResponseHeader } from '../response-headers.ts';

// A client's own request id is kept when it is short and plain (it ends up in our logs), and is not an API key
// sent there by mistake.
export const MAX_CLIENT_REQUEST_ID_LENGTH = 128;
const CLIENT_REQUEST_ID = new RegExp(`^[A-Za-z0-9._:-]{1,${MAX_CLIENT_REQUEST_ID_LENGTH}}$`);
const PHONE_SEGMENT = /^(\+|%2B)?\d{7,15}$/i;

/**
 * The path as the access log writes it: an API key sent in the path (refused, 401) is replaced by `[redacted]`,
 * and a path segment that is a phone number (`/v1/suppressions/+919876543210`) keeps only its last two digits:
 * personal data has no place in an operational log.
 */
export function pathForLog(path: string): string {
  const masked = path
    .split('/')
    .map((segment) => (PHONE_SEGMENT.test(segment) ? `***${segment.slice(-2)}` : segment))
    .join('/');
  return redactApiKeySecrets(masked);
}

/**
 * The outermost middleware: gives the request an id (the client's `X-Request-Id`, or a new one), echoes it on the
 * response, and when the response is ready writes one structured log line and the request metrics. The log line
 * carries no headers, no query string and no body, and its path is masked (pathForLog), so a secret or a phone
 * number never reaches the log.
 */
export function requestContext(logger: Logger, metrics: HttpMetrics) {
  // The access line is built here from named fields, none of them a secret, so it skips the logger's redaction
  // (its wildcard paths cost twice as much as writing the line).
  const accessLog = logger.child({}, { redact: [] });
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    const offered = c.req.header('x-request-id');
    const requestId = offered && CLIENT_REQUEST_ID.test(offered) && !containsApiKeySecret(offered) ? offered : randomUUID();
    c.set('requestId', requestId);
    c.set('route', null);
    c.set('principal', undefined);
    setResponseHeader(c, 'X-Request-Id', requestId);
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = c.get('route')?.pattern ?? '(unmatched)';
    const status = c.res.status;
    metrics.observe(c.req.method, route, status, seconds);
    const level = status >= 500 ? 'error' : 'info';
    if (!accessLog.isLevelEnabled(level)) return;
    const principal = c.get('principal');
    const line = {
      request_id: requestId,
      method: c.req.method,
      route,
      path: pathForLog(c.req.path),
      status,
      duration_ms: Math.round(seconds * 10_000) / 10,
      workspace_id: principal?.workspaceId ?? null,
      key_id: principal?.keyId ?? null,
    };
    accessLog[level](line, 'request');
  });
}

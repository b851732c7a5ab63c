import type { Database } from 'better-sqlite3';
import { createMiddleware } from 'hono/factory';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../../infra/api-key-secret.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Logger } from '../../infra/logger.ts';
import { findApiKeyBySecretHash, recordApiKeyUse } from '../../projections/api-keys.ts';
import type { AppEnv } from '../context.ts';
import { unauthorized } from '../errors.ts';

/** `last_used_at` is written at most this often per key: a busy key must not cost a write per request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Bearer API keys. The key is looked up by the SHA-256 of its secret in the `api_keys` read model on every
 * request, never cached: a revocation (by the API, or by the operator CLI in another process, which catches the
 * read models up before it exits) refuses the very next request. Every failure is the same bare 401, so a caller
 * cannot tell an unknown key from a revoked one.
 */
export function authenticate(db: Database, clock: Clock, logger: Logger) {
  const lastWrittenMs = new Map<string, number>();
  const noteUse = (keyId: string) => {
    const nowMs = Date.now();
    const last = lastWrittenMs.get(keyId);
    if (last !== undefined && nowMs - last < LAST_USED_WRITE_INTERVAL_MS) return;
    lastWrittenMs.set(keyId, nowMs);
    try {
      recordApiKeyUse(db, keyId, clock.now().toISOString());
    } catch (error) {
      // Usage is informational: a busy database must not fail the request it was noted for.
      logger.warn({ err: error, key_id: keyId }, 'could not record API key use');
    }
  };

  return createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('route')?.public) return next();
    const header = c.req.header('authorization');
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token || !isWellFormedApiKeySecret(token)) throw unauthorized();
    const key = findApiKeyBySecretHash(db, hashApiKeySecret(token));
    if (!key || key.revoked_at !== null) throw unauthorized();
    c.set('principal', { keyId: key.key_id, workspaceId: key.workspace_id, scope: key.scope });
    noteUse(key.key_id);
    await next();
  });
}

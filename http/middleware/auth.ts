import type { Database } from 'better-sqlite3';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Logger } from '../../infra/logger.ts';
import { findApiKeyBySecretHash, recordApiKeyUse, type ApiKeyRow } from '../../projections/api-keys.ts';
import { ReadModelCache } from '../../projections/read-model-version.ts';
import { projectionsRebuilding } from '../../projections/runner.ts';
import type { Principal } from '../context.ts';
import { ApiError, unauthorized } from '../errors.ts';

/** The read models authentication and rate limits read: while one is rebuilt in place, nobody is authenticated. */
const AUTH_PROJECTIONS = ['api_keys', 'workspaces'] as const;
const REBUILD_RETRY_AFTER_SECONDS = 5;

/** `last_used_at` is written at most this often per key: a busy key must not cost a write per request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Bearer API keys, looked up by the SHA-256 of the secret in the `api_keys` read model. The row is kept in memory
 * only while the read models are unchanged (ReadModelCache): any commit, be it a revocation through the API (our
 * projection runner) or by the operator CLI in another process (which catches the read models up before it
 * exits), drops it, so the very next request reads the revoked row. Every failure is the same bare 401, so a
 * caller cannot tell an unknown key from a revoked one.
 *
 * While the key or workspace tables are rebuilt in place (a projection version changed at start) and have not yet
 * caught up with the store, every request is 503 `service_unavailable` with `Retry-After`: a half-replayed table
 * may show a revoked key as valid, or no key at all (a 401 would tell clients their key is wrong).
 */
export class Authenticator {
  private readonly keys = new ReadModelCache<string, ApiKeyRow | undefined>();
  private readonly rebuilding = new ReadModelCache<'auth', boolean>();
  private readonly lastWrittenMs = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** The principal of an `Authorization` header at read-model `generation` (ReadModelVersion); else 401. */
  authenticate(header: string | undefined, generation: number): Principal {
    if (this.rebuilding.get(generation, 'auth', () => projectionsRebuilding(this.db, AUTH_PROJECTIONS))) {
      throw new ApiError('service_unavailable', 'The service is rebuilding its API key tables; retry shortly.', { retry_after_seconds: REBUILD_RETRY_AFTER_SECONDS }, { 'Retry-After': String(REBUILD_RETRY_AFTER_SECONDS) });
    }
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token || !isWellFormedApiKeySecret(token)) throw unauthorized();
    // Keyed by the token itself, so a key seen since the last commit costs no SHA-256; tokens stay in this
    // process's memory only, as they do while any request is served, and are dropped with every commit.
    const key = this.keys.get(generation, token, (secret) => findApiKeyBySecretHash(this.db, hashApiKeySecret(secret)));
    if (!key || key.revoked_at !== null) throw unauthorized();
    this.noteUse(key.key_id);
    return { keyId: key.key_id, workspaceId: key.workspace_id, scope: key.scope };
  }

  private noteUse(keyId: string): void {
    const nowMs = Date.now();
    const last = this.lastWrittenMs.get(keyId);
    if (last !== undefined && nowMs - last < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastWrittenMs.set(keyId, nowMs);
    try {
      recordApiKeyUse(this.db, keyId, this.clock.now().toISOString());
    } catch (error) {
      // Usage is informational: a busy database must not fail the request it was noted for.
      this.logger.warn({ err: error, key_id: keyId }, 'could not record API key use');
    }
  }
}

import type { Database, Statement } from 'better-sqlite3';

/** How long a key is remembered (spec: 24 hours), by the runtime clock. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60_000;
/** The status of a request that began and has not answered (yet). */
export const PENDING = 0;

export interface StoredResponse {
  fingerprint: string;
  /** 0: the request began and has not answered yet (or died before it could: see `begin`). */
  status: number;
  contentType: string;
  body: string;
  createdAtMs: number;
}

interface Row {
  fingerprint: string;
  status: number;
  content_type: string;
  body: string;
  created_at_ms: number;
}

/**
 * Responses to requests that carried an Idempotency-Key, in `read.db` but not a projection: they are not derived
 * from events, so a projection rebuild leaves them alone and they survive restarts. Rows older than the window are
 * ignored on lookup and purged lazily (at most once a minute, on a write).
 */
export class IdempotencyStore {
  private readonly select: Statement<[string, string], Row>;
  private readonly upsert: Statement<[string, string, string, number, string, string, number]>;
  private readonly purge: Statement<[number]>;
  private lastPurgeMs = 0;

  constructor(db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (
      workspace_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at_ms INTEGER NOT NULL,
      PRIMARY KEY (workspace_id, idempotency_key)
    );
    CREATE INDEX IF NOT EXISTS idempotency_keys_age ON idempotency_keys (created_at_ms);`);
    this.select = db.prepare(
      'SELECT fingerprint, status, content_type, body, created_at_ms FROM idempotency_keys WHERE workspace_id = ? AND idempotency_key = ?',
    );
    this.upsert = db.prepare(
      `INSERT OR REPLACE INTO idempotency_keys (workspace_id, idempotency_key, fingerprint, status, content_type, body, created_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at_ms < ?');
  }

  find(workspaceId: string, key: string, nowMs: number): StoredResponse | undefined {
    const row = this.select.get(workspaceId, key);
    if (!row || row.created_at_ms <= nowMs - IDEMPOTENCY_WINDOW_MS) return undefined;
    return { fingerprint: row.fingerprint, status: row.status, contentType: row.content_type, body: row.body, createdAtMs: row.created_at_ms };
  }

  /**
   * Records that a request with this key began, before it runs: if the process dies before the response is saved,
   * a retry finds which request the key belongs to (a retry of another request is refused as reusing the key).
   */
  begin(workspaceId: string, key: string, fingerprint: string, nowMs: number): void {
    this.save(workspaceId, key, { fingerprint, status: PENDING, contentType: '', body: '', createdAtMs: nowMs });
  }

  save(workspaceId: string, key: string, response: StoredResponse): void {
    this.upsert.run(workspaceId, key, response.fingerprint, response.status, response.contentType, response.body, response.createdAtMs);
    if (response.createdAtMs - this.lastPurgeMs >= PURGE_EVERY_MS) {
      this.lastPurgeMs = response.createdAtMs;
      this.purge.run(response.createdAtMs - IDEMPOTENCY_WINDOW_MS);
    }
  }
}

import type { Database, Statement } from 'better-sqlite3';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session ends after this long without a request (documented in docs/dashboard.md). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Sessions held at most; past it the least recently used one ends (memory bounded by count). */
export const MAX_SESSIONS = 10_000;
/** A session's "last seen" is written to the state database at most this often (idle expiry is 30 minutes). */
export const SEEN_WRITE_INTERVAL_MS = 60_000;

export interface Session {
  /** The API key the session signed in with: its id only, never the secret. */
  keyId: string;
  workspaceId: string;
  /** Sent back in every state-changing form and htmx request. Derived from the session id, never stored. */
  csrfToken: string;
  /** IANA zone the pages show times in (the browser's at sign-in, then the user's choice). */
  timeZone: string;
  lastSeenMs: number;
  /** When `lastSeenMs` was last written to the state database. */
  persistedSeenMs?: number;
  /** When this session last wrote its key's "last used" (throttled). */
  useRecordedMs?: number;
  /** One message for the next page (after a redirect), then gone (memory only). */
  flash?: Flash;
}

/**
 * A one-time message; after a refused form, also what was typed (never a secret), so that the page the redirect
 * lands on fills the form in again instead of making the operator type it all again.
 */
export interface Flash {
  kind: 'ok' | 'error';
  text: string;
  values?: Record<string, string | string[]>;
}

const token = () => randomBytes(32).toString('base64url');
/** The stores are keyed by the hash of the cookie's id, so what they hold cannot be replayed as cookies. */
const idHash = (id: string) => createHash('sha256').update(id).digest('base64url');
/** The CSRF token: a one-way function of the id (another one than the key's), so it needs no storing. */
const csrfOf = (id: string) => createHash('sha256').update(`csrf\0${id}`).digest('base64url');

interface Row {
  key_id: string;
  workspace_id: string;
  time_zone: string;
  last_seen_ms: number;
}

/** The sessions table of the state database: hashed id, key id, workspace, zone, last seen; nothing else. */
class PersistedSessions {
  private readonly insert: Statement<[string, string, string, string, number]>;
  private readonly select: Statement<[string], Row>;
  private readonly seen: Statement<[number, string]>;
  private readonly zone: Statement<[string, string]>;
  private readonly remove: Statement<[string]>;
  private readonly purgeIdle: Statement<[number]>;
  private readonly purgeBeyond: Statement<[number]>;
  private lastPurgeMs = 0;

  constructor(db: Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS dashboard_sessions (
      id_hash TEXT PRIMARY KEY,
      key_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      time_zone TEXT NOT NULL,
      last_seen_ms INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS dashboard_sessions_seen ON dashboard_sessions (last_seen_ms);`);
    this.insert = db.prepare('INSERT OR REPLACE INTO dashboard_sessions (id_hash, key_id, workspace_id, time_zone, last_seen_ms) VALUES (?, ?, ?, ?, ?)');
    this.select = db.prepare('SELECT key_id, workspace_id, time_zone, last_seen_ms FROM dashboard_sessions WHERE id_hash = ?');
    this.seen = db.prepare('UPDATE dashboard_sessions SET last_seen_ms = ? WHERE id_hash = ?');
    this.zone = db.prepare('UPDATE dashboard_sessions SET time_zone = ? WHERE id_hash = ?');
    this.remove = db.prepare('DELETE FROM dashboard_sessions WHERE id_hash = ?');
    this.purgeIdle = db.prepare('DELETE FROM dashboard_sessions WHERE last_seen_ms < ?');
    this.purgeBeyond = db.prepare('DELETE FROM dashboard_sessions WHERE id_hash IN (SELECT id_hash FROM dashboard_sessions ORDER BY last_seen_ms DESC LIMIT -1 OFFSET ?)');
  }

  create(hash: string, session: Session, nowMs: number): void {
    this.insert.run(hash, session.keyId, session.workspaceId, session.timeZone, session.lastSeenMs);
    if (nowMs - this.lastPurgeMs >= SEEN_WRITE_INTERVAL_MS) {
      this.lastPurgeMs = nowMs;
      this.purgeIdle.run(nowMs - SESSION_IDLE_MS);
      this.purgeBeyond.run(MAX_SESSIONS);
    }
  }

  find(hash: string): Row | undefined {
    return this.select.get(hash);
  }

  touch(hash: string, seenMs: number): void {
    this.seen.run(seenMs, hash);
  }

  setZone(hash: string, zone: string): void {
    this.zone.run(zone, hash);
  }

  delete(hash: string): void {
    this.remove.run(hash);
  }
}

/**
 * Server-side sessions: in memory, and in the state database when one is given (`dashboard_sessions`), so a
 * restart keeps everyone signed in. Neither holds the API key or the cookie's id: the id's hash, the key's id, the
 * workspace, the zone and when it was last seen. Every page request checks the key id against the api_keys read
 * model, so revoking the key ends every session made with it at the next request, restart or not.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly persisted?: PersistedSessions;

  constructor(
    private readonly nowMs: () => number = Date.now,
    db?: Database,
  ) {
    if (db) this.persisted = new PersistedSessions(db);
  }

  create(keyId: string, workspaceId: string, timeZone: string): { id: string; session: Session } {
    const id = token();
    const now = this.nowMs();
    const session: Session = { keyId, workspaceId, timeZone, csrfToken: csrfOf(id), lastSeenMs: now, persistedSeenMs: now };
    if (this.sessions.size >= MAX_SESSIONS) this.evict(this.sessions.keys().next().value!);
    const hash = idHash(id);
    this.sessions.set(hash, session);
    this.persisted?.create(hash, session, now);
    return { id, session };
  }

  /** The live session of a cookie value, touched (moved to most recent); undefined when unknown or idle too long. */
  get(id: string | undefined): Session | undefined {
    if (!id || id.length > 100) return undefined;
    const hash = idHash(id);
    const now = this.nowMs();
    let session = this.sessions.get(hash);
    if (session) this.sessions.delete(hash);
    else session = this.load(id, hash);
    if (!session) return undefined;
    if (now - session.lastSeenMs > SESSION_IDLE_MS) {
      this.persisted?.delete(hash);
      return undefined;
    }
    session.lastSeenMs = now;
    if (this.persisted && now - (session.persistedSeenMs ?? 0) >= SEEN_WRITE_INTERVAL_MS) {
      session.persistedSeenMs = now;
      this.persisted.touch(hash, now);
    }
    if (this.sessions.size >= MAX_SESSIONS) this.evict(this.sessions.keys().next().value!);
    this.sessions.set(hash, session);
    return session;
  }

  /** The zone the session's pages use from now on (kept across restarts). */
  setTimeZone(id: string, zone: string): void {
    const hash = idHash(id);
    const session = this.sessions.get(hash);
    if (session) session.timeZone = zone;
    this.persisted?.setZone(hash, zone);
  }

  end(id: string | undefined): void {
    if (!id) return;
    const hash = idHash(id);
    this.sessions.delete(hash);
    this.persisted?.delete(hash);
  }

  private load(id: string, hash: string): Session | undefined {
    const row = this.persisted?.find(hash);
    if (!row) return undefined;
    return { keyId: row.key_id, workspaceId: row.workspace_id, timeZone: row.time_zone, csrfToken: csrfOf(id), lastSeenMs: row.last_seen_ms, persistedSeenMs: row.last_seen_ms };
  }

  private evict(hash: string): void {
    this.sessions.delete(hash);
    this.persisted?.delete(hash);
  }
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfTokenMatches(session: Session, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session ends after this long without a request (documented in docs/dashboard.md). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Sessions held at most; past it the least recently used one ends (memory bounded by count). */
export const MAX_SESSIONS = 10_000;

export interface Session {
  /** The API key the session signed in with: its id only, never the secret. */
  keyId: string;
  workspaceId: string;
  /** Sent back in every state-changing form and htmx request. */
  csrfToken: string;
  /** IANA zone the pages show times in (the browser's at sign-in, then the user's choice). */
  timeZone: string;
  lastSeenMs: number;
  /** When this session last wrote its key's "last used" (throttled). */
  useRecordedMs?: number;
  /** One message for the next page (after a redirect), then gone. */
  flash?: { kind: 'ok' | 'error'; text: string };
}

const token = () => randomBytes(32).toString('base64url');
/** The cookie holds the session id; the map is keyed by its hash, so the map alone cannot be replayed as cookies. */
const idHash = (id: string) => createHash('sha256').update(id).digest('base64url');

/**
 * Server-side sessions in this process's memory: a restart signs everyone out (documented). The API key itself is
 * never kept: every page request checks the key id against the api_keys read model, so revoking the key ends
 * every session made with it at the next request.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  create(keyId: string, workspaceId: string, timeZone: string): { id: string; session: Session } {
    const id = token();
    const session: Session = { keyId, workspaceId, timeZone, csrfToken: token(), lastSeenMs: this.nowMs() };
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(idHash(id), session);
    return { id, session };
  }

  /** The live session of a cookie value, touched (moved to most recent); undefined when unknown or idle too long. */
  get(id: string | undefined): Session | undefined {
    if (!id || id.length > 100) return undefined;
    const key = idHash(id);
    const session = this.sessions.get(key);
    if (!session) return undefined;
    const now = this.nowMs();
    this.sessions.delete(key);
    if (now - session.lastSeenMs > SESSION_IDLE_MS) return undefined;
    session.lastSeenMs = now;
    this.sessions.set(key, session);
    return session;
  }

  end(id: string | undefined): void {
    if (id) this.sessions.delete(idHash(id));
  }
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfTokenMatches(session: Session, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

import type { Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Clock } from '../../infra/clock/port.ts';
import { principalOf, type AppContext } from '../context.ts';
import { ApiError, invalidParameter } from '../errors.ts';
import { requestFingerprint } from '../idempotency/fingerprint.ts';
import type { IdempotencyClaims, KeyClaim } from '../idempotency/cluster-claims.ts';
import { PENDING, type IdempotencyStore } from '../idempotency/store.ts';

/** How long a retry waits for the first request with its key to finish before it gets 409 in progress. */
export const IN_FLIGHT_WAIT_MS = 10_000;

export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;
export const IDEMPOTENCY_KEY_EXPECTED = '1 to 255 printable ASCII characters (a UUID is recommended)';

/**
 * A header value as the client typed it: header bytes arrive as Latin-1, so a key sent in UTF-8 (हिंदी, by curl)
 * read as mojibake when echoed in `provided`. Bytes that are no UTF-8 stay Latin-1 (what fetch sends for "naïve").
 */
function asTyped(value: string): string {
  const utf8 = Buffer.from(value, 'latin1').toString('utf8');
  return utf8.includes('\uFFFD') ? value : utf8;
}

interface InFlight {
  fingerprint: string;
  done: Promise<void>;
}

function waitFor(done: Promise<void>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    void done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * `Idempotency-Key` on POST (every POST may carry one; the ones that create resources are why it exists).
 * The first request with a key in a workspace runs and its response (status and body, unless 5xx) is kept for
 * 24 hours; a retry with the same key and the same method, path and body gets that response again, with
 * `Idempotent-Replayed: true`, and creates nothing. The same key with another request is 409
 * `idempotency_key_reused`. While the first request is still running, a retry waits for it (up to
 * IN_FLIGHT_WAIT_MS, else 409 `idempotency_in_progress`), so two concurrent requests create one resource.
 * The in-flight bookkeeping is per process; the stored responses are durable.
 *
 * A request is recorded as begun (its fingerprint, no response) before it runs, and what it creates gets an id
 * derived from the key (http/resource-id.ts). If the process dies between the request's append and its stored
 * response, the retry finds the key begun but not running here: the same request runs again and, under the same
 * id, finds what the first run created (commands/create-once.ts); another request with that key is 409.
 * A response holding a secret shown once is stored without it (`idempotentReplayBody`).
 *
 * In a cluster (`claims`), the key is also claimed in the event store before the request runs, and its answer
 * recorded there: the first claim on any node wins, a request with another body is 409 on every node, and a
 * request whose key another node holds waits for that node's answer (as for one in flight here) and replays it.
 * Should none come (that node died before answering), it runs under the winner's begin time, so it creates under
 * the same derived id and finds what the first run created, as a retry after a crash does.
 */
export class Idempotency {
  private readonly inFlight = new Map<string, InFlight>();

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly waitMs = IN_FLIGHT_WAIT_MS,
    private readonly claims: IdempotencyClaims | null = null,
  ) {}

  /** Runs the rest of the request (`next`), or replays what the first request with the same key answered. */
  async around(c: AppContext, next: Next): Promise<Response | void> {
    const { store, clock, inFlight, waitMs } = this;
    if (c.req.method !== 'POST') return next();
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw invalidParameter('Idempotency-Key', asTyped(key), IDEMPOTENCY_KEY_EXPECTED);

    const { workspaceId } = principalOf(c);
    const fingerprint = requestFingerprint(c.req.method, c.req.path, c.get('jsonBody'));
    const slot = `${workspaceId}\n${key}`;
    const reused = () =>
      new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used for a different request.', { idempotency_key: key });

    let begunAtMs: number | null = null;
    for (;;) {
      const stored = store.find(workspaceId, key, clock.now().getTime());
      if (stored && stored.fingerprint !== fingerprint) throw reused();
      // Begun by a run that died before answering: this one continues it (same derived ids).
      begunAtMs = stored?.status === PENDING ? stored.createdAtMs : null;
      if (stored && stored.status !== PENDING) {
        return c.body(stored.body, stored.status as ContentfulStatusCode, {
          'Content-Type': stored.contentType,
          'Idempotent-Replayed': 'true',
        });
      }
      const running = inFlight.get(slot);
      if (!running) break;
      if (running.fingerprint !== fingerprint) throw reused();
      if (!(await waitFor(running.done, waitMs))) {
        throw new ApiError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.', {
          idempotency_key: key,
        });
      }
      // The first request finished: replay what it stored, or (it failed with 5xx, nothing stored) run this one.
    }

    let finish = () => {};
    inFlight.set(slot, { fingerprint, done: new Promise<void>((resolve) => (finish = resolve)) });
    try {
      if (begunAtMs === null) {
        begunAtMs = clock.now().getTime();
        if (this.claims) {
          const claim = await this.claimAcrossNodes(workspaceId, key, fingerprint, begunAtMs, principalOf(c).keyId);
          if (claim.fingerprint !== fingerprint) throw reused();
          if (claim.answer) {
            store.save(workspaceId, key, { fingerprint, status: claim.answer.status, contentType: claim.answer.contentType, body: claim.answer.body, createdAtMs: claim.begunAtMs });
            return c.body(claim.answer.body, claim.answer.status as ContentfulStatusCode, { 'Content-Type': claim.answer.contentType, 'Idempotent-Replayed': 'true' });
          }
          begunAtMs = claim.begunAtMs;
        }
        store.begin(workspaceId, key, fingerprint, begunAtMs);
      }
      c.set('idempotencyKey', { key, begunAtMs });
      await next();
      if (c.res.status < 500) {
        const answer = {
          status: c.res.status,
          contentType: c.res.headers.get('content-type') ?? 'application/json',
          body: c.get('idempotentReplayBody') ?? (await c.res.clone().text()),
        };
        store.save(workspaceId, key, { fingerprint, ...answer, createdAtMs: clock.now().getTime() });
        await this.claims?.answer({ workspaceId, key, begunAtMs, answer, actor: principalOf(c).keyId, nowMs: clock.now().getTime() });
      }
    } finally {
      inFlight.delete(slot);
      finish();
    }
  }

  /**
   * Claims the key in the event store. When another request (on another node, or a run here that died) holds
   * it without an answer yet, waits up to `waitMs` for that answer; the claim is returned with or without one.
   */
  private async claimAcrossNodes(workspaceId: string, key: string, fingerprint: string, nowMs: number, actor: string): Promise<KeyClaim> {
    const claims = this.claims!;
    let claim = await claims.claim({ workspaceId, key, fingerprint, nowMs, actor });
    const ours = claim.begunAtMs === nowMs;
    const deadline = Date.now() + this.waitMs;
    while (!ours && claim.fingerprint === fingerprint && claim.answer === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS));
      claim = (await claims.current({ workspaceId, key })) ?? claim;
    }
    return claim;
  }
}

/** How often a request waits-polls for the answer of a key another node holds. */
const ANSWER_POLL_MS = 50;

import { KeyedQueue } from '../../commands/keyed-queue.ts';
import { WorkspaceTurns } from '../../infra/worker-threads/workspace-turns.ts';
import { LARGE_BODY_BYTES, MAX_BODY_BYTES } from './json-body.ts';

/**
 * Requests whose bodies may be large (a declared length over 256 KB, or none declared) are handled one at a time,
 * workspaces in turn, in two stages:
 *
 * 1. **Upload**, one at a time per workspace: the body is read while the workspace's earlier large request waits
 *    for (or has) its turn. A client trickling its upload holds only its own workspace's queue, never the others'.
 * 2. **Turn**, one at a time server-wide, workspaces in turn: the body read is parsed, validated and handled. Its
 *    workspace's next upload starts once it has taken its turn, so a workspace holds at most one read body waiting.
 *
 * Why: a 100,000-contact campaign (7 MB) becomes ~100 MB of objects while it is parsed, validated and decided, and
 * its parsing and validation hold the event loop tens of milliseconds a step. Without turns one workspace sending
 * such bodies two at a time took another's GET p50 from 2 ms to 33 ms and its p99 from 5 ms to 133 ms, and forty at
 * once took the server to 1.6 GB: memory bounded by the rate limit's count, not by size. A body waiting for its
 * upload stays in its socket (the stream is read only then), so waiting costs no memory; a request whose client
 * goes away while it waits leaves the queue. Small requests never wait here.
 */
export class LargeBodyTurns {
  private readonly uploads = new KeyedQueue<string>();
  private readonly turns: WorkspaceTurns;
  private running = 0;

  constructor(slots = 1) {
    this.turns = new WorkspaceTurns(slots);
  }

  /**
   * Whether the request must take a turn: its declared body is large, or its length is not declared (chunked). One
   * declared over the 10 MB limit does not wait: it is refused (413) at once, unread.
   */
  static mayBeLarge(request: Request): boolean {
    const length = request.headers.get('content-length');
    if (length === null) return request.headers.has('transfer-encoding');
    return Number(length) > LARGE_BODY_BYTES && Number(length) <= MAX_BODY_BYTES;
  }

  /** Reads the body in the workspace's upload queue (`read`), then handles it (`work`) in the workspace's turn. */
  async run<Body, Result>(workspaceId: string, signal: AbortSignal | undefined, readBody: () => Promise<Body>, work: (body: Body) => Promise<Result>): Promise<Result> {
    const { body, turn } = await this.uploads.run(workspaceId, async () => {
      signal?.throwIfAborted();
      const read = await readBody();
      return { body: read, turn: await this.turns.take(workspaceId, signal) };
    });
    this.running++;
    try {
      return await work(body);
    } finally {
      this.running--;
      turn.end();
    }
  }

  /** Requests with large bodies being handled now (`http_large_bodies_in_flight`). */
  get inFlight(): number {
    return this.running;
  }

  /** Requests with large bodies read and waiting for their turn (`http_large_bodies_waiting`). */
  get waiting(): number {
    return this.turns.waitingCount;
  }
}

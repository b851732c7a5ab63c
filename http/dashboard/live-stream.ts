import { streamSSE } from 'hono/streaming';
import type { DashboardContext } from './env.ts';
import type { Session } from './sessions.ts';

/** How often a live fragment is re-read from its read model. */
export const LIVE_POLL_MS = 1_000;
/** A stream ends after this long; the browser's EventSource reconnects by itself. */
export const LIVE_STREAM_MS = 10 * 60_000;
/**
 * Live streams one session may hold open at once (a few tabs). Each costs a read-model query a second, so the
 * count bounds what one signed-in browser can make the server do; past it the stream is refused with 429.
 */
export const MAX_STREAMS_PER_SESSION = 4;

const openStreams = new WeakMap<Session, number>();

/** What the stream reads each second: the fragment's HTML, and when the thing watched has finished, its end. */
export interface LiveFrame {
  html: string;
  /** Set once nothing will change any more: sent as an `end` event (the page reloads once) and the stream closes. */
  end?: string;
}

/**
 * Server-Sent Events of an HTML fragment read from a read model: `event: progress` whenever the fragment changes,
 * `event: end` when `read` says it is final. The pages' script (dashboard.js, `data-live-progress`) puts each
 * fragment in place. The fragment is server-rendered JSX, escaped like any page. `read` answering undefined (the
 * thing is gone) ends the stream. The caller checks the resource exists first, so another workspace's id is 404.
 */
export function liveFragments(c: DashboardContext, read: () => Promise<LiveFrame | undefined>) {
  const session = c.get('session');
  const open = openStreams.get(session) ?? 0;
  if (open >= MAX_STREAMS_PER_SESSION) return c.text(`At most ${MAX_STREAMS_PER_SESSION} live views per session; close another tab.`, 429);
  openStreams.set(session, open + 1);
  return streamSSE(c, async (stream) => {
    // The browser going away must end the loop (and free the session's slot) even while nothing is written.
    const signal = c.req.raw.signal;
    const stop = () => {
      if (!stream.closed) stream.abort();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      let last = '';
      const until = Date.now() + LIVE_STREAM_MS;
      while (!stream.aborted && Date.now() < until) {
        const frame = await read();
        if (!frame) break;
        if (frame.html !== last) {
          last = frame.html;
          await stream.writeSSE({ event: 'progress', data: frame.html });
        }
        if (frame.end !== undefined) {
          await stream.writeSSE({ event: 'end', data: frame.end });
          break;
        }
        await stream.sleep(LIVE_POLL_MS);
      }
    } finally {
      signal.removeEventListener('abort', stop);
      openStreams.set(session, (openStreams.get(session) ?? 1) - 1);
    }
  });
}

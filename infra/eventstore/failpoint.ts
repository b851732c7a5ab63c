import type { EventStore } from './port.ts';

/**
 * A test facility, not for production: the process kills itself (SIGKILL, as a crash) right after it has appended
 * an event of type `eventType`, before anything else happens. The end-to-end tests use it to prove that a request
 * whose process dies between its append and its response loses nothing and creates nothing twice on retry.
 * Enabled only by `FAILPOINT_KILL_AFTER_APPEND` (composition.ts).
 */
export function withKillAfterAppend(store: EventStore, eventType: string): EventStore {
  return {
    ...store,
    append: async (stream, events, options) => {
      const result = await store.append(stream, events, options);
      if (events.some((event) => event.type === eventType)) process.kill(process.pid, 'SIGKILL');
      return result;
    },
  };
}

import { map } from 'rxjs/internal/operators/map';
import type { EventStore, RecordedEvent } from './port.ts';

/**
 * The store as readers see it: every event it returns passes through `upcast` (domain/upcasters.ts), so old
 * event shapes are handled in one place and nowhere else. Appends and everything else pass straight through.
 */
export function withUpcasting(store: EventStore, upcast: (event: RecordedEvent) => RecordedEvent): EventStore {
  const upcastAll = (events: RecordedEvent[]) => events.map(upcast);
  return {
    append: (stream, events, options) => store.append(stream, events, options),
    readStream: async (stream, options) => upcastAll(await store.readStream(stream, options)),
    readAll: async (options) => upcastAll(await store.readAll(options)),
    subscribeAll: (options) => store.subscribeAll(options).pipe(map(upcast)),
    waitForEvents: (after, timeoutMs, signal, types) => store.waitForEvents(after, timeoutMs, signal, types),
    headPosition: () => store.headPosition(),
    listStreams: (options) => store.listStreams(options),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

import { Observable } from 'rxjs/internal/Observable';
import type { EventStore, RecordedEvent } from './port.ts';

const BATCH_SIZE = 500;
const IDLE_WAIT_MS = 1_000;
/**
 * How many positions one filtered read looks at, at most: a follower of rare types catching up over a million
 * events scans them a slice at a time, yielding in between, instead of in one synchronous query.
 */
export const FILTERED_SCAN_WINDOW = 10_000;

/**
 * Catch-up-then-live over `readAll` and `waitForEvents`: reads batches after the last seen position, and when
 * there is nothing new, sleeps until the store says there may be. Positions only grow and each batch starts
 * after the last event delivered, so every event arrives once, in global order, whatever appends concurrently.
 *
 * `onBatch` is awaited before the next read: a slow consumer slows the reader down instead of piling events
 * up in memory (which an Observable cannot do). Stops when `signal` aborts.
 *
 * With `types`, only events of those types are read (the store skips the others), in windows of at most
 * FILTERED_SCAN_WINDOW positions up to the head read before each window: `onBatch` then gets every window that
 * moved the reader, with or without events, and `scannedTo`, the position everything before which has been seen
 * (where the reader resumes; a checkpoint can move there).
 */
export async function followAllBatches(
  store: Pick<EventStore, 'readAll' | 'waitForEvents' | 'headPosition'>,
  after: number,
  onBatch: (events: RecordedEvent[], scannedTo: number) => Promise<void> | void,
  signal: AbortSignal,
  batchSize = BATCH_SIZE,
  types?: ReadonlySet<string>,
): Promise<void> {
  let position = after;
  while (!signal.aborted) {
    let events: RecordedEvent[];
    let scannedTo: number;
    if (types === undefined) {
      events = await store.readAll({ after: position, limit: batchSize });
      scannedTo = events.at(-1)?.position ?? position;
    } else {
      // Everything appended up to the head read here is visible to the read that follows, so when that read
      // returns less than a full batch, no event of these types lies between its last event and `upTo`.
      const upTo = Math.min(await store.headPosition(), position + FILTERED_SCAN_WINDOW);
      events = upTo > position ? await store.readAll({ after: position, limit: batchSize, types, upTo }) : [];
      scannedTo = events.length === batchSize ? events.at(-1)!.position : upTo;
    }
    if (signal.aborted) return;
    if (scannedTo <= position) {
      await store.waitForEvents(position, IDLE_WAIT_MS, signal, types);
      continue;
    }
    await onBatch(events, scannedTo);
    position = scannedTo;
    // Reads of an embedded store resolve at once: yield between batches, or a follower skipping a backlog of events
    // it does not handle would hold the event loop until it caught up.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The same loop as an rxjs Observable of single events; unsubscribing stops it. */
export function followAll(store: Pick<EventStore, 'readAll' | 'waitForEvents' | 'headPosition'>, after: number): Observable<RecordedEvent> {
  return new Observable<RecordedEvent>((subscriber) => {
    const controller = new AbortController();
    followAllBatches(
      store,
      after,
      (events) => {
        for (const event of events) {
          if (controller.signal.aborted) return;
          subscriber.next(event);
        }
      },
      controller.signal,
    ).then(
      () => subscriber.complete(),
      (error: unknown) => {
        // After unsubscribing nobody listens: a read failing because the store was closed meanwhile is expected.
        if (!controller.signal.aborted) subscriber.error(error);
      },
    );
    return () => controller.abort();
  });
}

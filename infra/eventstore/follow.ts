import { Observable } from 'rxjs';
import type { EventStore, RecordedEvent } from './port.ts';

const BATCH_SIZE = 500;
const IDLE_WAIT_MS = 1_000;

/**
 * Catch-up-then-live over `readAll` and `waitForEvents`: reads batches after the last seen position, and when
 * there is nothing new, sleeps until the store says there may be. Positions only grow and each batch starts
 * after the last event delivered, so every event arrives once, in global order, whatever appends concurrently.
 *
 * `onBatch` is awaited before the next read: a slow consumer slows the reader down instead of piling events
 * up in memory (which an Observable cannot do). Stops when `signal` aborts.
 */
export async function followAllBatches(
  store: Pick<EventStore, 'readAll' | 'waitForEvents'>,
  after: number,
  onBatch: (events: RecordedEvent[]) => Promise<void> | void,
  signal: AbortSignal,
  batchSize = BATCH_SIZE,
): Promise<void> {
  let position = after;
  while (!signal.aborted) {
    const events = await store.readAll({ after: position, limit: batchSize });
    if (signal.aborted) return;
    if (events.length === 0) {
      await store.waitForEvents(position, IDLE_WAIT_MS, signal);
      continue;
    }
    await onBatch(events);
    position = events[events.length - 1]!.position;
    // Reads of an embedded store resolve at once: yield between batches, or a follower skipping a backlog of events
    // it does not handle would hold the event loop until it caught up.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The same loop as an rxjs Observable of single events; unsubscribing stops it. */
export function followAll(store: Pick<EventStore, 'readAll' | 'waitForEvents'>, after: number): Observable<RecordedEvent> {
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

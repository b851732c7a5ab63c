import type { EventStore } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import type { ReadModelProgress } from '../projections/read-model-progress.ts';

const CHECK_EVERY_MS = 1_000;
const WARN_EVERY_MS = 60_000;

export interface ReadModelsCatchUpPorts {
  store: Pick<EventStore, 'headPosition'>;
  projections: ReadModelProgress;
  logger: Logger;
}

/**
 * Recovery after a restart reads read models (open campaigns, calls in progress, unfinished jobs, due deliveries):
 * they must first have caught up with every event written before the restart, or something in flight at the crash
 * would be missed. Waits for that, however long it takes (a warning each minute), and resolves true; false only
 * when `signal` aborts first (the service is stopping).
 */
export async function readModelsCaughtUp({ store, projections, logger }: ReadModelsCatchUpPorts, signal?: AbortSignal): Promise<boolean> {
  const head = await store.headPosition();
  const started = Date.now();
  let warnedAt = started;
  while (!signal?.aborted) {
    if (await projections.waitForPosition(head, CHECK_EVERY_MS)) return true;
    if (Date.now() - warnedAt >= WARN_EVERY_MS) {
      warnedAt = Date.now();
      logger.warn({ head, applied: projections.position, waited_ms: warnedAt - started }, 'recovery is waiting for the read models to catch up');
    }
  }
  return false;
}

import type { Logger } from '../infra/logger.ts';
import type { ReadModelProgress } from '../projections/read-model-progress.ts';

/** How long a write waits for the read models before it answers anyway. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5_000;

/** Waits until the read models show what was appended at `position` (see readYourWrites). */
export type ReadYourWrites = (position: number) => Promise<void>;

/**
 * Read-your-writes: a handler that appended events waits (bounded) until every projection has applied them, so
 * the client's next GET sees its own write. On a timeout it still answers (the write is durable in the event
 * store; the read models are only late) and logs a warning.
 */
export function readYourWrites(readModels: ReadModelProgress, logger: Logger): ReadYourWrites {
  return async (position) => {
    if (position <= 0) return;
    const reached = await readModels.waitForPosition(position, READ_YOUR_WRITES_TIMEOUT_MS);
    if (!reached) logger.warn({ position, applied: readModels.position }, 'read models did not catch up before the response');
  };
}

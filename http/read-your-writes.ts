import type { Runtime } from '../composition.ts';

/** How long a write waits for the read models before it answers anyway. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5_000;

/**
 * Read-your-writes: a handler that appended events waits (bounded) until every projection has applied them, so
 * the client's next GET sees its own write. On a timeout it still answers (the write is durable in the event
 * store; the read models are only late) and logs a warning.
 */
export async function awaitReadModels(runtime: Pick<Runtime, 'projections' | 'logger'>, position: number): Promise<void> {
  if (position <= 0) return;
  const reached = await runtime.projections.waitForPosition(position, READ_YOUR_WRITES_TIMEOUT_MS);
  if (!reached) runtime.logger.warn({ position, applied: runtime.projections.position }, 'read models did not catch up before the response');
}

import type { Runtime } from '../../composition.ts';

const STARTUP_WAIT_MS = 120_000;

/**
 * Recovery after a restart looks up the dialer read model (open campaigns, calls in progress): it must have
 * caught up with every event written before the restart first, or a call placed just before the crash would be
 * missed.
 */
export async function waitForReadModels(runtime: Pick<Runtime, 'store' | 'projections' | 'logger'>): Promise<void> {
  const head = await runtime.store.headPosition();
  if (!(await runtime.projections.waitForPosition(head, STARTUP_WAIT_MS))) {
    runtime.logger.warn({ head }, 'read models did not catch up before dialing recovery; continuing');
  }
}

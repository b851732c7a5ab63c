import { setPriority } from 'node:os';

/**
 * A lower scheduling priority for background threads (the analysis and report pools; BACKGROUND_THREAD_NICE).
 *
 * On Linux `setpriority(PRIO_PROCESS, 0)` applies to the calling thread, so a pool's threads can run at nice 10
 * while the thread that serves requests stays at 0, and the kernel's fair scheduler then weighs them about a tenth of
 * it (110 against 1,024). Measured with `bench:isolation` (30 s windows), nice 10 did not lower B's API p99 under
 * A's abuse (81 ms at 10, 82 ms at 0) and tripled B's job p99 (3.0 s against 1.2 s): the event loop's stalls come
 * from its own work, not from losing the CPU to these threads, while the threads' work slows for everyone. So the
 * default is 0; an operator whose machine runs other work beside the service may still lower them.
 *
 * Budgets are wall-clock: a lowered thread on a saturated machine runs out of its budget sooner.
 */
export function runThisThreadAt(nice: number): void {
  // Elsewhere the same call would lower the whole process, the event loop included.
  if (process.platform !== 'linux' || nice === 0) return;
  try {
    setPriority(nice);
  } catch {
    // A container that forbids it: the thread runs at the normal priority.
  }
}

import { setPriority } from 'node:os';

/**
 * A thread's own scheduling priority: lower for background threads (ANALYSIS_THREAD_NICE, REPORT_THREAD_NICE),
 * higher for the SIP media thread (MEDIA_THREAD_NICE, negative: needs root or CAP_SYS_NICE).
 *
 * On Linux `setpriority(PRIO_PROCESS, 0)` applies to the calling thread, so a pool's threads can run at nice 10
 * while the thread that serves requests stays at 0, and the kernel's fair scheduler then weighs them about a tenth of
 * it (110 against 1,024). Measured, the two pools differ:
 * - report threads (default 10): with `bench:reports`, the API's p99 while four PDFs generate went from 1.8-2.3x its
 *   idle p99 to 1.0-1.1x, and the API served half as many requests again meanwhile; a report takes a little longer.
 * - analysis threads (default 0): with `bench:isolation`, nice 10 did not lower B's API p99 under A's abuse (81 ms
 *   against 82 ms) and tripled B's job p99 (3.0 s against 1.2 s). There the event loop's stalls come from its own
 *   work, while a transcript job is what a user waits for.
 *
 * Budgets are wall-clock: a lowered thread on a saturated machine runs out of its budget sooner.
 */
export function runThisThreadAt(nice: number): void {
  // Elsewhere the same call would lower the whole process, the event loop included.
  if (process.platform !== 'linux' || nice === 0) return;
  try {
    setPriority(nice);
  } catch {
    // A container that forbids it (or a negative value without privilege): the thread runs at the normal priority.
  }
}

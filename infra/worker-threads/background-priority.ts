import { setPriority } from 'node:os';

/**
 * Background threads (the analysis and report pools) run at a lower scheduling priority than the thread that
 * serves requests. On two cores, a thread analysing one workspace's 4,000-segment transcript or drawing its PDF
 * competes with the event loop for CPU time; at nice 10 the kernel's fair scheduler weighs it about a tenth of the
 * event loop (110 against 1,024), so a request's turn comes first and the background work takes the rest. Their
 * budgets are wall-clock, so on a saturated machine they may run out sooner: that is the intended trade, the
 * service stays responsive and the job fails with its documented code.
 *
 * Search threads keep the normal priority: they answer requests. Child processes inherit the priority of the
 * thread that starts them, so the tool thread (ffmpeg, Festival, PocketSphinx) is left alone here.
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority. Linux only: there `setpriority(PRIO_PROCESS, 0)` applies to the calling
 * thread, while on other systems it would lower the whole process, the event loop included.
 */
export function runThisThreadAt(nice: number): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(nice);
  } catch {
    // A container that forbids it: the thread runs at the normal priority, as before.
  }
}

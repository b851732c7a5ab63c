import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const STARTING_NICE_VARIABLE = 'SERVICE_STARTING_NICE';

/**
 * Remembers the nice value the process started at, before its event loop changes its own: called first thing by
 * the server. Kept in the environment, which every worker thread receives a copy of when it is created.
 */
export function rememberStartingNice(): void {
  if (process.platform === 'linux') process.env[STARTING_NICE_VARIABLE] ??= String(getPriority());
}

/** The nice value the process started at (see rememberStartingNice); where nothing was remembered, this thread's. */
export function startingNice(): number {
  const remembered = Number(process.env[STARTING_NICE_VARIABLE]);
  return Number.isInteger(remembered) ? remembered : process.platform === 'linux' ? getPriority() : 0;
}

/**
 * A thread's own scheduling priority: lower for background threads (ANALYSIS_THREAD_NICE, REPORT_THREAD_NICE,
 * SEARCH_INDEX_THREAD_NICE), higher for the event loop's and the read models' threads when an operator raises them
 * (FOREGROUND_THREAD_NICE) and for the SIP media thread (MEDIA_THREAD_NICE); negative values need root or
 * CAP_SYS_NICE.
 *
 * A new thread starts at the nice value of the thread that created it. So that none runs at a raised event loop's
 * priority by inheritance, a thread given no value of its own returns to the value the process started at
 * (`startingNice`: what `nice`, systemd's `Nice=` or the container gave it), which the worker bootstrap applies.
 *
 * On Linux `setpriority(PRIO_PROCESS, 0)` applies to the calling thread, so a pool's threads can run at nice 10
 * while the thread that serves requests stays at 0, and the kernel's fair scheduler then weighs them about a tenth of
 * it (110 against 1,024). Measured:
 * - report threads (default 10): with `bench:reports`, the API's p99 while four PDFs generate went from 1.8-2.3x its
 *   idle p99 to 1.0-1.1x, and the API served half as many requests again meanwhile; a report takes a little longer.
 * - analysis threads (default 0): with `bench:isolation`, 10 did not lower B's API p99 under A's abuse and tripled B's
 *   job p99 (3.0 s against 1.2 s); 5 lowered the API p99 a little (median 45 ms against 57), but with A's calls ending
 *   at once (tests/http/noisy-neighbour.test.ts) B's job p99 went from under 15 s to 20 s. A job is what users wait for.
 * - the search index's projection thread (SEARCH_INDEX_THREAD_NICE, default 10): with `bench:isolation`, B's API p99
 *   under load 50-64 ms against 88-91 ms at 0. Only a search waits for that lane, and only for a bounded time.
 *
 * Budgets are wall-clock: a lowered thread on a saturated machine runs out of its budget sooner.
 */
export function runThisThreadAt(nice: number): void {
  // Elsewhere the same call would lower the whole process, the event loop included.
  if (process.platform !== 'linux' || getPriority() === nice) return;
  try {
    setPriority(nice);
  } catch {
    // A container that forbids it (or a negative value without privilege): the thread keeps the value it started at.
  }
}

/**
 * Real-time round-robin scheduling (SCHED_RR at `priority`, 1-99) for the calling thread: it then runs the moment it
 * wakes, ahead of every ordinary thread on the machine (the SIP media thread, MEDIA_THREAD_REALTIME_PRIORITY). Node
 * has no sched_setscheduler, so `chrt` (util-linux) is run once on the thread's id (/proc/thread-self). Needs root or
 * CAP_SYS_NICE; refused or absent, the thread keeps its normal scheduling. The kernel still leaves ordinary threads
 * 5 % of each second (sched_rt_runtime_us), so a runaway real-time thread cannot lock the machine. True when applied.
 */
export function runThisThreadRealtime(priority: number): boolean {
  if (process.platform !== 'linux' || priority <= 0) return false;
  try {
    const thread = readlinkSync('/proc/thread-self').split('/').at(-1)!;
    execFileSync('chrt', ['--rr', '--pid', String(priority), thread], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** The calling thread's scheduling as it runs: its nice value and real-time priority (0: not real-time). Linux only. */
export function thisThreadScheduling(): { nice: number; realtimePriority: number } {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; nice is field 19, rt_priority 40.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[19 - 3]), realtimePriority: Number(fields[40 - 3]) };
  } catch {
    return { nice: 0, realtimePriority: 0 };
  }
}

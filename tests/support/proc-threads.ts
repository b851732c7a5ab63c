import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of this process as /proc shows it: its nice value (/proc/self/task/TID/stat, field 19) and name. */
export function threadsOfThisProcess(): Map<number, { nice: number; name: string }> {
  const threads = new Map<number, { nice: number; name: string }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      threads.set(Number(tid), { nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]), name });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** Each thread of this process and its nice value. */
export function niceByThread(): Map<number, number> {
  return new Map([...threadsOfThisProcess()].map(([tid, { nice }]) => [tid, nice]));
}

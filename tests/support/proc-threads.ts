import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of this process as /proc shows it: its nice value (/proc/self/task/TID/stat, field 19) and name. */
export function threadsOfThisProcess(): Map<number, { nice: number; name: string }> {
  return threadsOfProcess('self');
}

/** Each thread of process `pid` (another process of ours, such as a test server): nice value and name. */
export function threadsOfProcess(pid: number | 'self'): Map<number, { nice: number; name: string }> {
  const threads = new Map<number, { nice: number; name: string }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
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

import { readdirSync, readFileSync } from 'node:fs';

/** Each thread of this process and its nice value (Linux: /proc/self/task/TID/stat, field 19). */
export function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

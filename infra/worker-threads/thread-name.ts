import { writeFileSync } from 'node:fs';

/**
 * Names the calling thread as `top -H`, `ps -L` and /proc show it (Linux; at most 15 bytes): every thread of the
 * server is otherwise called `node`, and an operator looking for what burns a core (one workspace's analyses, the
 * search index catching up) could not tell the analysis threads from the read models' or the event loop's. Writing
 * /proc/thread-self/comm renames only this thread. Elsewhere, or where /proc is read-only, nothing happens.
 */
export function nameThisThread(name: string): void {
  if (process.platform !== 'linux') return;
  try {
    writeFileSync('/proc/thread-self/comm', Buffer.from(name).subarray(0, 15));
  } catch {
    // A sandbox without a writable /proc: the thread keeps its name.
  }
}

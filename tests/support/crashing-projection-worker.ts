/**
 * A projection worker that dies the first time it starts (before applying anything) and runs the real one after:
 * what tests/projections/projection-thread.test.ts uses to check that a dead projection thread is started again.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const marker = (workerData as { settings: { readModelPath: string } }).settings.readModelPath + '.crashed-once';
if (!existsSync(marker)) {
  writeFileSync(marker, '');
  // In a worker thread this ends the thread, not the process.
  process.exit(3);
}
await import('../../projection-worker.ts');

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Worker } from 'node:worker_threads';

// A thread the server starts with no nice value of its own runs at the value the process started at (`nice`,
// systemd's Nice=), never at a raised event loop's by inheritance, and never reset to 0 over the operator's choice.

const BOOTSTRAP = new URL('../../../infra/worker-threads/typescript-worker.mjs', import.meta.url);
const REPORTER = new URL('../../support/thread-nice-worker.ts', import.meta.url).href;

async function niceOfThread(workerData: Record<string, unknown>, env: Record<string, string>): Promise<number> {
  const worker = new Worker(BOOTSTRAP, { workerData: { module: REPORTER, ...workerData }, env: { ...process.env, ...env }, execArgv: [] });
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

test('no value of its own: the process\'s starting value; its own value: that one', async () => {
  if (process.platform !== 'linux') return;
  // Raising a value back needs privilege, lowering does not: this test only lowers (its process runs at 0).
  assert.is(await niceOfThread({}, { SERVICE_STARTING_NICE: '3' }), 3);
  assert.is(await niceOfThread({ nice: 7 }, { SERVICE_STARTING_NICE: '3' }), 7);
  assert.is(await niceOfThread({}, {}), 0, 'nothing remembered: the thread keeps its creator\'s value');
});

test.run();

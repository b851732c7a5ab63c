// The file a piscina pool loads in each worker thread: it compiles the TypeScript module named in `workerData.module`
// (a file: URL) with tsx and hands its default export to piscina as the task handler. Plain JavaScript, so the thread
// starts whether or not the parent was launched through tsx (`tsx main.ts`, `node --import tsx`, or neither).
import { threadId, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

// `workerData.threadName`: what `top -H` shows for this thread (infra/worker-threads/thread-name.ts).
if (workerData.threadName) {
  const { nameThisThread } = await tsImport(new URL('./thread-name.ts', import.meta.url).href, import.meta.url);
  nameThisThread(workerData.threadName);
}

// `workerData.nice`: a pool of background work (analysis, reports) may run below the thread that serves requests
// (ANALYSIS_THREAD_NICE, REPORT_THREAD_NICE; infra/worker-threads/background-priority.ts). Without one, the value the
// process started at: a thread starts at its creator's, and the event loop's may have been raised
// (FOREGROUND_THREAD_NICE).
const { runThisThreadAt, startingNice } = await tsImport(new URL('./background-priority.ts', import.meta.url).href, import.meta.url);
runThisThreadAt(workerData.nice ?? startingNice());

const loaded = await tsImport(workerData.module, import.meta.url);

export default loaded.default;

/** The analysis module's named compliance task (analysis-worker.ts), where it has one. */
export function evaluateCompliance(task) {
  if (typeof loaded.evaluateCompliance !== 'function') throw new Error('this worker module has no evaluateCompliance');
  return loaded.evaluateCompliance(task);
}

/** The report module's named chart task (report-worker.ts): a dashboard chart drawn off the event loop. */
export function renderChart(task) {
  if (typeof loaded.renderChart !== 'function') throw new Error('this worker module has no renderChart');
  return loaded.renderChart(task);
}

/** Which thread runs the tasks (tests check it is not the main thread, whose id is 0). */
export function workerThreadId() {
  return threadId;
}

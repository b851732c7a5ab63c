// Run by the worker bootstrap in a test (tests/infra/worker-threads/starting-nice.test.ts): reports the nice value
// its thread runs at once the bootstrap has applied one.
import { parentPort } from 'node:worker_threads';
import { thisThreadScheduling } from '../../infra/worker-threads/background-priority.ts';

parentPort!.postMessage(thisThreadScheduling().nice);

/**
 * The projection thread's worker (projections/projection-thread.ts): a composition root of its own, like main.ts
 * and cli.ts. It opens its own connections to the event store and to its lane's database (`workerData.lane`:
 * read.db's read models, or search.db's search index) from the same configuration (a worker inherits the
 * environment), applies every event to those read models, and reports the applied position; the server's thread
 * tells it when the store's head moves (through shared memory).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openEventStore, openReadModelDatabase } from './composition.ts';
import type { Config } from './infra/config.ts';
import type { EventStore } from './infra/eventstore/port.ts';
import { startWalCheckpoints } from './infra/eventstore/wal-checkpoints.ts';
import { createLogger } from './infra/logger.ts';
import { runThisThreadAt } from './infra/worker-threads/background-priority.ts';
import { nameThisThread } from './infra/worker-threads/thread-name.ts';
import { readModelProjections, searchProjections, type ReadModelLane } from './projections/index.ts';
import type { FromProjectionWorker, ToProjectionWorker } from './projections/projection-thread.ts';
import { ProjectionRunner, type ProjectionSource } from './projections/runner.ts';

/** Short transactions: here they hold no event loop, but the operator CLI's writes to read.db wait for them. */
const SLICE_MS = 5;

/**
 * The store as the runner reads it, woken by the server's thread moving the shared head (projection-thread.ts) as
 * well as by its own polling of the file. Waiting on the shared memory wakes this thread only while it waits for
 * events: a message for every append woke it (and on a busy machine gave it the core) even while it was applying.
 */
function wokenBySharedHead(store: EventStore, head: BigInt64Array): ProjectionSource {
  return {
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    waitForEvents(after, timeoutMs, signal) {
      const seen = Atomics.load(head, 0);
      if (Number(seen) > after) return Promise.resolve();
      // Resolves at once ('not-equal') when the head moved since it was read: no notice falls between the two.
      const moved = Atomics.waitAsync(head, 0, seen, timeoutMs);
      return Promise.race([moved.async ? moved.value : Promise.resolve(), store.waitForEvents(after, timeoutMs, signal)]).then(() => undefined);
    },
  };
}

if (!parentPort) throw new Error('projection-worker.ts runs as a worker thread (see projections/projection-thread.ts)');
const port = parentPort;
const { settings: config, lane, head } = workerData as { settings: Config; lane: ReadModelLane; head: BigInt64Array };
nameThisThread(lane === 'search' ? 'search-index' : 'read-models');
// The search lane is background work; the read lane is what every write's read-your-writes waits for.
if (lane === 'search') runThisThreadAt(config.SEARCH_INDEX_THREAD_NICE);
else if (config.FOREGROUND_THREAD_NICE !== undefined) runThisThreadAt(config.FOREGROUND_THREAD_NICE);
const logger = createLogger(config.LOG_LEVEL).child({ thread: lane === 'search' ? 'search-projection' : 'projections' });
const store = openEventStore(config);
const readDb = openReadModelDatabase(lane === 'search' ? config.searchModelPath : config.readModelPath);
// The server's connection leaves checkpointing the embedded store's WAL to the read lane's thread (createRuntime).
const walCheckpoints =
  config.EVENTSTORE_URL || lane === 'search'
    ? null
    : startWalCheckpoints(config.eventsPath, { onError: (error) => logger.debug({ err: error }, 'WAL checkpoint deferred') });
const runner = new ProjectionRunner(wokenBySharedHead(store, head), readDb, lane === 'search' ? searchProjections : readModelProjections, logger, { sliceMs: SLICE_MS });
runner.onProgress((position) => port.postMessage({ type: 'applied', position } satisfies FromProjectionWorker));
port.on('message', (message: ToProjectionWorker) => {
  if (message.type === 'stop') {
    void (async () => {
      await runner.stop();
      walCheckpoints?.stop();
      await store.close();
      readDb.close();
      port.postMessage({ type: 'stopped' } satisfies FromProjectionWorker);
      port.close();
    })();
  }
});
port.postMessage({ type: 'applied', position: runner.position } satisfies FromProjectionWorker);
logger.info({ position: runner.position }, 'projection thread started');
runner.start();

/**
 * The projection thread's worker (projections/projection-thread.ts): a composition root of its own, like main.ts
 * and cli.ts. It opens its own connections to the event store and to its lane's database (`workerData.lane`:
 * read.db's read models, or search.db's search index) from the same configuration (a worker inherits the
 * environment), applies every event to those read models, and reports the applied position; the server's thread
 * tells it when the store's head moves.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openEventStore, openReadModelDatabase } from './composition.ts';
import type { Config } from './infra/config.ts';
import type { EventStore } from './infra/eventstore/port.ts';
import { startWalCheckpoints } from './infra/eventstore/wal-checkpoints.ts';
import { createLogger } from './infra/logger.ts';
import { readModelProjections, searchProjections, type ReadModelLane } from './projections/index.ts';
import type { FromProjectionWorker, ToProjectionWorker } from './projections/projection-thread.ts';
import { ProjectionRunner, type ProjectionSource } from './projections/runner.ts';

/** Short transactions: here they hold no event loop, but the operator CLI's writes to read.db wait for them. */
const SLICE_MS = 5;

/** The store as the runner reads it, woken by the server's head notices as well as by its own polling of the file. */
function wokenByHeadNotices(store: EventStore, heads: { latest: number; listeners: Set<() => void> }): ProjectionSource {
  return {
    readAll: (options) => store.readAll(options),
    headPosition: () => store.headPosition(),
    waitForEvents(after, timeoutMs, signal) {
      if (heads.latest > after) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          heads.listeners.delete(check);
          resolve();
        };
        const check = () => {
          if (heads.latest > after) done();
        };
        heads.listeners.add(check);
        void store.waitForEvents(after, timeoutMs, signal).then(done, done);
      });
    },
  };
}

if (!parentPort) throw new Error('projection-worker.ts runs as a worker thread (see projections/projection-thread.ts)');
const port = parentPort;
const { settings: config, lane } = workerData as { settings: Config; lane: ReadModelLane };
const logger = createLogger(config.LOG_LEVEL).child({ thread: lane === 'search' ? 'search-projection' : 'projections' });
const store = openEventStore(config);
const readDb = openReadModelDatabase(lane === 'search' ? config.searchModelPath : config.readModelPath);
const heads = { latest: 0, listeners: new Set<() => void>() };
// The server's connection leaves checkpointing the embedded store's WAL to the read lane's thread (createRuntime).
const walCheckpoints =
  config.EVENTSTORE_URL || lane === 'search'
    ? null
    : startWalCheckpoints(config.eventsPath, { onError: (error) => logger.debug({ err: error }, 'WAL checkpoint deferred') });
const runner = new ProjectionRunner(wokenByHeadNotices(store, heads), readDb, lane === 'search' ? searchProjections : readModelProjections, logger, { sliceMs: SLICE_MS });
runner.onProgress((position) => port.postMessage({ type: 'applied', position } satisfies FromProjectionWorker));
port.on('message', (message: ToProjectionWorker) => {
  if (message.type === 'head') {
    heads.latest = Math.max(heads.latest, message.position);
    for (const listener of [...heads.listeners]) listener();
  } else if (message.type === 'stop') {
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

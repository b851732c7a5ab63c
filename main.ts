/**
 * Composition root: reads the configuration, builds the runtime (event store, read models, processes, timers),
 * serves HTTP, and shuts down cleanly on SIGTERM/SIGINT: stop accepting connections, let requests in flight
 * finish, stop the background work, close the databases.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { allProcessManagers, createRuntime } from './composition.ts';
import { createService } from './http/service.ts';
import { answerMalformedRequest } from './http/malformed-request.ts';
import { loadConfig } from './infra/config.ts';
import { lockDataDir } from './infra/storage/data-dir-lock.ts';
import { lockEventStoreFile } from './infra/storage/event-store-lock.ts';
import { createLogger } from './infra/logger.ts';
import { rememberStartingNice, runThisThreadAt, thisThreadScheduling } from './infra/worker-threads/background-priority.ts';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  // Before any thread is started, which then set their own values (background-priority.ts); the read models' thread
  // takes this one too (projection-worker.ts).
  rememberStartingNice();
  if (config.FOREGROUND_THREAD_NICE !== undefined) {
    runThisThreadAt(config.FOREGROUND_THREAD_NICE);
    const running = thisThreadScheduling().nice;
    if (running !== config.FOREGROUND_THREAD_NICE) {
      logger.warn({ requested: config.FOREGROUND_THREAD_NICE, running_at: running }, 'the event loop and read model threads could not change their priority (a nice value below 0 needs root or CAP_SYS_NICE)');
    }
  }
  const lock = lockDataDir(config.dataDirectory);
  const storeLock = config.EVENTSTORE_URL ? null : lockEventStoreFile(config.eventsPath, config.CLUSTER ? 'shared' : 'exclusive');
  if (!config.METRICS_TOKEN && !['127.0.0.1', '::1', 'localhost'].includes(config.HOST)) {
    logger.warn({ host: config.HOST }, '/metrics and /ready are open to anyone who reaches this address: set METRICS_TOKEN, or listen on loopback behind a proxy');
  }
  const runtime = createRuntime(config, logger, allProcessManagers, { projectionThread: config.PROJECTION_THREAD });
  await runtime.start();
  const service = createService(runtime);
  const server = serve({ fetch: service.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info(
      { host: info.address, port: info.port, data_dir: config.dataDirectory, eventstore: config.EVENTSTORE_URL ? 'eventstoredb' : config.eventsPath, clock: config.CLOCK, node_id: runtime.node.id, role: config.NODE_ROLE, cluster: config.CLUSTER },
      'listening',
    );
  }) as Server;
  server.on('clientError', answerMalformedRequest);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      logger.warn('requests still in flight after the grace period; closing their connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await runtime.close();
    storeLock?.release();
    lock.release();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

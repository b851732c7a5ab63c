import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CommandHandler } from './commands/handler.ts';
import { ManualClock } from './infra/clock/manual.ts';
import type { Clock } from './infra/clock/port.ts';
import { systemClock } from './infra/clock/system.ts';
import type { Config } from './infra/config.ts';
import { createEsdbEventStore } from './infra/eventstore/esdb.ts';
import type { EventStore } from './infra/eventstore/port.ts';
import { createSqliteEventStore } from './infra/eventstore/sqlite.ts';
import type { Logger } from './infra/logger.ts';
import { createFileBlobStore } from './infra/blobs/file-blob-store.ts';
import type { BlobStore } from './infra/blobs/port.ts';
import { loadUrlSigner, type UrlSigner } from './infra/signed-url.ts';
import { loadSecretBox, type SecretBox } from './infra/secret-box.ts';
import { allProjections } from './projections/index.ts';
import { ProjectionRunner } from './projections/runner.ts';
import { ProcessRunner } from './processes/runner.ts';
import { TimerScheduler } from './processes/timer-scheduler.ts';
import type { ProcessManager } from './processes/process-manager.ts';

/**
 * Everything the service is made of, built from the configuration. The server (`main.ts`) and the operator CLI
 * (`cli.ts`) both build one; only the server starts the background work (projections, processes, timers).
 */
export interface Runtime {
  config: Config;
  logger: Logger;
  clock: Clock;
  store: EventStore;
  commands: CommandHandler;
  readDb: Database.Database;
  projections: ProjectionRunner;
  processes: ProcessRunner;
  timers: TimerScheduler;
  /** Recordings and audio files (`DATA_DIR/blobs`). */
  blobs: BlobStore;
  /** Signs and checks the URLs we hand out for blobs (recording_url). */
  urlSigner: UrlSigner;
  /** Seals secrets kept in events (webhook signing secrets). */
  secrets: SecretBox;
  /** Starts projections, process managers and timers. */
  start(): Promise<void>;
  /** Stops background work and closes the databases. */
  close(): Promise<void>;
}

export function createClock(config: Config): Clock {
  if (config.CLOCK === 'manual') {
    mkdirSync(config.dataDirectory, { recursive: true });
    return new ManualClock(join(config.dataDirectory, 'manual-clock.json'), config.CLOCK_START ? new Date(config.CLOCK_START) : new Date());
  }
  return systemClock;
}

export function openReadModelDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Read models can always be rebuilt from the events: no fsync per transaction.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  return db;
}

export function createRuntime(config: Config, logger: Logger, makeProcesses: (runtime: Runtime) => ProcessManager[] = () => []): Runtime {
  mkdirSync(config.dataDirectory, { recursive: true });
  const store = config.EVENTSTORE_URL
    ? createEsdbEventStore(config.EVENTSTORE_URL)
    : createSqliteEventStore(config.eventsPath, { synchronous: config.EVENTSTORE_SYNC });
  const readDb = openReadModelDatabase(config.readModelPath);
  const clock = createClock(config);
  const commands = new CommandHandler(store);
  const projections = new ProjectionRunner(store, readDb, allProjections, logger);
  const timers = new TimerScheduler(readDb, commands, clock, logger);
  const blobs = createFileBlobStore(config.blobDirectory);
  const urlSigner = loadUrlSigner(config.urlSigningKeyPath, config.URL_SIGNING_SECRET);
  const secrets = loadSecretBox(config.secretsKeyPath, config.SECRETS_KEY);
  const runtime = { config, logger, clock, store, commands, readDb, projections, timers, blobs, urlSigner, secrets } as Runtime;
  runtime.processes = new ProcessRunner(store, readDb, makeProcesses(runtime), logger);
  runtime.start = async () => {
    projections.start();
    await runtime.processes.start();
    timers.start();
  };
  runtime.close = async () => {
    await timers.stop();
    await runtime.processes.stop();
    await projections.stop();
    await store.close();
    readDb.close();
  };
  return runtime;
}

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { CommandHandler, DEFAULT_STATE_CACHE_BYTES } from './commands/handler.ts';
import { upcast } from './domain/upcasters.ts';
import { createAnalysisPool } from './infra/analysis/analysis-pool.ts';
import { transcriptAnalysisFromConfig } from './infra/analysis/analysis-from-config.ts';
import type { TranscriptSearcher } from './infra/search/port.ts';
import { searchingAfterIndex } from './infra/search/search-after-index.ts';
import { createSearchPool } from './infra/search/search-pool.ts';
import { createDecisionPool } from './infra/worker-threads/decision-pool.ts';
import type { ComplianceEvaluator } from './infra/analysis/compliance-evaluation.ts';
import type { TranscriptAnalysis } from './infra/analysis/transcript-analysis.ts';
import { createFileBlobStore } from './infra/blobs/file-blob-store.ts';
import type { BlobStore } from './infra/blobs/port.ts';
import { SignedRecordingLinks, type RecordingLinks } from './infra/blobs/recording-links.ts';
import { ReportLinks } from './infra/blobs/report-links.ts';
import { ManualClock } from './infra/clock/manual.ts';
import { EventStoreManualClock } from './infra/clock/event-store-manual.ts';
import type { Clock } from './infra/clock/port.ts';
import { systemClock } from './infra/clock/system.ts';
import { publicBaseUrl, type Config } from './infra/config.ts';
import { loadSecretBox, type SecretBox } from './infra/crypto/secret-box.ts';
import { loadUrlSigner, type UrlSigner } from './infra/crypto/signed-url.ts';
import { createEsdbEventStore } from './infra/eventstore/esdb.ts';
import { IdempotencyStore } from './http/idempotency/store.ts';
import { READ_YOUR_WRITES_TIMEOUT_MS } from './http/read-your-writes.ts';
import type { EventStore } from './infra/eventstore/port.ts';
import { createSqliteEventStore } from './infra/eventstore/sqlite.ts';
import { withKillAfterAppend } from './infra/eventstore/failpoint.ts';
import { withUpcasting } from './infra/eventstore/upcasting.ts';
import type { Logger } from './infra/logger.ts';
import type { SpeechRecognizer } from './infra/speech/port.ts';
import { CallDomainModels } from './infra/speech/language-model/call-domain-models.ts';
import { PocketSphinxRecognizer } from './infra/speech/pocketsphinx.ts';
import { createSpeechRecognizer } from './infra/speech/recognizer-from-config.ts';
import { setSpeechToolNice } from './infra/speech/tool-thread.ts';
import { createTelephony } from './infra/telephony/create-telephony.ts';
import type { Telephony } from './infra/telephony/port.ts';
import { createCallTranscription } from './processes/analysis/call-transcription.ts';
import { createTranscriptionJobRunner, createTranscriptionWorker, laneSlots, TRANSCRIPTION_QUEUES, type JobLane } from './processes/analysis/transcription-worker.ts';
import { admitTranscriptionJob, clusterAdmissionSlots, runTranscriptionWorkItem } from './processes/analysis/cluster-admission.ts';
import type { ConversationSpeech } from './processes/calling/conversation-ports.ts';
import { createCallCarrier, createDialingProcesses } from './processes/calling/dialing.ts';
import { CALLS_QUEUE } from './processes/calling/call-runner.ts';
import { QueueConsumer } from './processes/work-queue/queue-consumer.ts';
import { EventStoreWorkQueue } from './infra/work-queue/event-store-queue.ts';
import type { WorkQueue } from './infra/work-queue/port.ts';
import { sqliteIndexStart } from './infra/work-queue/sqlite-index-start.ts';
import { createComplianceAuditRunner } from './processes/compliance/audit-runner.ts';
import { createPostCallCompliance } from './processes/compliance/post-call-evaluation.ts';
import { offlineConversationSpeech } from './processes/calling/offline-speech.ts';
import type { ProcessManager } from './processes/process-manager.ts';
import { ProcessRunner, type ProcessRunnerOptions } from './processes/runner.ts';
import { TimerScheduler } from './processes/timer-scheduler.ts';
import { fencedStore } from './processes/leadership/fenced-store.ts';
import { LeaderLease } from './processes/leadership/leader-lease.ts';
import { singletonWork } from './processes/leadership/singleton-work.ts';
import { nodeIdOf } from './infra/cluster/node-id.ts';
import { webhookProcessManagers } from './processes/webhooks/index.ts';
import { setMaxListeners } from 'node:events';
import { deliveryAttempt } from './processes/webhooks/delivery-attempt.ts';
import { DEFAULT_QUEUE_LIMITS } from './processes/webhooks/delivery-turns.ts';
import { deliverWorkItem, WEBHOOKS_QUEUE } from './processes/webhooks/work-queue-delivery.ts';
import { createReportGenerator, createReportRunAttempt, REPORTS_QUEUE } from './processes/reports/report-generator.ts';
import { generateReportWorkItem } from './processes/reports/report-queue-consumer.ts';
import { createReportMailer } from './processes/reports/report-mailer.ts';
import { createSmtpMailer } from './infra/mail/smtp-mailer.ts';
import { createReportPool, type ReportPool } from './processes/reports/report-pool.ts';
import { readModelProjections, searchProjections, type ReadModelLane } from './projections/index.ts';
import { ReadModelLanes } from './projections/read-model-lanes.ts';
import { ProjectionThread } from './projections/projection-thread.ts';
import { ProjectionRunner, type Projections } from './projections/runner.ts';

/**
 * The composition root: everything the service is made of, built from the configuration, and the only place that
 * knows the whole set. The server (`main.ts`) and the operator CLI (`cli.ts`) both build one; only the server
 * starts the background work (projections, processes, timers). Every other module receives the few ports it uses
 * as a typed parameter object (docs/architecture.md).
 */
export interface Runtime {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** The event store as readers see it: every event upcast to its type's current shape. */
  store: EventStore;
  /** The events exactly as recorded (not upcast): what the operator CLI shows auditors. */
  auditLog: Pick<EventStore, 'readStream' | 'listStreams'>;
  commands: CommandHandler;
  readDb: Database.Database;
  /** The transcript search index (search.db), a read model lane of its own (projections/read-model-lanes.ts). */
  searchDb: Database.Database;
  /**
   * The server's own records, which no event rebuilds (state.db): process checkpoints, dead letters, idempotency
   * records. Apart from read.db, so that read.db stays what may be deleted and rebuilt, and so that these frequent
   * small writes never wait for the projection thread's write lock.
   */
  stateDb: Database.Database;
  /** The read models: applied in this thread (tests, the CLI) or in the projection thread (the server). */
  projections: ReadModelLanes;
  processes: ProcessRunner;
  timers: TimerScheduler;
  /** Recordings and audio files (`DATA_DIR/blobs`). */
  blobs: BlobStore;
  /** Signs and checks the URLs we hand out for blobs. */
  urlSigner: UrlSigner;
  /** Seals secrets kept in events (webhook signing secrets). */
  secrets: SecretBox;
  /** Signs and checks the recording_url of calls. */
  recordingLinks: RecordingLinks;
  /** The carrier (TELEPHONY). */
  telephony: Telephony;
  /** Prompt synthesis (and recognition for audio-only carriers) for live calls. */
  conversationSpeech: ConversationSpeech;
  /** Audio to text for transcription jobs (SPEECH_API_URL, else PocketSphinx for English). */
  recognizer: SpeechRecognizer;
  /** Transcript search on worker threads with their own read-only connections (SEARCH_THREADS, SEARCH_BUDGET_MS). */
  transcriptSearch: TranscriptSearcher;
  /** Summary, sentiment, intent and QA scoring of transcripts, on worker threads (ANALYSIS_THREADS, ANALYSIS_BUDGET_SECONDS). */
  transcriptAnalysis: TranscriptAnalysis;
  /** The post-call compliance rules of a transcript, on the same worker threads as the analysis. */
  complianceEvaluator: ComplianceEvaluator;
  /** Signs and checks the download_url of report files. */
  reportLinks: ReportLinks;
  /** Report rendering on worker threads (REPORT_THREADS, REPORT_BUDGET_SECONDS). */
  reportPool: ReportPool;
  /** Who this node is and whether it leads (GET /health). */
  node: NodeStatus;
  /** A cluster's shared work queue (CLUSTER=true): placed calls wait there for a node to carry them. Null on a lone node. */
  workQueue: WorkQueue | null;
  /** Starts projections, process managers and timers. */
  start(): Promise<void>;
  /** Resolves once state shared by a cluster's nodes is read (the manual clock's time, with CLOCK=manual). */
  ready(): Promise<void>;
  /** Stops background work and closes the databases. */
  close(): Promise<void>;
}

/** What process managers are built from: every port, before the background work that runs them exists. */
export type RuntimePorts = Omit<Runtime, 'processes' | 'start' | 'close' | 'node' | 'ready'>;

export interface NodeStatus {
  id: string;
  role: Config['NODE_ROLE'];
  /** A lone node (CLUSTER=false) always leads; a cluster node while it holds the leader lease. */
  leading(): boolean;
}

export function createClock(config: Config, store?: EventStore): Clock {
  if (config.CLOCK === 'manual' && config.CLUSTER && store) {
    // One clock for every node: its time lives in the shared event store (infra/clock/event-store-manual.ts).
    return new EventStoreManualClock(store, config.CLOCK_START ? new Date(config.CLOCK_START) : new Date());
  }
  if (config.CLOCK === 'manual') {
    mkdirSync(config.dataDirectory, { recursive: true });
    return new ManualClock(join(config.dataDirectory, 'manual-clock.json'), config.CLOCK_START ? new Date(config.CLOCK_START) : new Date());
  }
  return systemClock;
}

/**
 * state.db. Synchronous NORMAL, as read.db had for these tables: in WAL mode a commit survives a crash of the
 * process without an fsync; a power cut may lose the last commits, which repeats a few events' process work
 * (each process tolerates a repeat) and forgets the newest idempotency records. An fsync per process checkpoint
 * cost the event loop 12 s of a 35 s profile under load.
 */
export function openStateDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  return db;
}

/** The tables that lived in read.db before state.db existed. */
const SERVER_STATE_TABLES = ['process_checkpoints', 'process_dead_letters', 'idempotency_keys'] as const;

/**
 * Moves the server's own records from an older DATA_DIR's read.db into state.db, once (then drops them from
 * read.db): without its process checkpoints a server would run every process manager from the first event again.
 * Both files are open here; the copy commits before the drop, and a table already holding rows is never
 * overwritten, so a crash in between only leaves a stale copy in read.db.
 */
function moveServerStateOutOfReadModels(readDb: Database.Database, stateDb: Database.Database, logger: Logger): void {
  for (const table of SERVER_STATE_TABLES) {
    const old = readDb.prepare('SELECT name FROM sqlite_master WHERE type = ? AND name = ?').get('table', table);
    if (!old) continue;
    const target = stateDb.prepare<[], { n: number }>(`SELECT count(*) AS n FROM "${table}"`).get()!;
    if (target.n === 0) {
      const targetColumns = new Set(stateDb.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(table).map((c) => c.name));
      const columns = readDb.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(table).map((c) => c.name).filter((name) => targetColumns.has(name));
      const rows = readDb.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`).raw().all() as unknown[][];
      const insert = stateDb.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
      stateDb.transaction(() => {
        for (const row of rows) insert.run(...row);
      })();
      logger.info({ table, rows: rows.length }, 'moved from read.db to state.db');
    }
    readDb.exec(`DROP TABLE "${table}"`);
  }
}

export function openReadModelDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // Read models can always be rebuilt from the events: no fsync per transaction.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  return db;
}

/**
 * A cluster node's share of the calls: claims placed calls from the calls queue and carries each to its end
 * (CallRunner.carry), at most WORK_CALLS_PER_NODE at once. With the API's own command handler: carrying calls is no
 * singleton work, so it is not fenced by the leader lease (the call's own stream orders it).
 */
function callQueueConsumer(ports: RuntimePorts, queue: WorkQueue, nodeId: string): QueueConsumer {
  const carrier = createCallCarrier(ports);
  return new QueueConsumer({ queue, logger: ports.logger }, { queue: CALLS_QUEUE, consumer: nodeId, concurrency: ports.config.WORK_CALLS_PER_NODE }, async (item) => {
    const callId = item.payload.call_id;
    if (typeof callId !== 'string') return { kind: 'park', reason: 'the item names no call_id' };
    await carrier.carry(callId);
    return { kind: 'ack' };
  });
}

/**
 * A cluster node's share of the transcription jobs: one consumer per lane (audio: WORKER_CONCURRENCY or the cores;
 * submitted transcripts: DEFAULT_TRANSCRIPT_CONCURRENCY), each job one attempt on its stream. A job cut short by
 * this node stopping goes back to its queue at once (nack) and runs on another node as its next attempt.
 */
function transcriptionQueueConsumers(ports: RuntimePorts, queue: WorkQueue, nodeId: string, stopping: AbortSignal): QueueConsumer[] {
  const handler = runTranscriptionWorkItem(createTranscriptionJobRunner(ports, {}, stopping), stopping);
  return Object.entries(laneSlots(ports.config)).map(
    ([lane, concurrency]) => new QueueConsumer({ queue, logger: ports.logger }, { queue: TRANSCRIPTION_QUEUES[lane as JobLane], consumer: nodeId, concurrency }, handler),
  );
}

/**
 * A cluster node's share of the webhook delivery attempts the leader admits to the `webhooks` queue. The leader's
 * admission bounds what runs in the whole cluster (DEFAULT_QUEUE_LIMITS), so one node may take every admitted
 * attempt. A node that stops lets its attempts under way finish and be recorded (each within the sender's 10 s
 * deadline), like its calls: cutting them short would have the receiver see them again from another node.
 */
function webhookQueueConsumer(ports: RuntimePorts, queue: WorkQueue, nodeId: string): QueueConsumer {
  const attempt = deliveryAttempt({ ...ports, allowPrivateTargets: ports.config.ALLOW_PRIVATE_TARGETS });
  const neverCutShort = new AbortController().signal;
  // Every attempt under way listens on it (the outbound client and http.request): expected, not a leak.
  setMaxListeners(2 * DEFAULT_QUEUE_LIMITS.total + 10, neverCutShort);
  return new QueueConsumer({ queue, logger: ports.logger }, { queue: WEBHOOKS_QUEUE, consumer: nodeId, concurrency: DEFAULT_QUEUE_LIMITS.total }, deliverWorkItem(attempt, neverCutShort));
}

/**
 * A cluster node's share of the report runs the leader puts on the `reports` queue: REPORT_THREADS at once, each
 * rendered on this node's report pool. A node that stops finishes the runs it renders (each within
 * REPORT_BUDGET_SECONDS); one that dies loses its claims and another node runs their next attempts.
 */
function reportQueueConsumer(ports: RuntimePorts, queue: WorkQueue, nodeId: string): QueueConsumer {
  const attempt = createReportRunAttempt({ ...ports, baseUrl: publicBaseUrl(ports.config) }, new AbortController().signal);
  return new QueueConsumer({ queue, logger: ports.logger }, { queue: REPORTS_QUEUE, consumer: nodeId, concurrency: ports.config.REPORT_THREADS }, generateReportWorkItem(attempt));
}

/**
 * Transcription jobs: a lone node runs them itself; a cluster's leader admits them to the lanes' work queues in its
 * fair order, as many at once as CLUSTER_WORKER_NODES nodes' consumers run (cluster-admission.ts).
 */
function transcriptionWorker(ports: RuntimePorts) {
  const { workQueue, config, logger } = ports;
  if (!workQueue) return createTranscriptionWorker(ports);
  return createTranscriptionWorker(ports, {
    admission: { slots: clusterAdmissionSlots(laneSlots(config), config.CLUSTER_WORKER_NODES), admit: admitTranscriptionJob({ workQueue, logger }) },
  });
}

/** Every work queue of a cluster (the operator CLI lists their parked items). */
export const WORK_QUEUES: readonly string[] = [CALLS_QUEUE, TRANSCRIPTION_QUEUES.audio, TRANSCRIPTION_QUEUES.transcript, WEBHOOKS_QUEUE, REPORTS_QUEUE];

/** Every process manager the server runs. */
export function allProcessManagers(ports: RuntimePorts): ProcessManager[] {
  return [
    transcriptionWorker(ports),
    createCallTranscription(ports),
    createPostCallCompliance(ports),
    createComplianceAuditRunner(ports),
    ...createDialingProcesses(ports),
    ...webhookProcessManagers(ports),
    reportGenerator(ports),
    reportMailer(ports),
  ];
}

/** Report e-mail: only with SMTP_URL (without it, POST /v1/reports refuses `email`). */
export function reportMailer(ports: RuntimePorts) {
  const { config } = ports;
  return createReportMailer({
    ...ports,
    mailer: config.SMTP_URL ? createSmtpMailer(config.SMTP_URL) : null,
    mailFrom: config.MAIL_FROM,
    maxAttachmentBytes: config.REPORT_EMAIL_MAX_ATTACHMENT_BYTES,
  });
}

export function reportGenerator(ports: RuntimePorts) {
  return createReportGenerator({ ...ports, baseUrl: publicBaseUrl(ports.config), retentionDays: ports.config.REPORT_RETENTION_DAYS, concurrency: ports.config.REPORT_THREADS });
}

/** The event store the configuration names, as it was recorded (`auditLog`). */
function openRecordedEventStore(config: Config, walCheckpoints: 'inline' | 'elsewhere' = 'inline'): EventStore {
  return config.EVENTSTORE_URL
    ? createEsdbEventStore(config.EVENTSTORE_URL)
    : createSqliteEventStore(config.eventsPath, { synchronous: config.EVENTSTORE_SYNC, walCheckpoints });
}

/** The event store as readers see it: every event in its type's current shape (domain/upcasters.ts). */
export function openEventStore(config: Config, recorded: EventStore = openRecordedEventStore(config)): EventStore {
  return withUpcasting(recorded, upcast);
}

export interface RuntimeOptions {
  processes?: ProcessRunnerOptions;
  /** Apply events to the read models on a worker thread (the server: PROJECTION_THREAD); else in this thread. */
  projectionThread?: boolean;
}

const TYPESCRIPT_WORKER = new URL('./infra/worker-threads/typescript-worker.mjs', import.meta.url).href;
const PROJECTION_WORKER = new URL('./projection-worker.ts', import.meta.url).href;

export function createRuntime(
  config: Config,
  logger: Logger,
  makeProcesses: (ports: RuntimePorts) => ProcessManager[] = () => [],
  options: RuntimeOptions = {},
): Runtime {
  mkdirSync(config.dataDirectory, { recursive: true });
  setSpeechToolNice(config.SPEECH_TOOL_NICE);
  // With a projection thread, that thread checkpoints the store's WAL (infra/eventstore/wal-checkpoints.ts).
  const storedEvents = openRecordedEventStore(config, options.projectionThread ? 'elsewhere' : 'inline');
  const upcasting = openEventStore(config, storedEvents);
  const store = config.FAILPOINT_KILL_AFTER_APPEND ? withKillAfterAppend(upcasting, config.FAILPOINT_KILL_AFTER_APPEND) : upcasting;
  const readDb = openReadModelDatabase(config.readModelPath);
  const stateDb = openStateDatabase(config.statePath);
  const clock = createClock(config, store);
  const sharedClock = clock instanceof EventStoreManualClock ? clock : null;
  const clockSynced = sharedClock ? sharedClock.sync() : Promise.resolve();
  // Awaited by start() and ready(); a failure here surfaces there, not as an unhandled rejection.
  clockSynced.catch(() => undefined);
  // Large commands (a campaign of thousands of contacts) are decided on a thread of their own, started on first use.
  const decisionPool = createDecisionPool();
  const commands = new CommandHandler(store, DEFAULT_STATE_CACHE_BYTES, decisionPool);
  // Migrates every read model (and rebuilds those whose version changed) before anything prepares a query on them.
  const runner = new ProjectionRunner(store, readDb, readModelProjections, logger);
  const searchDb = openReadModelDatabase(config.searchModelPath);
  const searchRunner = new ProjectionRunner(store, searchDb, searchProjections, logger);
  const lane = (laneRunner: ProjectionRunner, name: ReadModelLane): Projections =>
    options.projectionThread
      ? new ProjectionThread(laneRunner, store, { bootstrap: TYPESCRIPT_WORKER, workerModule: PROJECTION_WORKER, settings: config, logger, lane: name })
      : laneRunner;
  const projections = new ReadModelLanes(lane(runner, 'read'), lane(searchRunner, 'search'));
  // A cluster node does singleton work only while it holds the leader lease, and its appends carry the lease's
  // fence (processes/leadership/). A lone node does it always, with the API's own command handler, as before.
  let lease: LeaderLease | null = null;
  const singletonStore = config.CLUSTER ? fencedStore(store, () => lease?.fence ?? null) : store;
  const singletonCommands = config.CLUSTER ? new CommandHandler(singletonStore) : commands;
  const timers = new TimerScheduler(readDb, singletonCommands, clock, logger);
  const urlSigner = loadUrlSigner(config.urlSigningKeyPath, config.URL_SIGNING_SECRET);
  const workerConcurrency = config.WORKER_CONCURRENCY ?? availableParallelism();
  // Leaves a core to the event loop; at least one thread. Analysis and the compliance rules share it.
  const analysisPool = createAnalysisPool({
    threads: config.ANALYSIS_THREADS ?? Math.max(1, availableParallelism() - 1),
    budgetMs: config.ANALYSIS_BUDGET_SECONDS * 1000,
    nice: config.ANALYSIS_THREAD_NICE,
    classifier: config.ANALYSIS_CLASSIFIER === 'on',
    complianceClassifier: config.COMPLIANCE_CLASSIFIER === 'on',
  });
  const recognizer = createSpeechRecognizer({ apiUrl: config.SPEECH_API_URL, apiKey: config.SPEECH_API_KEY, model: config.SPEECH_MODEL, localConcurrency: workerConcurrency });
  const telephony = createTelephony(config, (message, fields) => logger.warn(fields ?? {}, message));
  const nodeId = nodeIdOf(config.dataDirectory, config.NODE_ID);
  const workQueue = config.CLUSTER ? new EventStoreWorkQueue(store, { claimTimeoutMs: config.WORK_CLAIM_TIMEOUT_MS, nodeId, indexStart: sqliteIndexStart(stateDb) }) : null;
  // Customer answers on a real line, heard by PocketSphinx, use a language model built from the call's script.
  const callDomainModels =
    telephony.needsPromptAudio && recognizer instanceof PocketSphinxRecognizer && config.SPEECH_CALL_DOMAIN_LM === 'on'
      ? new CallDomainModels({ cacheDirectory: join(config.dataDirectory, 'language-models'), warn: (message) => logger.warn(message) })
      : undefined;
  const ports: RuntimePorts = {
    config,
    logger,
    clock,
    store,
    auditLog: storedEvents,
    commands,
    readDb,
    searchDb,
    stateDb,
    projections,
    timers,
    blobs: createFileBlobStore(config.blobDirectory),
    urlSigner,
    secrets: loadSecretBox(config.secretsKeyPath, config.SECRETS_KEY),
    recordingLinks: new SignedRecordingLinks({ signer: urlSigner, clock, baseUrl: publicBaseUrl(config) }),
    reportLinks: new ReportLinks({ signer: urlSigner, clock, baseUrl: publicBaseUrl(config) }),
    telephony,
    // The sandbox gives the customer's words as text: its calls need synthesis only. A real line delivers audio,
    // which the configured recogniser (PocketSphinx for English, SPEECH_API_URL for every language) hears.
    conversationSpeech: telephony.needsPromptAudio ? offlineConversationSpeech({ recognizer, callDomainModels }) : offlineConversationSpeech(),
    recognizer,
    transcriptSearch: searchingAfterIndex(
      createSearchPool({
        path: config.searchModelPath,
        threads: config.SEARCH_THREADS,
        budgetMs: config.SEARCH_BUDGET_MS,
        totalsBytes: config.SEARCH_TOTALS_CACHE_BYTES,
      }),
      () => projections.waitForSearchIndex(READ_YOUR_WRITES_TIMEOUT_MS),
    ),
    transcriptAnalysis: transcriptAnalysisFromConfig(config, analysisPool, logger),
    complianceEvaluator: analysisPool,
    reportPool: createReportPool({ threads: config.REPORT_THREADS, budgetMs: config.REPORT_BUDGET_SECONDS * 1000, readModelPath: config.readModelPath, nice: config.REPORT_THREAD_NICE }),
    workQueue,
  };
  const processes = config.CLUSTER
    ? new ProcessRunner(store, stateDb, () => makeProcesses({ ...ports, store: singletonStore, commands: singletonCommands }), logger, options.processes)
    : new ProcessRunner(store, stateDb, makeProcesses(ports), logger, options.processes);
  if (config.CLUSTER) {
    lease = new LeaderLease({ store, logger }, singletonWork({ processes, timers }), { nodeId, candidate: config.NODE_ROLE !== 'api', ttlMs: config.LEADER_LEASE_MS });
  }
  const leaderLease = lease;
  // Every node that may lead also carries calls, runs transcription jobs, makes webhook delivery attempts and
  // generates report runs: it claims them from the work queues the leader fills, whoever leads.
  const consumersStopped = new AbortController();
  const consumers =
    workQueue && config.NODE_ROLE !== 'api'
      ? [
          callQueueConsumer(ports, workQueue, nodeId),
          ...transcriptionQueueConsumers(ports, workQueue, nodeId, consumersStopped.signal),
          webhookQueueConsumer(ports, workQueue, nodeId),
          reportQueueConsumer(ports, workQueue, nodeId),
        ]
      : [];
  // Creates its table: every table of state.db exists before older records are moved in.
  new IdempotencyStore(stateDb);
  moveServerStateOutOfReadModels(readDb, stateDb, logger);
  return {
    ...ports,
    processes,
    node: { id: nodeId, role: config.NODE_ROLE, leading: () => leaderLease?.leading ?? true },
    ready: () => clockSynced,
    async start() {
      await clockSynced;
      projections.start();
      await ports.telephony.start?.();
      for (const consumer of consumers) consumer.start();
      if (leaderLease) {
        leaderLease.start();
        return;
      }
      await processes.start();
      timers.start();
    },
    async close() {
      // Calls this node carries finish and record their results first (unclaimed ones wait in the queue); its
      // transcription jobs stop and go back to the queue for another node.
      consumersStopped.abort();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      if (leaderLease) {
        await leaderLease.stop();
      } else {
        await timers.stop();
        await processes.stop();
      }
      await ports.telephony.close?.();
      await sharedClock?.stop();
      await projections.stop();
      await ports.transcriptAnalysis.close();
      await ports.transcriptSearch.close();
      await ports.reportPool.close();
      await decisionPool.close();
      await callDomainModels?.close();
      await store.close();
      readDb.close();
      searchDb.close();
      stateDb.close();
    },
  };
}

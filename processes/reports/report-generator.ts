import type { Database } from 'better-sqlite3';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { reportDecider, reportRunId, reportStream, type ReportCommand, type ReportEvent } from '../../domain/report.ts';
import { timerDecider, timerStream, type TimerEvent } from '../../domain/timer.ts';
import type { BlobStore } from '../../infra/blobs/port.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { WorkQueue } from '../../infra/work-queue/port.ts';
import { runsPastRetention, unfinishedReportRuns } from '../../projections/reports.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { reportFailureMessage } from './report-failure-message.ts';
import type { ReportPool } from './report-pool.ts';
import { latestOccurrence, nextOccurrence, periodEndingAt } from './schedule.ts';

export const REPORT_GENERATOR = 'report-generator';
export const REPORT_TIMER_KIND = 'report-run';
/** A cluster's queue of runs to generate (one item per run), consumed by every node of role `all` or `worker`. */
export const REPORTS_QUEUE = 'reports';
/** Claims of a run's item before it is parked: above the run's own attempts (MAX_RUN_ATTEMPTS), which decide. */
const REPORT_ITEM_ATTEMPTS = 10;
/** Pause before the next attempt of a run whose attempt failed (× the attempt number). */
const RETRY_DELAY_MS = 1_000;
const RETENTION_SWEEP_MS = 60 * 60 * 1000;

export interface ReportGeneratorPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  blobs: BlobStore;
  reportPool: ReportPool;
  /** Where call links in reports point (publicBaseUrl). */
  baseUrl: string;
  /** How long generated files are kept (REPORT_RETENTION_DAYS). */
  retentionDays: number;
  /** Runs generated at once: the pool's threads (REPORT_THREADS). */
  concurrency: number;
  /** A cluster's work queue: runs go to it and any node generates them. Null on a lone node. */
  workQueue: WorkQueue | null;
}

type HandledEvent = Extract<ReportEvent, { type: 'ReportRunQueued' | 'ReportNextRunPlanned' }> | Extract<TimerEvent, { type: 'TimerFired' }>;

/** The durable timer of a scheduled report's next run: one per report and due time. */
export function reportTimerId(reportId: string, dueAt: string): string {
  return `report-run-${reportId}-${Date.parse(dueAt)}`;
}

/** The blob key of a run's file: chosen by the service, one per run (a retried attempt overwrites it). */
export function reportBlobKey(workspaceId: string, runId: string, format: string): string {
  return `reports/${workspaceId.toLowerCase()}/${runId.toLowerCase()}.${format}`;
}

/**
 * Generates report runs (docs/reports.md, "Generation"): a queued run is started as an attempt on the report's
 * stream, rendered on the report pool's worker threads, stored in the blob store and completed; a failed attempt
 * is retried after a pause, and after MAX_RUN_ATTEMPTS the run is `failed` with the reason. Runs wait their turn
 * in one queue, a few at a time (the pool's threads), so a burst of reports never takes the CPU from the API.
 *
 * Schedules: each planned next run is a durable timer; when it fires, the run for the period that just ended is
 * queued together with the plan of the run after it. The run's period is derived from the latest occurrence at or
 * before the firing, so a server that was down over several occurrences runs once, for the latest period, at
 * start (the catch-up rule). Run ids are derived from report and period: two servers queue a run once.
 *
 * Restart: runs still queued or generating in the read model are queued again (an interrupted attempt counts).
 * Retention: completed files older than `retentionDays` are deleted and their runs marked expired, at start and
 * hourly.
 *
 * In a cluster (`workQueue` set) this runs on the leader, which puts each queued run on the `reports` work queue;
 * every node of role `all` or `worker` claims runs from it and generates them (`createReportRunAttempt`,
 * report-queue-consumer.ts). A node that dies mid-generation loses its claim and another node runs the next attempt.
 */
export function createReportGenerator(ports: ReportGeneratorPorts): ProcessManager<HandledEvent> {
  const { commands, clock, logger, blobs } = ports;
  const queue: Array<{ reportId: string; runId: string }> = [];
  const queued = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const lifetime = new AbortController();
  let sweeper: NodeJS.Timeout | null = null;
  let running = 0;
  const concurrency = ports.concurrency;
  const generate = createReportRunAttempt(ports, lifetime.signal, () => queue.length);
  const workQueue = ports.workQueue;

  const handle = (reportId: string, workspaceId: string, command: ReportCommand) =>
    commands.handle(reportDecider, reportStream(reportId), command, { workspaceId, actor: REPORT_GENERATOR, now: clock.now() });

  /** A run to generate: in a cluster, on the reports queue for any node (enqueuing a run again changes nothing); else here, in turn. */
  async function queueRun(reportId: string, runId: string): Promise<void> {
    if (workQueue) await workQueue.enqueue(REPORTS_QUEUE, { id: runId, payload: { report_id: reportId, run_id: runId }, maxAttempts: REPORT_ITEM_ATTEMPTS });
    else enqueue(reportId, runId);
  }

  function enqueue(reportId: string, runId: string): void {
    if (queued.has(runId) || lifetime.signal.aborted) return;
    queued.add(runId);
    queue.push({ reportId, runId });
    pump();
  }

  function pump(): void {
    while (running < concurrency && queue.length > 0) {
      const next = queue.shift()!;
      running++;
      const work = generate(next.reportId, next.runId)
        .catch((error: unknown) => {
          logger.error({ err: error, report_id: next.reportId, run_id: next.runId }, 'report run could not be recorded');
          return null;
        })
        .then((retryAfterMs) => {
          queued.delete(next.runId);
          running--;
          inFlight.delete(work);
          // The pause before the next attempt holds no slot.
          if (retryAfterMs !== null) setTimeout(() => enqueue(next.reportId, next.runId), retryAfterMs).unref();
          pump();
        });
      inFlight.add(work);
    }
  }

  async function scheduleNext(event: Recorded<Extract<ReportEvent, { type: 'ReportNextRunPlanned' }>>): Promise<void> {
    const timerId = reportTimerId(event.data.report_id, event.data.next_run_at);
    await commands.handle(
      timerDecider,
      timerStream(timerId),
      { type: 'ScheduleTimer', timerId, kind: REPORT_TIMER_KIND, dueAt: new Date(event.data.next_run_at), payload: { report_id: event.data.report_id } },
      { workspaceId: event.metadata.workspace_id ?? '', actor: REPORT_GENERATOR, now: clock.now(), causationId: event.id },
    );
  }

  async function scheduledRunDue(event: Recorded<Extract<TimerEvent, { type: 'TimerFired' }>>): Promise<void> {
    const reportId = event.data.payload.report_id;
    if (typeof reportId !== 'string') return;
    const { state } = await commands.load(reportDecider, reportStream(reportId));
    const report = state.report;
    if (!report?.schedule || !state.scheduleActive) return;
    const now = clock.now();
    // Catch-up: the latest occurrence at or before now (the one due, or a later one missed while the server was down).
    const occurrence = latestOccurrence(report.schedule, now) ?? new Date(event.data.due_at);
    const period = periodEndingAt(report.schedule, occurrence);
    const result = await commands.handle(
      reportDecider,
      reportStream(reportId),
      { type: 'QueueScheduledRun', workspaceId: report.workspace_id, runId: reportRunId(reportId, period), period, nextRunAt: nextOccurrence(report.schedule, now), now },
      { workspaceId: report.workspace_id, actor: REPORT_GENERATOR, now, causationId: event.id },
      { tolerate: ['resource_not_found'] },
    );
    if (!wasRefused(result)) logger.info({ report_id: reportId, period, occurrence: occurrence.toISOString() }, 'scheduled report run queued');
  }

  async function sweepRetention(): Promise<void> {
    const before = new Date(clock.now().getTime() - ports.retentionDays * 86_400_000).toISOString();
    for (const run of runsPastRetention(ports.readDb, before, 500)) {
      if (lifetime.signal.aborted) return;
      await blobs.delete(run.blob_key);
      await handle(run.report_id, run.workspace_id, { type: 'ExpireReportRun', runId: run.run_id, now: clock.now() });
      logger.info({ report_id: run.report_id, run_id: run.run_id }, 'report file deleted after the retention period');
    }
  }

  return {
    name: REPORT_GENERATOR,
    eventTypes: ['ReportRunQueued', 'ReportNextRunPlanned', 'TimerFired'],
    async handle(event) {
      switch (event.type) {
        case 'ReportRunQueued':
          return queueRun(event.data.report_id, event.data.run_id);
        case 'ReportNextRunPlanned':
          return scheduleNext(event);
        case 'TimerFired':
          if (event.data.kind === REPORT_TIMER_KIND) return scheduledRunDue(event);
      }
    },
    start() {
      void (async () => {
        if (!(await readModelsCaughtUp(ports, lifetime.signal))) return;
        for (const run of unfinishedReportRuns(ports.readDb)) await queueRun(run.report_id, run.run_id);
        await sweepRetention().catch((error: unknown) => logger.error({ err: error }, 'report retention sweep failed'));
        sweeper = setInterval(() => void sweepRetention().catch((error: unknown) => logger.error({ err: error }, 'report retention sweep failed')), RETENTION_SWEEP_MS);
        sweeper.unref();
      })();
    },
    async stop() {
      lifetime.abort();
      if (sweeper) clearInterval(sweeper);
      queue.length = 0;
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * One attempt of a run, wherever it runs (the lone node's generator, or any cluster node's consumer of the
 * `reports` queue): starts the next attempt on the report's stream (a run finished, or an attempt started meanwhile
 * by another node, changes nothing), renders it on this node's report pool, stores the file and completes the run.
 * Answers the pause before the next attempt when this one failed and may be retried, else null. After `stopped`,
 * a failure (the pool closing) is not recorded: the run stays `generating` and is resumed as its next attempt.
 */
export function createReportRunAttempt(
  ports: Pick<ReportGeneratorPorts, 'commands' | 'clock' | 'logger' | 'blobs' | 'reportPool' | 'baseUrl'>,
  stopped: AbortSignal,
  waiting: () => number = () => 0,
): (reportId: string, runId: string) => Promise<number | null> {
  const { commands, clock, logger, blobs, reportPool } = ports;
  const handle = (reportId: string, workspaceId: string, command: ReportCommand) =>
    commands.handle(reportDecider, reportStream(reportId), command, { workspaceId, actor: REPORT_GENERATOR, now: clock.now() });
  return async function generate(reportId: string, runId: string): Promise<number | null> {
    const { state } = await commands.load(reportDecider, reportStream(reportId));
    const report = state.report;
    const run = state.runs[runId];
    if (!report || !run || run.status === 'completed' || run.status === 'failed') return null;
    const attempt = run.attempts + 1;
    const workspaceId = report.workspace_id;
    const started = await handle(reportId, workspaceId, { type: 'StartReportRun', runId, attempt, now: clock.now() });
    if (started.events.length === 0) return null;
    const startedMs = performance.now();
    logger.info({ report_id: reportId, run_id: runId, attempt, type: report.type, format: report.format, period: run.period, waiting: waiting() }, 'report run started');
    try {
      const result = await reportPool.generate({
        report_id: reportId,
        run_id: runId,
        workspace_id: workspaceId,
        type: report.type,
        format: report.format,
        period: run.period,
        timezone: report.timezone,
        filters: report.filters,
        base_url: ports.baseUrl,
        generated_at: clock.now().toISOString(),
      });
      logger.info({ report_id: reportId, run_id: runId, collect_ms: result.collect_ms, render_ms: result.render_ms, bytes: result.bytes.byteLength, worker_rss_mb: Math.round(result.rss_bytes / 1048576) }, 'report run rendered');
      const blobKey = reportBlobKey(workspaceId, runId, report.format);
      await blobs.put(blobKey, result.bytes);
      await handle(reportId, workspaceId, {
        type: 'CompleteReportRun',
        runId,
        attempt,
        output: { blob_key: blobKey, content_type: result.content_type, file_name: result.file_name, size_bytes: result.bytes.byteLength },
        now: clock.now(),
      });
      logger.info({ report_id: reportId, run_id: runId, attempt, ms: Math.round(performance.now() - startedMs) }, 'report run completed');
      return null;
    } catch (error) {
      // Stopping: the run stays `generating` and is resumed as the next attempt after the restart.
      if (stopped.aborted) return null;
      const message = reportFailureMessage(error, runId);
      const failed = await handle(reportId, workspaceId, { type: 'FailReportRunAttempt', runId, attempt, error: { code: 'generation_failed', message }, final: false, now: clock.now() });
      const final = failed.events.some((event) => event.type === 'ReportRunFailed');
      logger.warn({ report_id: reportId, run_id: runId, attempt, err: error, final }, final ? 'report run failed' : 'report run attempt failed; retrying');
      return final ? null : RETRY_DELAY_MS * attempt;
    }
  };
}

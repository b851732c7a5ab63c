import type { Database } from 'better-sqlite3';
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobCommand, type TranscriptionJobEvent } from '../../domain/transcription-job.ts';
import type { TranscriptAnalysis } from '../../infra/analysis/transcript-analysis.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Config } from '../../infra/config.ts';
import type { SpeechRecognizer } from '../../infra/speech/port.ts';
import { unfinishedTranscriptionJobs } from '../../projections/transcription-jobs.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import { analyseJob } from './analyse-job.ts';
import { DEFAULT_MAX_AUDIO_BYTES, DEFAULT_MAX_AUDIO_SECONDS, type DownloadDeadlines } from './download-audio.ts';
import { FairJobQueue, type QueuedJob } from './fair-job-queue.ts';
import { JobFailure } from './job-failure.ts';

export const TRANSCRIPTION_WORKER = 'transcription-worker';

/** Attempts a job gets when the process dies under it; after the last one it fails as `processing_interrupted`. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * Slots of the transcript lane. Its jobs need no download and no recognition (only the analysis, which runs on
 * the analysis pool's threads), so two are plenty; two, not one, so that the per-workspace cap (fair-job-queue.ts) keeps one for
 * another workspace while a workspace floods the lane. More slots let more of a flood run at once: in a cluster
 * (slots × CLUSTER_WORKER_NODES admitted), eight a node made another workspace's single job finish along with the
 * flood's sixteen in flight instead of before them (tests/http/cluster.test.ts).
 */
export const DEFAULT_TRANSCRIPT_CONCURRENCY = 2;

/** Jobs run in two lanes with their own slots: a submitted transcript never waits behind audio. */
export type JobLane = 'audio' | 'transcript';

/** A node's slots per lane: audio WORKER_CONCURRENCY (else the number of cores), transcripts DEFAULT_TRANSCRIPT_CONCURRENCY. */
export function laneSlots(config: Pick<Config, 'WORKER_CONCURRENCY'>): Record<JobLane, number> {
  return { audio: config.WORKER_CONCURRENCY ?? availableParallelism(), transcript: DEFAULT_TRANSCRIPT_CONCURRENCY };
}

/** A job with a submitted transcript needs no download and no recognition: the transcript lane. */
export function jobLane(job: { transcript: readonly unknown[] | null }): JobLane {
  return job.transcript !== null ? 'transcript' : 'audio';
}

export interface TranscriptionWorkerPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  /** Audio to text: from SPEECH_API_URL/KEY/MODEL, PocketSphinx for English without it (composition.ts). */
  recognizer: SpeechRecognizer;
  /** Summary, sentiment, intent and QA over a transcript, on worker threads within a time budget (composition.ts). */
  transcriptAnalysis: TranscriptAnalysis;
  /** ALLOW_PRIVATE_TARGETS for downloads, WORKER_CONCURRENCY, and DATA_DIR for the audio being transcribed. */
  config: Pick<Config, 'ALLOW_PRIVATE_TARGETS' | 'WORKER_CONCURRENCY' | 'dataDirectory'>;
}

export interface TranscriptionWorkerOptions {
  /** Audio jobs run at once (the audio lane); default WORKER_CONCURRENCY, else the number of cores. */
  concurrency?: number;
  /** Transcript jobs run at once (the transcript lane); default DEFAULT_TRANSCRIPT_CONCURRENCY. */
  transcriptConcurrency?: number;
  maxAttempts?: number;
  /** Default 500 MB (tests make it small). */
  maxAudioBytes?: number;
  /** Default 4 hours. */
  maxAudioSeconds?: number;
  /** Default: the whole download within 30 minutes, at least 32 KB/s on average after 30 s (tests make them small). */
  downloadDeadlines?: DownloadDeadlines;
  /**
   * Default: this process runs the jobs its fair queue starts. With `admission` (a cluster's leader), the fair
   * queue's slots are the cluster's (`slots`, replacing `concurrency` and `transcriptConcurrency`), and a job that
   * takes a slot is admitted to its lane's work queue, where any node runs it (`createTranscriptionJobRunner`);
   * `admit` resolves when the job's item is finished, and only then is the slot free (cluster-admission.ts).
   */
  admission?: {
    slots: Record<JobLane, number>;
    admit(job: QueuedJob<JobLane>, signal: AbortSignal): Promise<void>;
  };
}

/** The work queue of each lane, in a cluster (docs/operations.md, "Work queue"). */
export const TRANSCRIPTION_QUEUES: Record<JobLane, string> = { audio: 'transcriptions_audio', transcript: 'transcriptions_transcript' };

/** The job events the worker reacts to. */
type SubmittedJob = Extract<TranscriptionJobEvent, { type: 'TranscriptionJobSubmitted' }>;

/**
 * Runs transcription jobs. The process manager's loop only queues a submitted job and moves on (a job may take
 * minutes; the event log must not wait for it), and a fair queue (fair-job-queue.ts) chooses what runs: jobs
 * with an audio_url in the audio lane (`concurrency` slots), jobs with a submitted transcript in the transcript
 * lane (`transcriptConcurrency` slots), each workspace with its own queue in each lane, so one workspace's slow
 * downloads or flood of jobs cannot keep another's waiting. Each run is an attempt on the job's stream:
 * `StartTranscriptionJob {attempt}` first, then `CompleteTranscriptionJob` or `FailTranscriptionJob` for that
 * attempt.
 *
 * Restarts: the checkpoint has moved past the submissions of jobs that were queued or running when the process
 * stopped, so on start the worker waits until the read models have caught up with the event store and queues
 * every job still `pending` or `processing` there. A `processing` job was interrupted; it runs again as the next
 * attempt, and after `maxAttempts` interrupted attempts it fails with `processing_interrupted` (a recording
 * that crashes the process every time must not crash it forever).
 *
 * On a cluster's leader (`admission`), the same fair queue admits jobs to the lanes' work queues instead of running
 * them, with the cluster's slots, and holds each slot until the job's item is finished on whichever node ran it
 * (cluster-admission.ts). A new leader's recovery queues every unfinished job again: one still running on another
 * node is found as the same item, and its slot is held until it finishes.
 */
export function createTranscriptionWorker(ports: TranscriptionWorkerPorts, options: TranscriptionWorkerOptions = {}): ProcessManager<SubmittedJob> & { idle(): Promise<void> } {
  const { config, logger } = ports;
  const { admission } = options;
  const slots = admission?.slots ?? { audio: options.concurrency ?? laneSlots(config).audio, transcript: options.transcriptConcurrency ?? DEFAULT_TRANSCRIPT_CONCURRENCY };
  const queue = new FairJobQueue<JobLane>({ transcript: slots.transcript, audio: slots.audio });
  const lifetime = new AbortController();
  // Every job running or admitted may listen for the stop (downloads, a leader's wait for a job's item): expected, not a leak.
  setMaxListeners(2 * (slots.audio + slots.transcript) + 10, lifetime.signal);
  const { run } = createTranscriptionJobRunner(ports, options, lifetime.signal, () => queue.waiting);
  const inFlight = new Set<Promise<void>>();
  let recovery: Promise<void> = Promise.resolve();

  /** Queues a job (once: a job already queued or running is not queued again) and starts what may start. */
  function enqueue(job: QueuedJob<JobLane>): void {
    if (lifetime.signal.aborted || !queue.add(job)) return;
    startReady();
  }

  /**
   * Starts (or, on a cluster's leader, admits) every job the queue lets start now; each one's end frees its slot
   * and starts the next.
   */
  function startReady(): void {
    if (lifetime.signal.aborted) return;
    for (let next = queue.next(); next !== undefined; next = queue.next()) {
      const { jobId } = next;
      const task: Promise<void> = (admission ? admission.admit(next, lifetime.signal) : run(jobId))
        .catch((error: unknown) => logger.error({ err: error, job_id: jobId }, 'transcription worker could not run (or admit) a job; it is resumed on the next start'))
        .finally(() => {
          queue.finish(jobId);
          inFlight.delete(task);
          // Before `task` settles, so `idle()` sees the jobs that take its slot.
          startReady();
        });
      inFlight.add(task);
    }
  }

  async function recover(): Promise<void> {
    // Resuming from a stale read model would skip jobs.
    if (!(await readModelsCaughtUp(ports, lifetime.signal))) return;
    const unfinished = unfinishedTranscriptionJobs(ports.readDb);
    if (unfinished.length > 0) logger.info({ jobs: unfinished.length }, 'resuming unfinished transcription jobs');
    for (const job of unfinished) enqueue({ jobId: job.job_id, workspaceId: job.workspace_id, lane: job.has_transcript ? 'transcript' : 'audio' });
  }

  return {
    name: TRANSCRIPTION_WORKER,
    eventTypes: ['TranscriptionJobSubmitted'],
    start() {
      recovery = recover().catch((error: unknown) => logger.error({ err: error }, 'resuming transcription jobs failed'));
    },
    async handle(event) {
      enqueue({ jobId: event.data.job_id, workspaceId: event.data.workspace_id, lane: jobLane(event.data) });
    },
    async stop() {
      lifetime.abort();
      await recovery;
      await Promise.all([...inFlight]);
    },
    /** Resolves when nothing is queued or running (tests, benchmarks). */
    async idle() {
      await recovery;
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

/**
 * Runs one job as one attempt on its stream (`StartTranscriptionJob {attempt}`, then complete or fail): the fair
 * queue of a lone node calls it, and so does each cluster node for a job it claimed from a lane's work queue. A job
 * found `processing` was interrupted (its process died, or in a cluster the node holding its claim): it runs as the
 * next attempt, and after `maxAttempts` interrupted attempts it fails with `processing_interrupted`.
 */
export function createTranscriptionJobRunner(
  ports: TranscriptionWorkerPorts,
  options: Pick<TranscriptionWorkerOptions, 'maxAttempts' | 'maxAudioBytes' | 'maxAudioSeconds' | 'downloadDeadlines'>,
  lifetimeSignal: AbortSignal,
  waiting: () => number = () => 0,
): { run(jobId: string): Promise<void> } {
  const { config, logger, commands, clock } = ports;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const lifetime = { signal: lifetimeSignal };
  const dependencies = {
    recognizer: ports.recognizer,
    transcriptAnalysis: ports.transcriptAnalysis,
    policy: { allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS, protocols: ['http:', 'https:'] as const },
    workDirectory: join(config.dataDirectory, 'tmp', 'transcription'),
    maxAudioBytes: options.maxAudioBytes ?? DEFAULT_MAX_AUDIO_BYTES,
    maxAudioSeconds: options.maxAudioSeconds ?? DEFAULT_MAX_AUDIO_SECONDS,
    downloadDeadlines: options.downloadDeadlines,
    logger,
  };
  const command = (workspaceId: string, jobId: string, body: TranscriptionJobCommand) =>
    commands.handle(transcriptionJobDecider, transcriptionJobStream(jobId), body, { workspaceId, actor: TRANSCRIPTION_WORKER, now: clock.now() });

  async function run(jobId: string): Promise<void> {
    if (lifetime.signal.aborted) return;
    const { state } = await commands.load(transcriptionJobDecider, transcriptionJobStream(jobId));
    const job = state.job;
    if (job === null || (state.status !== 'pending' && state.status !== 'processing')) return;
    const now = () => clock.now().toISOString();
    if (state.status === 'processing' && state.attempts >= maxAttempts) {
      const message = `the job was interrupted ${state.attempts} times (the service stopped while it ran) and is not tried again`;
      await command(job.workspace_id, jobId, { type: 'FailTranscriptionJob', data: { attempt: state.attempts, error: { code: 'processing_interrupted', message }, failed_at: now() } });
      logger.warn({ job_id: jobId, attempts: state.attempts }, 'transcription job failed after repeated interruptions');
      return;
    }
    const attempt = state.attempts + 1;
    const started = await commands.handle(
      transcriptionJobDecider,
      transcriptionJobStream(jobId),
      { type: 'StartTranscriptionJob', data: { attempt, started_at: now() } },
      { workspaceId: job.workspace_id, actor: TRANSCRIPTION_WORKER, now: clock.now() },
      { tolerate: ['already_exists', 'invalid_state'] },
    );
    // Another worker (or an earlier run of this one) started it: not ours to run.
    if (wasRefused(started)) return;
    const startedMs = Date.now();
    logger.info({ job_id: jobId, attempt, source: job.audio_url !== null ? 'audio_url' : 'transcript', features: job.features, waiting: waiting() }, 'transcription job started');
    try {
      const result = await analyseJob(job, dependencies, lifetime.signal);
      await command(job.workspace_id, jobId, { type: 'CompleteTranscriptionJob', data: { attempt, result, completed_at: now() } });
      logger.info({ job_id: jobId, attempt, ms: Date.now() - startedMs, segments: result.transcript.length }, 'transcription job completed');
    } catch (error) {
      // Stopping: the job stays `processing` and is resumed as the next attempt after the restart.
      if (lifetime.signal.aborted) return;
      if (!(error instanceof JobFailure)) throw error;
      await command(job.workspace_id, jobId, { type: 'FailTranscriptionJob', data: { attempt, error: { code: error.code, message: error.message }, failed_at: now() } });
      logger.info({ job_id: jobId, attempt, code: error.code, ms: Date.now() - startedMs }, 'transcription job failed');
    }
  }

  return { run };
}

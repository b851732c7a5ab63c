// A transcript job whose analysis runs past ANALYSIS_BUDGET_SECONDS fails with `analysis_budget_exceeded`, one whose
// analysis thread dies fails with `analysis_failed`; neither is retried, and the event loop stays responsive while
// they run. The transcription worker over the real event store, with the analysis pool running injected workers.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobSubmittedData } from '../../../domain/transcription-job.ts';
import { createAnalysisPool, type AnalysisPool } from '../../../infra/analysis/analysis-pool.ts';
import { createTranscriptionWorker } from '../../../processes/analysis/transcription-worker.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';
import { RENEWAL_TRANSCRIPT } from '../../support/transcripts.ts';

const MAX_EVENT_LOOP_LAG_MS = 200;

const pools: AnalysisPool[] = [];
function poolRunning(worker: 'spinning' | 'greedy', options: { budgetMs: number; maxHeapMb?: number }): AnalysisPool {
  const pool = createAnalysisPool({ threads: 1, ...options, workerModule: new URL(`../../support/analysis-workers/${worker}.ts`, import.meta.url).href });
  pools.push(pool);
  return pool;
}

function submission(jobId: string): TranscriptionJobSubmittedData {
  return {
    job_id: jobId, workspace_id: 'ws_1', audio_url: null, transcript: RENEWAL_TRANSCRIPT, language: 'en-IN', speakers: 2,
    features: ['transcription', 'summary', 'sentiment', 'intent'], qa_scorecard_id: null, qa_scorecard: null, metadata: null, call_id: null,
    disposition: null, submitted_at: '2026-03-01T10:00:00.000Z',
  };
}

/** Runs one job through a transcription worker whose analysis is `pool`; returns the job's events and the worst event-loop delay. */
async function runJob(pool: AnalysisPool, jobId: string): Promise<{ events: Array<{ type: string; data: any }>; maxLagMs: number }> {
  const { runtime, remove } = testRuntime({ processes: (ports) => [createTranscriptionWorker({ ...ports, transcriptAnalysis: pool })] });
  await runtime.start();
  await pool.workerThreadId(); // the thread's start is not what is measured
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    await submit(runtime, submission(jobId));
    await eventually(async () => (await runtime.commands.load(transcriptionJobDecider, transcriptionJobStream(jobId))).state.status === 'failed', 10_000, `job ${jobId} to fail`);
    histogram.disable();
    const events = (await runtime.store.readStream(transcriptionJobStream(jobId))).map((event) => ({ type: event.type, data: event.data as any }));
    return { events, maxLagMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
    await runtime.close();
    remove();
  }
}

async function submit(runtime: Runtime, data: TranscriptionJobSubmittedData): Promise<void> {
  await runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(data.job_id), { type: 'SubmitTranscriptionJob', data }, { workspaceId: data.workspace_id, actor: 'test', now: runtime.clock.now() });
}

test.after(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

test('an analysis past its 50 ms budget: the job fails with analysis_budget_exceeded, once, and the event loop never waits', async () => {
  const { events, maxLagMs } = await runJob(poolRunning('spinning', { budgetMs: 50 }), 'job_budget_1');
  console.log(`  budget exceeded: event-loop lag at most ${maxLagMs.toFixed(0)} ms`);
  assert.equal(events.map((event) => event.type), ['TranscriptionJobSubmitted', 'TranscriptionJobStarted', 'TranscriptionJobFailed']);
  const { error, attempt } = events[2]!.data;
  assert.is(error.code, 'analysis_budget_exceeded');
  assert.is(error.message, 'the analysis took longer than its budget of 0.05 s and was stopped; retrying the same transcript cannot help (send a shorter one)');
  assert.is(attempt, 1);
  assert.ok(maxLagMs < MAX_EVENT_LOOP_LAG_MS, `${maxLagMs} ms`);
});

test('an analysis thread that runs out of memory: the job fails with analysis_failed, the process lives on', async () => {
  const { events, maxLagMs } = await runJob(poolRunning('greedy', { budgetMs: 30_000, maxHeapMb: 32 }), 'job_oom_1');
  assert.equal(events.map((event) => event.type), ['TranscriptionJobSubmitted', 'TranscriptionJobStarted', 'TranscriptionJobFailed']);
  assert.equal(events[2]!.data.error, { code: 'analysis_failed', message: 'the analysis ran out of memory and was stopped (send a shorter transcript)' });
  assert.ok(maxLagMs < MAX_EVENT_LOOP_LAG_MS, `${maxLagMs} ms`);
});

test.run();

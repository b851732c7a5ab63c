/**
 * `npm run bench:analysis`: the analysis module's figures in one run.
 *
 *   1. Recogniser real-time factor and WER on a 5-minute two-channel call (bench/speech.ts), stereo and mono.
 *   2. End-to-end latency of a job from submission to `completed` for that call through the real worker: a
 *      runtime on a temporary DATA_DIR (SQLite event store and read models), the recording served over HTTP on
 *      127.0.0.1, the streaming download, ffmpeg, PocketSphinx, diarisation and every text feature.
 *   3. Text-analysis throughput and intent / sentiment accuracy per language on the labelled sets
 *      (bench/analysis-text.ts), the tuned set and the held-out slice reported separately.
 *   4. Sentiment sign agreement and intent accuracy per language on the second slice (tuned on since round 3 of
 *      issue 18), the third (training data of the call classifier) and the fourth, held-out slice: recorded columns
 *      and now, the rules alone, then the fourth slice with the call classifier (bench/analysis-sentiment.ts).
 *   5. Summary quality per language, before (main's summarizer) and after, on labelled calls
 *      (bench/analysis-summary.ts): outcome, request and amount stated; boilerplate sentences chosen.
 *
 * Options: --minutes N (default 5), --runs N (speech runs, default 3), --job-runs N (default 2).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createRuntime, type Runtime } from '../composition.ts';
import { transcriptionJobDecider, transcriptionJobStream } from '../domain/transcription-job.ts';
import { loadConfig } from '../infra/config.ts';
import { newId } from '../infra/ids.ts';
import { createLogger } from '../infra/logger.ts';
import { buildSampleCall } from '../infra/speech/sample-call.ts';
import { encodeWav } from '../infra/speech/wav.ts';
import { wordErrorRate } from '../infra/speech/wer.ts';
import { createTranscriptionWorker } from '../processes/analysis/transcription-worker.ts';
import { measureTextAnalysis, type AccuracyFigures } from './analysis-text.ts';
import { BEFORE_COMMIT, measureSummaryQuality, printSummaryQuality } from './analysis-summary.ts';
import { describe, measureSpeechRecognition, SCRIPT } from './speech.ts';
import { analyzerFor, measureSentimentSlices, printSentimentSlice } from './analysis-sentiment.ts';

function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface JobLatency {
  audioSeconds: number;
  latencySeconds: number[];
  wordErrorRate: number;
  segments: number;
}

/** Submits the call as an audio_url job `runs` times and times each from the append to `completed`. */
async function measureJobLatency(minutes: number, runs: number): Promise<JobLatency> {
  const call = await buildSampleCall(SCRIPT, { minDurationSeconds: minutes * 60 });
  const wav = encodeWav(call.audio);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
    response.end(wav);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/call.wav`;
  const dataDir = mkdtempSync(join(tmpdir(), 'analysis-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, ALLOW_PRIVATE_TARGETS: 'true', EVENTSTORE_SYNC: 'normal' });
  const runtime: Runtime = createRuntime(config, createLogger('warn'), (r) => [createTranscriptionWorker(r)]);
  await runtime.start();
  const latencySeconds: number[] = [];
  let text = '';
  let segments = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const jobId = newId('job');
      const started = performance.now();
      await runtime.commands.handle(
        transcriptionJobDecider,
        transcriptionJobStream(jobId),
        {
          type: 'SubmitTranscriptionJob',
          data: {
            job_id: jobId,
            workspace_id: 'ws_bench',
            audio_url: url,
            transcript: null,
            language: 'en-IN',
            speakers: 2,
            features: ['transcription', 'summary', 'sentiment', 'intent'],
            qa_scorecard_id: null,
            qa_scorecard: null,
            metadata: null,
            call_id: null,
            disposition: null,
            submitted_at: new Date().toISOString(),
          },
        },
        { workspaceId: 'ws_bench', actor: 'bench', now: new Date() },
      );
      for (;;) {
        const events = await runtime.store.readStream(transcriptionJobStream(jobId));
        const last = events[events.length - 1]!;
        if (last.type === 'TranscriptionJobFailed') throw new Error(`job failed: ${JSON.stringify(last.data.error)}`);
        if (last.type === 'TranscriptionJobCompleted') {
          latencySeconds.push((performance.now() - started) / 1000);
          const transcript = last.data.transcript as Array<{ text: string }>;
          text = transcript.map((segment) => segment.text).join(' ');
          segments = transcript.length;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await runtime.close();
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const reference = call.lines.map((line) => line.text).join(' ');
  return { audioSeconds: call.durationSeconds, latencySeconds, wordErrorRate: wordErrorRate(reference, text).rate, segments };
}

function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

function printAccuracy(rows: readonly AccuracyFigures[]): void {
  console.log(`  ${'group'.padEnd(9)} ${'calls'.padStart(5)} ${'intent'.padStart(7)} ${'sentiment sign'.padStart(15)}`);
  for (const row of rows) {
    console.log(`  ${row.group.padEnd(9)} ${String(row.transcripts).padStart(5)} ${percent(row.intentAccuracy).padStart(7)} ${percent(row.sentimentSignAgreement).padStart(15)}`);
  }
}

const minutes = numberArgument('minutes', 5);
const speechRuns = numberArgument('runs', 3);
const jobRuns = numberArgument('job-runs', 2);

console.log(`Analysis benchmark (${availableParallelism()} cores; shared machine: quote medians of several runs)\n`);

const speech = await measureSpeechRecognition({ minutes, runs: speechRuns });
console.log(`1. Recogniser (PocketSphinx, ${speech.concurrency} processes), target RTF <= 0.5`);
console.log(describe('stereo call (channel diarisation)', speech.stereo));
console.log(describe('mono mix (pitch diarisation)', speech.mono));

const job = await measureJobLatency(minutes, jobRuns);
console.log(`\n2. Job latency, submission to completed, ${job.audioSeconds.toFixed(0)} s stereo call over HTTP through the worker`);
console.log(`  runs: ${job.latencySeconds.map((seconds) => `${seconds.toFixed(1)} s`).join(', ')}; median ${median(job.latencySeconds).toFixed(1)} s`);
console.log(`  = ${(median(job.latencySeconds) / job.audioSeconds).toFixed(2)} x the audio duration; WER ${percent(job.wordErrorRate)}; ${job.segments} segments`);

const text = measureTextAnalysis();
console.log(`\n3. Text analysis: ${text.transcriptsPerSecond.toFixed(0)} transcripts/s (summary + sentiment + intent + QA, median of ${text.runs} runs, one core)`);
for (const set of text.sets) {
  const what = set.set === 'tuned' ? 'tuned set (lexicons grown on it)' : 'first held-out slice (tuned on since issue 18: quote section 4, third slice)';
  console.log(`\n  ${what}: ${relative(process.cwd(), set.dataPath)}`);
  printAccuracy([...set.byLanguage, set.overall]);
}

console.log('\n4. Sentiment sign and intent per language on the issue-18 slices (recorded columns, then now)');
for (const slice of measureSentimentSlices()) {
  console.log(`\n  ${slice.title}, rules alone`);
  printSentimentSlice(slice);
}
// The trained classifier's training data are slices 1-4 and the round-5 training calls: the fifth and sixth slices
// say how it does on new calls (the sixth is the one the committed model was run on once).
for (const slice of measureSentimentSlices(['held_out_5', 'held_out_6'], analyzerFor('classifier'))) {
  console.log(`\n  ${slice.title}, rules + call classifier (ANALYSIS_CLASSIFIER=on)`);
  printSentimentSlice(slice);
}

const summaries = await measureSummaryQuality();
console.log(`\n5. Summary quality, before (summary.ts of ${BEFORE_COMMIT}) and after: share stating the outcome / the customer's request / the amount spoken; summaries with a boilerplate sentence (target 0)`);
printSummaryQuality(summaries.results);

// The transcription worker over real parts: the SQLite event store and read models, audio served by a local
// HTTP server, the SSRF-guarded download, ffmpeg and PocketSphinx, and the lexicon analyzer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import {
  transcriptionJobDecider,
  transcriptionJobStream,
  type TranscriptionJobState,
  type TranscriptionJobSubmittedData,
} from '../../../domain/transcription-job.ts';
import { findTranscriptionJobDocument } from '../../../projections/transcription-jobs.ts';
import { createTranscriptionWorker, type TranscriptionWorkerOptions } from '../../../processes/analysis/transcription-worker.ts';
import { buildSampleCall, type ScriptLine } from '../../../infra/speech/sample-call.ts';
import { synthesize } from '../../../infra/speech/synthesize.ts';
import { encodeWav } from '../../../infra/speech/wav.ts';
import { wordErrorRate } from '../../../infra/speech/wer.ts';
import { freePort } from '../../support/server.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';
import { RENEWAL_TRANSCRIPT } from '../../support/transcripts.ts';

const SCRIPT: ScriptLine[] = [
  { side: 'agent', text: 'Good morning, I am calling from the bank about your loan.' },
  { side: 'customer', text: 'Yes, I have a few minutes to talk.' },
  { side: 'agent', text: 'Thank you very much. Have a nice day.' },
];
const REFERENCE = SCRIPT.map((line) => line.text).join(' ');
const LIMIT_BYTES = 3 * 1024 * 1024;
const LIMIT_SECONDS = 60;

const call = await buildSampleCall(SCRIPT);
const callWav = encodeWav(call.audio);
const hindi = await synthesize('नमस्ते, मैं बैंक से बोल रही हूँ।', 'hi-IN');
const hindiWav = encodeWav({ sampleRate: hindi.sampleRate, channels: [hindi.pcm] });

/** A WAV header announcing two minutes of 16 kHz mono audio, followed by a little of it. */
function longWavStart(): Buffer {
  const header = encodeWav({ sampleRate: 16_000, channels: [new Int16Array(16_000)] });
  header.writeUInt32LE(120 * 32_000, 40);
  return header;
}

const audioServer: Server = createServer((request, response) => {
  switch (request.url) {
    case '/call.wav':
      response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': callWav.length });
      return void response.end(callWav);
    case '/moved':
      response.writeHead(302, { location: '/call.wav' });
      return void response.end();
    case '/hindi.wav':
      response.writeHead(200, { 'content-type': 'audio/wav' });
      return void response.end(hindiWav);
    case '/notes.txt':
      response.writeHead(200, { 'content-type': 'text/plain' });
      return void response.end('These are meeting notes, not a recording.\n'.repeat(200));
    case '/endless': {
      // No Content-Length: the limit must stop the read while it streams.
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (response.write(chunk)) {
          /* fill the socket buffer */
        }
      };
      response.on('drain', pump);
      response.on('close', () => response.off('drain', pump));
      return pump();
    }
    case '/declared-huge':
      response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(10 * LIMIT_BYTES) });
      return void response.write(Buffer.alloc(1024));
    case '/long.wav':
      response.writeHead(200, { 'content-type': 'audio/wav' });
      return void response.write(longWavStart());
    default:
      response.writeHead(404);
      response.end();
  }
});
await new Promise<void>((resolve) => audioServer.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;
const closedPort = await freePort();

const WORKER: TranscriptionWorkerOptions = { concurrency: 2, maxAudioBytes: LIMIT_BYTES, maxAudioSeconds: LIMIT_SECONDS };

function startRuntime(options: { allowPrivate?: boolean; dataDir?: string; worker?: boolean } = {}) {
  const made = testRuntime({
    dataDir: options.dataDir,
    environment: { ALLOW_PRIVATE_TARGETS: options.allowPrivate === false ? 'false' : 'true' },
    processes: options.worker === false ? () => [] : (runtime) => [createTranscriptionWorker(runtime, WORKER)],
  });
  return made;
}

let counter = 0;
function submission(overrides: Partial<TranscriptionJobSubmittedData>): TranscriptionJobSubmittedData {
  counter += 1;
  return {
    job_id: `job_test${counter}`,
    workspace_id: 'ws_1',
    audio_url: null,
    transcript: null,
    language: 'en-IN',
    speakers: 2,
    features: ['transcription'],
    qa_scorecard_id: null,
    qa_scorecard: null,
    metadata: { ticket: counter },
    call_id: null,
    disposition: null,
    submitted_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

async function submit(runtime: Runtime, data: TranscriptionJobSubmittedData): Promise<string> {
  await runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(data.job_id), { type: 'SubmitTranscriptionJob', data }, { workspaceId: data.workspace_id, actor: 'test', now: runtime.clock.now() });
  return data.job_id;
}

async function finished(runtime: Runtime, jobId: string, timeoutMs = 60_000): Promise<TranscriptionJobState & { events: string[] }> {
  let state: TranscriptionJobState | undefined;
  await eventually(
    async () => {
      state = (await runtime.commands.load(transcriptionJobDecider, transcriptionJobStream(jobId))).state;
      return state.status === 'completed' || state.status === 'failed';
    },
    timeoutMs,
    `job ${jobId} to finish`,
  );
  const events = (await runtime.store.readStream(transcriptionJobStream(jobId))).map((event) => event.type);
  return { ...state!, events };
}

async function finalEvent(runtime: Runtime, jobId: string): Promise<Record<string, any>> {
  const events = await runtime.store.readStream(transcriptionJobStream(jobId));
  return events[events.length - 1]!.data as Record<string, any>;
}

const shared = startRuntime();
await shared.runtime.start();

test('an English stereo call over HTTP (through a redirect) completes with a diarised transcript close to the script', async () => {
  const { runtime } = shared;
  const jobId = await submit(runtime, submission({ audio_url: `${base}/moved`, features: ['transcription', 'summary', 'sentiment', 'intent'] }));
  const state = await finished(runtime, jobId);
  assert.equal(state.events, ['TranscriptionJobSubmitted', 'TranscriptionJobStarted', 'TranscriptionJobCompleted']);
  const completed = await finalEvent(runtime, jobId);
  const text = (completed.transcript as Array<{ text: string }>).map((segment) => segment.text).join(' ');
  const { rate } = wordErrorRate(REFERENCE, text);
  assert.ok(rate < 0.3, `WER ${(rate * 100).toFixed(1)}% on "${text}"`);
  assert.equal([...new Set((completed.transcript as Array<{ speaker: string }>).map((segment) => segment.speaker))].sort(), ['agent', 'customer']);
  assert.ok(Math.abs(completed.duration_seconds - call.durationSeconds) < 0.2);
  assert.type(completed.summary, 'string');
  assert.type(completed.sentiment.overall, 'number');
  assert.equal(completed.metadata, { ticket: 1 });
  await runtime.projections.catchUp();
  const document = JSON.parse(findTranscriptionJobDocument(runtime.readDb, 'ws_1', jobId)!);
  assert.is(document.status, 'completed');
  assert.is(document.completed_at, runtime.clock.now().toISOString());
});

test('a Hindi recording fails with language_not_supported and says how to configure a recogniser', async () => {
  const { runtime } = shared;
  const jobId = await submit(runtime, submission({ audio_url: `${base}/hindi.wav`, language: 'hi-IN' }));
  await finished(runtime, jobId);
  const failed = await finalEvent(runtime, jobId);
  assert.is(failed.error.code, 'language_not_supported');
  assert.match(failed.error.message, /SPEECH_API_URL/);
  assert.equal([failed.language, failed.call_id, failed.metadata], ['hi-IN', null, { ticket: 2 }]);
});

test('download failures: too large while streaming, too large by Content-Length, too long by the WAV header, not audio, 404, nothing listening', async () => {
  const { runtime } = shared;
  const cases: Array<[path: string, code: string]> = [
    [`${base}/endless`, 'audio_too_large'],
    [`${base}/declared-huge`, 'audio_too_large'],
    [`${base}/long.wav`, 'audio_too_long'],
    [`${base}/notes.txt`, 'unsupported_format'],
    [`${base}/missing.wav`, 'audio_unreachable'],
    [`http://127.0.0.1:${closedPort}/call.wav`, 'audio_unreachable'],
  ];
  const jobs = await Promise.all(cases.map(([url]) => submit(runtime, submission({ audio_url: url }))));
  for (const [index, jobId] of jobs.entries()) {
    await finished(runtime, jobId, 20_000);
    const failed = await finalEvent(runtime, jobId);
    assert.is(failed.error.code, cases[index]![1], `${cases[index]![0]}: ${failed.error.message}`);
  }
});

test('a loopback audio_url is refused without ALLOW_PRIVATE_TARGETS', async () => {
  const strict = startRuntime({ allowPrivate: false });
  await strict.runtime.start();
  try {
    const jobId = await submit(strict.runtime, submission({ audio_url: `${base}/call.wav` }));
    await finished(strict.runtime, jobId, 10_000);
    const failed = await finalEvent(strict.runtime, jobId);
    assert.is(failed.error.code, 'audio_url_not_allowed');
    assert.match(failed.error.message, /loopback/);
  } finally {
    await strict.runtime.close();
    strict.remove();
  }
});

test('a transcript-input job skips recognition and runs the features, QA included, on the transcript as given', async () => {
  const { runtime } = shared;
  const transcript = RENEWAL_TRANSCRIPT;
  const definition = {
    name: 'Renewal QA',
    pass_threshold: 70,
    parameters: [
      { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['good morning'] }, within_seconds: 15 } },
      { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action'] } } },
      { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['no'] } } },
    ],
  };
  const jobId = await submit(
    runtime,
    submission({
      transcript,
      features: ['transcription', 'summary', 'sentiment', 'intent', 'qa_scoring'],
      qa_scorecard_id: 'qsc_1',
      qa_scorecard: { scorecard_id: 'qsc_1', version: 1, definition },
    }),
  );
  await finished(runtime, jobId, 10_000);
  const completed = await finalEvent(runtime, jobId);
  assert.equal(completed.transcript, transcript);
  assert.is(completed.intent, 'loan_renewal_interest');
  assert.ok(completed.sentiment.overall > 0.25, `sentiment ${completed.sentiment.overall}`);
  assert.is(completed.duration_seconds, 11);
  assert.is(completed.qa_score.overall_score, 66.7);
  assert.equal(completed.qa_score.parameter_scores.map((score: { passed: boolean }) => score.passed), [true, true, false]);
  assert.is(completed.qa_score.passed, false);
  const sentences = (completed.summary as string).match(/[.!?](\s|$)/g) ?? [];
  assert.ok(sentences.length >= 2 && sentences.length <= 4, completed.summary);
});

test('restart: a job left processing by a dead process runs again as the next attempt; past the bound it fails', async () => {
  // The first process: jobs submitted and started, then the process "dies" (no worker ever finishes them).
  const first = startRuntime({ worker: false });
  await first.runtime.start();
  const resumed = await submit(first.runtime, submission({ transcript: [{ speaker: 'agent', text: 'hello there', start_time: 0, end_time: 1 }] }));
  const exhausted = await submit(first.runtime, submission({ transcript: [{ speaker: 'agent', text: 'hello again', start_time: 0, end_time: 1 }] }));
  const pending = await submit(first.runtime, submission({ transcript: [{ speaker: 'agent', text: 'still waiting', start_time: 0, end_time: 1 }] }));
  const context = { workspaceId: 'ws_1', actor: 'test', now: first.runtime.clock.now() };
  await first.runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(resumed), { type: 'StartTranscriptionJob', data: { attempt: 1, started_at: 'x' } }, context);
  for (const attempt of [1, 2, 3]) {
    await first.runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(exhausted), { type: 'StartTranscriptionJob', data: { attempt, started_at: 'x' } }, context);
  }
  await first.runtime.projections.catchUp();
  await first.runtime.close();

  const second = startRuntime({ dataDir: first.dataDir });
  await second.runtime.start();
  try {
    const again = await finished(second.runtime, resumed, 10_000);
    assert.is(again.status, 'completed');
    assert.is(again.attempts, 2);
    const started = (await second.runtime.store.readStream(transcriptionJobStream(resumed))).filter((event) => event.type === 'TranscriptionJobStarted');
    assert.equal(started.map((event) => event.data.resumed_after_interruption), [false, true]);
    const gaveUp = await finished(second.runtime, exhausted, 10_000);
    assert.is(gaveUp.status, 'failed');
    assert.is((await finalEvent(second.runtime, exhausted)).error.code, 'processing_interrupted');
    assert.is((await finished(second.runtime, pending, 10_000)).status, 'completed');
  } finally {
    await second.runtime.close();
    first.remove();
  }
});

test.after(async () => {
  await shared.runtime.close();
  shared.remove();
  audioServer.closeAllConnections();
  audioServer.close();
});

test.run();

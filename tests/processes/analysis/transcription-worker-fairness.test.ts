// The transcription worker under a noisy neighbour: workspace A fills the audio lane with downloads that trickle
// until their deadline and floods the transcript lane; workspace B's jobs must not wait for A's. Real parts (the
// SQLite store and read models, a local HTTP server, the SSRF-guarded download, ffmpeg) except the recogniser,
// which answers at once: how fast PocketSphinx is on a loaded machine is transcription-worker.test.ts's subject,
// and here it would only blur the question of who waits for whom.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobSubmittedData } from '../../../domain/transcription-job.ts';
import { RECOGNIZER_SAMPLE_RATE, resultFromWords, type SpeechRecognizer } from '../../../infra/speech/port.ts';
import { encodeWav } from '../../../infra/speech/wav.ts';
import { createTranscriptionWorker, type TranscriptionWorkerOptions } from '../../../processes/analysis/transcription-worker.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';

/** A's trickling downloads end at this deadline; B's jobs must be done long before. */
const DEADLINE_MS = 10_000;
/**
 * The documented bounds on B's latency under A's load, submission to `completed`. Typically 10-50 ms and 0.6-1.5 s on
 * this 2-core machine; under heavy load (eight suites at once) the audio job took up to 3.4 s even with no neighbour.
 */
const B_TRANSCRIPT_BOUND_MS = 2_000;
const B_AUDIO_BOUND_MS = 4_000;

const WORKER: TranscriptionWorkerOptions = {
  // Three audio slots: A may hold two (workspaceCap), B finds the third. The transcript lane keeps its default (2).
  concurrency: 3,
  // Trickling at 2.5 KB/s passes the rate check (1 KB/s after 0.5 s): only the overall deadline ends A's downloads.
  downloadDeadlines: { deadlineMs: DEADLINE_MS, minBytesPerSecond: 1024, slowGraceMs: 500 },
};

/** Two seconds of a tone: decoded by ffmpeg like any recording. */
const smallWav = encodeWav({ sampleRate: 16_000, channels: [Int16Array.from({ length: 32_000 }, (_, index) => Math.round(8_000 * Math.sin((2 * Math.PI * 440 * index) / 16_000)))] });

const instantRecognizer: SpeechRecognizer = {
  name: 'instant',
  supports: () => true,
  async recognize(pcm) {
    return resultFromWords([{ word: 'hello', start: 0, end: Math.min(1, pcm.length / RECOGNIZER_SAMPLE_RATE), confidence: 0.9 }]);
  },
};

/** 256 bytes every 100 ms, never ending; stops when the client goes. */
function trickle(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'audio/wav' });
  const timer = setInterval(() => response.write(Buffer.alloc(256, 1)), 100);
  response.on('close', () => clearInterval(timer));
}

const audioServer = createServer((request, response) => {
  if (request.url?.startsWith('/trickle')) return trickle(response);
  if (request.url === '/small.wav') {
    response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': smallWav.length });
    return void response.end(smallWav);
  }
  response.writeHead(404);
  response.end();
});
await new Promise<void>((resolve) => audioServer.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(audioServer.address() as AddressInfo).port}`;

const TRANSCRIPT = [
  { speaker: 'agent', text: 'Good morning, I am calling about your loan renewal.', start_time: 0, end_time: 3 },
  { speaker: 'customer', text: 'Yes, I would like to renew it, thank you.', start_time: 3.5, end_time: 6 },
];

let counter = 0;
function submission(workspaceId: string, source: { audio_url: string } | { transcript: typeof TRANSCRIPT }): TranscriptionJobSubmittedData {
  counter += 1;
  return {
    job_id: `job_fair${counter}`,
    workspace_id: workspaceId,
    audio_url: null,
    transcript: null,
    language: 'en-IN',
    speakers: 2,
    features: ['transcription', 'summary', 'sentiment', 'intent'],
    qa_scorecard_id: null,
    qa_scorecard: null,
    metadata: null,
    call_id: null,
    disposition: null,
    submitted_at: '2026-03-01T10:00:00.000Z',
    ...source,
  };
}

async function submit(runtime: Runtime, data: TranscriptionJobSubmittedData): Promise<string> {
  await runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(data.job_id), { type: 'SubmitTranscriptionJob', data }, { workspaceId: data.workspace_id, actor: 'test', now: runtime.clock.now() });
  return data.job_id;
}

async function statusOf(runtime: Runtime, jobId: string): Promise<string | null> {
  return (await runtime.commands.load(transcriptionJobDecider, transcriptionJobStream(jobId))).state.status;
}

async function failureOf(runtime: Runtime, jobId: string): Promise<{ code: string; message: string } | undefined> {
  const events = await runtime.store.readStream(transcriptionJobStream(jobId));
  const last = events[events.length - 1]!;
  return last.type === 'TranscriptionJobFailed' ? (last.data as { error: { code: string; message: string } }).error : undefined;
}

/** Milliseconds from `since` until the job completes (failing the test if it fails or takes longer than `timeoutMs`). */
async function completedAfter(runtime: Runtime, jobId: string, since: number, timeoutMs: number): Promise<number> {
  await eventually(async () => (await statusOf(runtime, jobId)) !== 'pending' && (await statusOf(runtime, jobId)) !== 'processing', timeoutMs, `job ${jobId} to finish`);
  assert.is(await statusOf(runtime, jobId), 'completed', JSON.stringify(await failureOf(runtime, jobId)));
  return Date.now() - since;
}

/** B's two jobs, submitted now: the latency of each. */
async function workspaceB(runtime: Runtime, timeoutMs: number): Promise<{ transcript: number; audio: number }> {
  const since = Date.now();
  const transcriptJob = await submit(runtime, submission('ws_b', { transcript: TRANSCRIPT }));
  const audioJob = await submit(runtime, { ...submission('ws_b', { audio_url: `${base}/small.wav` }), speakers: 1 });
  const [transcript, audio] = await Promise.all([completedAfter(runtime, transcriptJob, since, timeoutMs), completedAfter(runtime, audioJob, since, timeoutMs)]);
  return { transcript, audio };
}

function startRuntime(dataDir?: string, options: TranscriptionWorkerOptions = WORKER) {
  return testRuntime({
    dataDir,
    environment: { ALLOW_PRIVATE_TARGETS: 'true' },
    processes: (runtime) => [createTranscriptionWorker({ ...runtime, recognizer: instantRecognizer }, options)],
  });
}

const quiet: { transcript: number; audio: number } = { transcript: 0, audio: 0 };

test('without a neighbour: the latency of B\'s transcript job and small audio job', async () => {
  const made = startRuntime();
  await made.runtime.start();
  try {
    // The first jobs of a process pay for warming up (module loading, the first ffmpeg): not counted.
    await workspaceB(made.runtime, 30_000);
    Object.assign(quiet, await workspaceB(made.runtime, 30_000));
  } finally {
    await made.runtime.close();
    made.remove();
  }
});

test(`a noisy neighbour: while A's four trickling downloads hold the audio lane and A floods the transcript lane, B's jobs complete within ${B_TRANSCRIPT_BOUND_MS / 1000} s and ${B_AUDIO_BOUND_MS / 1000} s`, async () => {
  const made = startRuntime();
  const { runtime } = made;
  await runtime.start();
  try {
    const started = Date.now();
    const trickling: string[] = [];
    for (let index = 0; index < 4; index++) trickling.push(await submit(runtime, submission('ws_a', { audio_url: `${base}/trickle/${index}` })));
    const flood: string[] = [];
    for (let index = 0; index < 40; index++) flood.push(await submit(runtime, submission('ws_a', { transcript: TRANSCRIPT })));
    // A's downloads are under way before B submits.
    await eventually(async () => (await statusOf(runtime, trickling[1]!)) === 'processing', 5_000, "A's downloads to start");

    const loaded = await workspaceB(runtime, DEADLINE_MS);
    console.log(`B's latency (transcript, audio): ${quiet.transcript} ms, ${quiet.audio} ms alone; ${loaded.transcript} ms, ${loaded.audio} ms beside A`);
    assert.ok(loaded.transcript <= B_TRANSCRIPT_BOUND_MS, `B's transcript job took ${loaded.transcript} ms`);
    assert.ok(loaded.audio <= B_AUDIO_BOUND_MS, `B's audio job took ${loaded.audio} ms`);
    // Long before A's downloads end: the two that run are still downloading.
    assert.equal([await statusOf(runtime, trickling[0]!), await statusOf(runtime, trickling[1]!)], ['processing', 'processing']);
    assert.ok(Date.now() - started < DEADLINE_MS, 'B was done before the deadline of the first of A\'s downloads');

    // A is held back, not starved: its flood completes, and its downloads end at their deadline.
    for (const jobId of flood) await completedAfter(runtime, jobId, started, 10_000);
    for (const jobId of trickling.slice(0, 2)) {
      await eventually(async () => (await statusOf(runtime, jobId)) === 'failed', DEADLINE_MS + 5_000, `${jobId} to reach its deadline`);
      const failure = await failureOf(runtime, jobId);
      assert.is(failure?.code, 'download_too_slow');
      assert.match(failure!.message, /did not finish downloading within 10 s/);
    }
  } finally {
    await runtime.close();
    made.remove();
  }
});

test('restart: recovered jobs keep their workspace and lane, so a recovered transcript job does not wait behind a trickling download', async () => {
  // Submitted while no worker runs (as if the process had died), then recovered from the read model on the next
  // start, by a worker with a single audio slot.
  const before = testRuntime({ environment: { ALLOW_PRIVATE_TARGETS: 'true' }, processes: () => [] });
  await before.runtime.start();
  const downloading = await submit(before.runtime, submission('ws_a', { audio_url: `${base}/trickle/recovered` }));
  const transcriptJob = await submit(before.runtime, submission('ws_b', { transcript: TRANSCRIPT }));
  await before.runtime.projections.catchUp();
  await before.runtime.close();

  const after = startRuntime(before.dataDir, { ...WORKER, concurrency: 1 });
  const since = Date.now();
  await after.runtime.start();
  try {
    const latency = await completedAfter(after.runtime, transcriptJob, since, 5_000);
    assert.ok(latency < B_TRANSCRIPT_BOUND_MS, `${latency} ms`);
    assert.is(await statusOf(after.runtime, downloading), 'processing', 'the one audio slot is still held by the trickling download');
  } finally {
    await after.runtime.close();
    before.remove();
  }
});

test.after(() => {
  audioServer.closeAllConnections();
  audioServer.close();
});

test.run();

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inThreadTranscriptAnalysis } from '../../../infra/analysis/in-thread-analysis.ts';
import { createLogger } from '../../../infra/logger.ts';
import { OpenAiCompatibleRecognizer } from '../../../infra/speech/openai-compatible.ts';
import { encodeWav } from '../../../infra/speech/wav.ts';
import { analyseJob } from '../../../processes/analysis/analyse-job.ts';
import { JobFailure } from '../../../processes/analysis/job-failure.ts';

// A failing speech server's address and answer are the operator's business: the job's error says what happened
// (reached or not, the HTTP status), never the URL or the body (which may echo keys, paths, internal hosts).

const LEAKY_BODY = 'invalid key sk-live-1234 for tenant acme at /srv/whisper/models (host gpu-7.internal)';
let server: Server;
let base = '';
const directory = mkdtempSync(join(tmpdir(), 'speech-fail-'));

test.before(async () => {
  // Two seconds of a voiced tone: something the voice-activity step passes on to the recogniser.
  const samples = Int16Array.from({ length: 32_000 }, (_, index) => Math.round(8_000 * Math.sin((2 * Math.PI * 160 * index) / 16_000) * (1 + 0.3 * Math.sin((2 * Math.PI * 3 * index) / 16_000))));
  const wav = encodeWav({ sampleRate: 16_000, channels: [samples] });
  server = createServer((request, response) => {
    if (request.url === '/call.wav') {
      response.writeHead(200, { 'content-type': 'audio/wav' });
      response.end(wav);
      return;
    }
    // The speech server: refuses with a chatty body.
    response.writeHead(400, { 'content-type': 'text/plain' });
    response.end(LEAKY_BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(() => {
  server.close();
  rmSync(directory, { recursive: true, force: true });
});

test('speech_api_failed names the status only, not the server\'s URL or what it answered', async () => {
  const job = {
    job_id: 'job_speech_1', workspace_id: 'ws_1', audio_url: `${base}/call.wav`, transcript: null, language: 'hi-IN', speakers: 1,
    features: ['transcription' as const], qa_scorecard_id: null, qa_scorecard: null, metadata: null, call_id: null, disposition: null,
    submitted_at: '2026-03-01T10:00:00.000Z',
  };
  const dependencies = {
    recognizer: new OpenAiCompatibleRecognizer({ url: `${base}/speech-secret-path/v1`, maxAttempts: 1 }),
    transcriptAnalysis: inThreadTranscriptAnalysis(),
    policy: { allowPrivateTargets: true, protocols: ['http:', 'https:'] as const },
    workDirectory: directory,
    maxAudioBytes: 10_000_000,
    maxAudioSeconds: 600,
    logger: createLogger('silent'),
  };
  try {
    await analyseJob(job, dependencies, new AbortController().signal);
    assert.unreachable('the speech server refused');
  } catch (error) {
    assert.instance(error, JobFailure, String(error));
    const failure = error as JobFailure;
    assert.is(failure.code, 'speech_api_failed');
    assert.is(failure.message, 'the speech recognition server answered HTTP 400');
    for (const leak of ['sk-live', 'gpu-7', '/srv/', 'speech-secret-path', '127.0.0.1']) assert.not.match(failure.message, leak);
  }
});

test.run();

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  OpenAiCompatibleRecognizer,
  SpeechApiError,
  transcriptionEndpoint,
  wordsFromVerboseJson,
} from '../../../infra/speech/openai-compatible.ts';
import { LanguageNotSupportedError } from '../../../infra/speech/port.ts';
import { decodeWav } from '../../../infra/speech/wav.ts';

interface ReceivedRequest {
  path: string;
  authorization: string | undefined;
  form: FormData;
  audio: { sampleRate: number; channels: number; seconds: number };
}

type Reply = (request: ReceivedRequest, response: ServerResponse) => void;

/** A transcription server on loopback that records what it was sent and answers with `reply`. */
async function startServer(reply: Reply): Promise<{ url: string; received: ReceivedRequest[]; close: () => Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer(async (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': incoming.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file') as Blob;
    const wav = decodeWav(Buffer.from(await file.arrayBuffer()));
    const request = {
      path: incoming.url ?? '',
      authorization: incoming.headers.authorization,
      form,
      audio: { sampleRate: wav.sampleRate, channels: wav.channels.length, seconds: wav.channels[0]!.length / wav.sampleRate },
    };
    received.push(request);
    reply(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** Tone bursts (which the pause detector counts as speech) at the given [start, end] seconds. */
function bursts(totalSeconds: number, ...spans: Array<[number, number]>): Int16Array {
  const samples = new Int16Array(totalSeconds * 16_000);
  for (const [start, end] of spans) {
    for (let index = start * 16_000; index < end * 16_000; index++) samples[index] = Math.round(6_000 * Math.sin(index / 5));
  }
  return samples;
}

const HINDI_ANSWER = {
  task: 'transcribe',
  language: 'hindi',
  duration: 3,
  text: 'नमस्ते आप कैसे हैं',
  segments: [{ id: 0, start: 0.2, end: 2.5, text: ' नमस्ते आप कैसे हैं', avg_logprob: -0.105, no_speech_prob: 0.01 }],
  words: [
    { word: ' नमस्ते', start: 0.2, end: 0.8 },
    { word: ' आप', start: 0.9, end: 1.1 },
    { word: ' कैसे', start: 1.2, end: 1.7 },
    { word: ' हैं', start: 1.8, end: 2.5 },
  ],
};

test('sends the documented multipart request and reads verbose_json words with segment confidence', async () => {
  const server = await startServer((_, response) => json(response, 200, HINDI_ANSWER));
  try {
    const recognizer = new OpenAiCompatibleRecognizer({ url: server.url, apiKey: 'sk-test', model: 'large-v3' });
    const result = await recognizer.recognize(bursts(3, [0.2, 2.5]), 'hi-IN');
    assert.is(server.received.length, 1);
    const [request] = server.received as [ReceivedRequest];
    assert.is(request.path, '/v1/audio/transcriptions');
    assert.is(request.authorization, 'Bearer sk-test');
    assert.is(request.form.get('model'), 'large-v3');
    assert.is(request.form.get('language'), 'hi');
    assert.is(request.form.get('response_format'), 'verbose_json');
    assert.equal(request.form.getAll('timestamp_granularities[]'), ['word', 'segment']);
    assert.equal(request.audio, { sampleRate: 16_000, channels: 1, seconds: 3 });
    assert.is(result.text, 'नमस्ते आप कैसे हैं');
    assert.equal(result.words[1], { word: 'आप', start: 0.9, end: 1.1, confidence: Math.exp(-0.105) });
  } finally {
    await server.close();
  }
});

test('long audio is sent in pieces cut at pauses, silent stretches are not sent, times are put back in place', async () => {
  const server = await startServer((request, response) =>
    json(response, 200, { text: 'hello', words: [{ word: 'hello', start: 0.1, end: 0.5 }], segments: [] }),
  );
  try {
    const recognizer = new OpenAiCompatibleRecognizer({ url: `${server.url}/v1/`, maxChunkSeconds: 10, model: undefined });
    // Speech at 1-3 s and 13-15 s, silence in between and after: two pieces, the silent tail not sent.
    const result = await recognizer.recognize(bursts(40, [1, 3], [13, 15]), 'ta-IN');
    assert.is(server.received.length, 2);
    assert.ok(server.received.every((request) => request.form.get('model') === 'whisper-1'));
    assert.ok(server.received.every((request) => request.authorization === undefined));
    const starts = result.words.map((word) => word.start).sort((a, b) => a - b);
    assert.is(starts[0], 0.1);
    assert.ok(starts[1]! > 5 && starts[1]! < 13, `second piece begins in the pause, word at ${starts[1]}`);
  } finally {
    await server.close();
  }
});

test('a 4xx answer fails at once with SpeechApiError; a 503 is retried', async () => {
  let answers = 0;
  const server = await startServer((request, response) => {
    answers++;
    if (request.form.get('language') === 'mr') return json(response, 401, { error: { message: 'bad key' } });
    if (answers === 1) return json(response, 503, { error: 'warming up' });
    json(response, 200, HINDI_ANSWER);
  });
  try {
    const recognizer = new OpenAiCompatibleRecognizer({ url: `${server.url}/v1/audio/transcriptions`, maxAttempts: 2 });
    const result = await recognizer.recognize(bursts(3, [0.2, 2.5]), 'te-IN');
    assert.is(result.words.length, 4);
    assert.is(answers, 2);
    try {
      await recognizer.recognize(bursts(3, [0.2, 2.5]), 'mr-IN');
      assert.unreachable('should have failed');
    } catch (error) {
      assert.instance(error, SpeechApiError);
      assert.is((error as SpeechApiError).status, 401);
      assert.match((error as Error).message, /bad key/);
    }
    assert.is(answers, 3, 'no retry after 401');
  } finally {
    await server.close();
  }
});

test('an unreachable server is a SpeechApiError naming the endpoint', async () => {
  const server = await startServer(() => undefined);
  await server.close();
  const recognizer = new OpenAiCompatibleRecognizer({ url: server.url, maxAttempts: 1 });
  try {
    await recognizer.recognize(bursts(2, [0.2, 1.5]), 'en-IN');
    assert.unreachable('should have failed');
  } catch (error) {
    assert.instance(error, SpeechApiError);
    assert.match((error as Error).message, /127\.0\.0\.1/);
  }
});

test('supports the five languages by default, a configured subset otherwise', async () => {
  const recognizer = new OpenAiCompatibleRecognizer({ url: 'http://127.0.0.1:1' });
  for (const language of ['hi-IN', 'ta-IN', 'te-IN', 'mr-IN', 'en-IN']) assert.ok(recognizer.supports(language), language);
  const englishOnly = new OpenAiCompatibleRecognizer({ url: 'http://127.0.0.1:1', languages: ['en'] });
  assert.not.ok(englishOnly.supports('hi-IN'));
  try {
    await englishOnly.recognize(new Int16Array(100), 'hi-IN');
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, LanguageNotSupportedError);
  }
});

test('endpoint: a base address, a /v1 address and the full path all reach the transcription path', () => {
  assert.is(transcriptionEndpoint('http://host:8000'), 'http://host:8000/v1/audio/transcriptions');
  assert.is(transcriptionEndpoint('http://host:8000/v1/'), 'http://host:8000/v1/audio/transcriptions');
  assert.is(transcriptionEndpoint('https://api.openai.com/v1/audio/transcriptions'), 'https://api.openai.com/v1/audio/transcriptions');
});

test('verbose_json without words spreads segment words over the segment; silence hallucinations are dropped', () => {
  const words = wordsFromVerboseJson(
    {
      text: 'वणक्कम् thank you',
      segments: [
        { start: 1, end: 2, text: ' ab abcd', avg_logprob: -0.2, no_speech_prob: 0.1 },
        { start: 5, end: 7, text: ' thank you', avg_logprob: -1.4, no_speech_prob: 0.9 },
      ],
    },
    8,
  );
  assert.equal(
    words.map((word) => [word.word, Number(word.start.toFixed(3)), Number(word.end.toFixed(3))]),
    [
      ['ab', 1, 1.333],
      ['abcd', 1.333, 2],
    ],
  );
  assert.ok(words.every((word) => Math.abs(word.confidence - Math.exp(-0.2)) < 1e-9));
  // A server-provided word probability wins over the segment average.
  const scored = wordsFromVerboseJson({ words: [{ word: 'yes', start: 0, end: 0.3, probability: 0.42 }], segments: [] }, 1);
  assert.is(scored[0]!.confidence, 0.42);
  assert.throws(() => wordsFromVerboseJson('nope', 1), (error: unknown) => error instanceof SpeechApiError);
});

test.run();

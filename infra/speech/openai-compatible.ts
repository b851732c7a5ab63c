// Recogniser for any server that speaks OpenAI's transcription API: OpenAI itself, or a self-hosted Whisper
// server (faster-whisper-server / speaches, whisper.cpp's server, LocalAI, vLLM...). This is how hi, ta, te and mr
// get transcribed. Audio is cut at pauses into pieces of at most 10 minutes (a 16 kHz mono WAV of 10 minutes is
// 19 MB, under OpenAI's 25 MB upload limit), each sent as a WAV we encode.
//
// Endpoint: SPEECH_API_URL is a base address (`http://host:8000` -> `http://host:8000/v1/audio/transcriptions`);
// one already ending in `/v1` gets `/audio/transcriptions`; one already ending in `/v1/audio/transcriptions` is
// used as given.
import { languageSubtag } from '../../domain/shared/language.ts';
import { ConcurrencyLimit } from './concurrency-limit.ts';
import { OperationAbortedError } from './external-tool.ts';
import { recognizeInPieces } from './piecewise-recognition.ts';
import {
  LanguageNotSupportedError,
  RECOGNIZER_SAMPLE_RATE,
  resultFromWords,
  type RecognitionResult,
  type RecognizedWord,
  type SpeechRecognizer,
} from './port.ts';
import { encodeWav } from './wav.ts';

export interface OpenAiCompatibleOptions {
  /** SPEECH_API_URL. */
  url: string;
  /** SPEECH_API_KEY, sent as a bearer token when set. */
  apiKey?: string;
  /** SPEECH_MODEL; default `whisper-1`. */
  model?: string;
  /** Primary language subtags the server is trusted with; default hi, ta, te, mr, en. */
  languages?: string[];
  /** Requests at once for this instance; default 2. */
  concurrency?: number;
  maxChunkSeconds?: number;
  /** Per request; default 10 minutes. */
  requestTimeoutMs?: number;
  /** Attempts per piece for network errors, 429 and 5xx; default 3. */
  maxAttempts?: number;
}

export class SpeechApiError extends Error {
  readonly code = 'speech_api_failed';
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'SpeechApiError';
  }
}

export const DEFAULT_API_LANGUAGES = ['hi', 'ta', 'te', 'mr', 'en'];

export function transcriptionEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.endsWith('/v1/audio/transcriptions')) return trimmed;
  if (trimmed.endsWith('/v1')) return `${trimmed}/audio/transcriptions`;
  return `${trimmed}/v1/audio/transcriptions`;
}

export class OpenAiCompatibleRecognizer implements SpeechRecognizer {
  readonly name = 'openai-compatible';
  private readonly endpoint: string;
  private readonly model: string;
  private readonly languages: Set<string>;
  private readonly limit: ConcurrencyLimit;
  private readonly maxChunkSeconds: number;
  private readonly requestTimeoutMs: number;
  private readonly maxAttempts: number;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.endpoint = transcriptionEndpoint(options.url);
    this.model = options.model ?? 'whisper-1';
    this.languages = new Set(options.languages ?? DEFAULT_API_LANGUAGES);
    this.limit = new ConcurrencyLimit(options.concurrency ?? 2);
    this.maxChunkSeconds = options.maxChunkSeconds ?? 600;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10 * 60_000;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  supports(language: string): boolean {
    return this.languages.has(languageSubtag(language));
  }

  async recognize(pcm16kMono: Int16Array, language: string, signal?: AbortSignal): Promise<RecognitionResult> {
    if (!this.supports(language)) throw new LanguageNotSupportedError(language, this.name);
    const subtag = languageSubtag(language);
    const words = await recognizeInPieces(pcm16kMono, this.maxChunkSeconds, this.limit, signal, (samples, pieceSignal) =>
      this.recognizePiece(samples, subtag, pieceSignal),
    );
    return resultFromWords(words);
  }

  private async recognizePiece(samples: Int16Array, languageSubtag: string, signal: AbortSignal): Promise<RecognizedWord[]> {
    const wav = encodeWav({ sampleRate: RECOGNIZER_SAMPLE_RATE, channels: [samples] });
    let lastError: Error = new SpeechApiError('no attempt made', null);
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      if (signal.aborted) throw new OperationAbortedError('speech recognition');
      try {
        const body = await this.post(wav, languageSubtag, signal);
        return wordsFromVerboseJson(body, samples.length / RECOGNIZER_SAMPLE_RATE);
      } catch (error) {
        if (!(error instanceof RetryableError)) throw error;
        lastError = error.cause;
        if (attempt < this.maxAttempts) await delay(1_000 * 4 ** (attempt - 1), signal);
      }
    }
    throw lastError;
  }

  private async post(wav: Buffer, languageSubtag: string, signal: AbortSignal): Promise<unknown> {
    const form = new FormData();
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', this.model);
    form.append('language', languageSubtag);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    form.append('timestamp_granularities[]', 'segment');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (error) {
      if (signal.aborted) throw new OperationAbortedError('speech recognition');
      const reason = timeout.aborted ? `timed out after ${this.requestTimeoutMs} ms` : describe(error);
      throw new RetryableError(new SpeechApiError(`transcription request to ${this.endpoint} failed: ${reason}`, null));
    }
    const text = await response.text();
    if (!response.ok) {
      const failure = new SpeechApiError(`transcription server answered ${response.status}: ${text.slice(0, 300)}`, response.status);
      if (response.status === 429 || response.status >= 500) throw new RetryableError(failure);
      throw failure;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SpeechApiError(`transcription server answered with invalid JSON: ${text.slice(0, 300)}`, response.status);
    }
  }
}

class RetryableError extends Error {
  constructor(override readonly cause: SpeechApiError) {
    super(cause.message);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new OperationAbortedError('speech recognition'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface VerboseSegment {
  start: number;
  end: number;
  text: string;
  avgLogprob: number | null;
  noSpeechProb: number | null;
}

/**
 * Reads OpenAI's verbose_json: `text`, `segments[{start, end, text, avg_logprob, no_speech_prob}]`,
 * `words[{word, start, end}]` (some servers add a per-word `probability`, used when present). A word's
 * confidence is otherwise exp(avg_logprob) of its segment. Segments Whisper itself judges to be silence
 * (no_speech_prob > 0.6 with avg_logprob < -1) are dropped: that is where it hallucinates. A server that
 * returns no word times gets word times spread over its segments in proportion to word length.
 */
export function wordsFromVerboseJson(body: unknown, durationSeconds: number): RecognizedWord[] {
  if (!isRecord(body)) throw new SpeechApiError('transcription response is not a JSON object', null);
  const segments = (Array.isArray(body.segments) ? body.segments : []).flatMap(readSegment);
  const hallucinated = segments.filter(isProbablySilence);
  const trusted = segments.filter((segment) => !isProbablySilence(segment));
  const rawWords = Array.isArray(body.words) ? body.words : [];
  if (rawWords.length > 0) {
    const words: RecognizedWord[] = [];
    for (const raw of rawWords) {
      if (!isRecord(raw) || typeof raw.word !== 'string' || !isFiniteNumber(raw.start) || !isFiniteNumber(raw.end)) continue;
      const word = raw.word.trim();
      if (word === '') continue;
      const middle = (raw.start + raw.end) / 2;
      if (hallucinated.some((segment) => middle >= segment.start && middle <= segment.end)) continue;
      const segment = trusted.find((candidate) => middle >= candidate.start && middle <= candidate.end);
      const confidence = isFiniteNumber(raw.probability) ? raw.probability : confidenceOf(segment);
      words.push({ word, start: raw.start, end: Math.max(raw.start, raw.end), confidence: clamp01(confidence) });
    }
    return words;
  }
  if (segments.length > 0) return trusted.flatMap((segment) => spreadWords(segment.text, segment.start, segment.end, confidenceOf(segment)));
  if (typeof body.text === 'string') return spreadWords(body.text, 0, durationSeconds, 0.5);
  throw new SpeechApiError('transcription response has neither words, segments nor text', null);
}

function readSegment(raw: unknown): VerboseSegment[] {
  if (!isRecord(raw) || !isFiniteNumber(raw.start) || !isFiniteNumber(raw.end) || typeof raw.text !== 'string') return [];
  return [
    {
      start: raw.start,
      end: raw.end,
      text: raw.text,
      avgLogprob: isFiniteNumber(raw.avg_logprob) ? raw.avg_logprob : null,
      noSpeechProb: isFiniteNumber(raw.no_speech_prob) ? raw.no_speech_prob : null,
    },
  ];
}

function isProbablySilence(segment: VerboseSegment): boolean {
  return (segment.noSpeechProb ?? 0) > 0.6 && (segment.avgLogprob ?? 0) < -1;
}

/** Without any score the word is neither trusted nor doubted. */
function confidenceOf(segment: VerboseSegment | undefined): number {
  return segment?.avgLogprob == null ? 0.5 : clamp01(Math.exp(segment.avgLogprob));
}

function spreadWords(text: string, start: number, end: number, confidence: number): RecognizedWord[] {
  const tokens = text.split(/\s+/).filter((token) => token.length > 0);
  const totalLength = tokens.reduce((sum, token) => sum + token.length, 0);
  const words: RecognizedWord[] = [];
  let cursor = start;
  for (const token of tokens) {
    const length = ((end - start) * token.length) / Math.max(1, totalLength);
    words.push({ word: token, start: cursor, end: cursor + length, confidence });
    cursor += length;
  }
  return words;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

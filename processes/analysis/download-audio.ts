import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { openOutbound, OutboundTargetRefused, type OutboundPolicy } from '../../infra/outbound/request.ts';
import { JobFailure } from './job-failure.ts';
import { WavDurationGuard } from './wav-duration-guard.ts';

export const DEFAULT_MAX_AUDIO_BYTES = 500 * 1024 * 1024;
export const DEFAULT_MAX_AUDIO_SECONDS = 4 * 60 * 60;

export interface DownloadOptions {
  policy: OutboundPolicy;
  /** Stop reading past this many bytes (the spec's 500 MB). */
  maxBytes: number;
  /** Stop reading once a WAV header shows more audio than this (other formats: checked by the decoder). */
  maxDurationSeconds: number;
  /** Connect and response headers. */
  connectTimeoutMs?: number;
  /** The body may pause this long between chunks before the download counts as failed. */
  stallTimeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Called now and then with the bytes received so far (progress logs of long downloads). */
  onProgress?(receivedBytes: number, totalBytes: number | null): void;
}

/**
 * Downloads `url` to `path` while streaming, through the SSRF-guarded client (private and loopback targets
 * refused unless allowed; at most a few redirects, each checked again). The limits are enforced as the bytes
 * arrive: a `Content-Length` over the size limit is refused before reading, and the body is cut off the moment
 * it passes the limit, so a hostile or endless response costs at most the limit in disk and time.
 */
export async function downloadAudio(url: string, path: string, options: DownloadOptions): Promise<{ bytes: number; contentType: string | null }> {
  let response;
  try {
    response = await openOutbound(url, {
      timeoutMs: options.connectTimeoutMs ?? 30_000,
      maxRedirects: options.maxRedirects ?? 3,
      policy: options.policy,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof OutboundTargetRefused) throw new JobFailure('audio_url_not_allowed', `the audio_url was refused: ${error.message}`);
    throw new JobFailure('audio_unreachable', `the audio_url could not be fetched: ${describeNetworkError(error)}`);
  }
  const { body, status, headers } = response;
  if (status < 200 || status > 299) {
    body.destroy();
    const redirect = status >= 300 && status < 400 ? ' (too many redirects)' : '';
    throw new JobFailure('audio_unreachable', `the audio_url answered HTTP ${status}${redirect}`);
  }
  const declared = headers['content-length'] === undefined ? null : Number(headers['content-length']);
  if (declared !== null && Number.isFinite(declared) && declared > options.maxBytes) {
    body.destroy();
    throw tooLarge(options.maxBytes);
  }

  const file = createWriteStream(path);
  const guard = new WavDurationGuard(options.maxDurationSeconds);
  let received = 0;
  let lastReport = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let stall: NodeJS.Timeout | undefined;
      const stallMs = options.stallTimeoutMs ?? 60_000;
      let settled = false;
      // Destroying the body emits its own errors synchronously: the first reason is the one reported.
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(stall);
        options.signal?.removeEventListener('abort', onAbort);
        reject(error);
        body.destroy();
      };
      const armStall = () => {
        clearTimeout(stall);
        stall = setTimeout(() => fail(new JobFailure('audio_unreachable', `the audio_url sent nothing for ${stallMs / 1000} s`)), stallMs);
      };
      armStall();
      const onAbort = () => fail(new Error('aborted'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      // A disk error fails the download; after a failure, writes still queued may report the destroyed file.
      file.on('error', (error) => fail(new JobFailure('processing_error', `the audio could not be stored: ${(error as NodeJS.ErrnoException).code ?? 'disk error'}`)));
      body.on('data', (chunk: Buffer) => {
        if (settled) return;
        received += chunk.length;
        if (received > options.maxBytes) return fail(tooLarge(options.maxBytes));
        const tooLong = guard.feed(chunk, received);
        if (tooLong !== null) return fail(new JobFailure('audio_too_long', tooLong));
        armStall();
        if (!file.write(chunk)) {
          body.pause();
          file.once('drain', () => body.resume());
        }
        if (options.onProgress && received - lastReport >= 16 * 1024 * 1024) {
          lastReport = received;
          options.onProgress(received, declared);
        }
      });
      body.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(stall);
        options.signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      body.on('error', (error) => fail(new JobFailure('audio_unreachable', `the download broke off: ${describeNetworkError(error)}`)));
      body.on('aborted', () => fail(new JobFailure('audio_unreachable', 'the download broke off before the end')));
    });
    file.end();
    await finished(file);
  } catch (error) {
    file.destroy();
    await rm(path, { force: true });
    throw error;
  }
  if (received === 0) {
    await rm(path, { force: true });
    throw new JobFailure('invalid_audio', 'the audio_url answered with an empty body');
  }
  const contentType = headers['content-type'];
  return { bytes: received, contentType: typeof contentType === 'string' ? contentType : null };
}

function tooLarge(maxBytes: number): JobFailure {
  return new JobFailure('audio_too_large', `the audio file is larger than the limit of ${formatBytes(maxBytes)}`);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return 'network error';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host does not resolve';
  if (code === 'ECONNRESET') return 'connection reset';
  if (/within \d+ ms/.test(error.message)) return error.message;
  return code ?? 'network error';
}

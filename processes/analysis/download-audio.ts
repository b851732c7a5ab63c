import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { openOutbound, OutboundTargetRefused, type OutboundPolicy } from '../../infra/outbound/request.ts';
import { JobFailure } from './job-failure.ts';
import { WavDurationGuard } from './wav-duration-guard.ts';

export const DEFAULT_MAX_AUDIO_BYTES = 500 * 1024 * 1024;
export const DEFAULT_MAX_AUDIO_SECONDS = 4 * 60 * 60;
/** The whole download, connecting included: 500 MB in 30 minutes is an average of 285 KB/s (2.3 Mbit/s). */
export const DEFAULT_DOWNLOAD_DEADLINE_MS = 30 * 60_000;
/** Slower than this on average, once the grace period is over, a download is too slow (56 MB in 30 minutes). */
export const DEFAULT_MIN_DOWNLOAD_BYTES_PER_SECOND = 32 * 1024;
export const DEFAULT_SLOW_DOWNLOAD_GRACE_MS = 30_000;

/**
 * How long a download may hold a worker slot. The stall timeout alone does not bound it: a server that sends a
 * byte now and then resets it forever. Both limits fail the job with `download_too_slow`.
 */
export interface DownloadDeadlines {
  /** The whole download, from connecting to the last byte. Default 30 minutes. */
  deadlineMs?: number;
  /** The least average rate of the body in bytes per second, from its first byte, once `slowGraceMs` has passed. Default 32 KB/s; 0 turns the check off. */
  minBytesPerSecond?: number;
  /** The body's first moments are not held to the rate (slow start, a server warming up). Default 30 s. */
  slowGraceMs?: number;
}

export interface DownloadOptions extends DownloadDeadlines {
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
 * it passes the limit, so a hostile or endless response costs at most the limit in disk and time. The deadlines
 * bound the time the same way: the whole download ends within `deadlineMs`, and once `slowGraceMs` has passed
 * the body must keep an average of `minBytesPerSecond`, so a server that trickles holds a worker slot for about
 * `slowGraceMs` (or, just above the rate, at most `deadlineMs`).
 */
export async function downloadAudio(url: string, path: string, options: DownloadOptions): Promise<{ bytes: number; contentType: string | null }> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DOWNLOAD_DEADLINE_MS;
  const minRate = options.minBytesPerSecond ?? DEFAULT_MIN_DOWNLOAD_BYTES_PER_SECOND;
  const graceMs = options.slowGraceMs ?? DEFAULT_SLOW_DOWNLOAD_GRACE_MS;
  let received = 0;
  // One signal for the caller's abort and the deadline; the deadline also covers connecting, and a server that
  // trickles its headers (the connect timeout is an idle timeout).
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(() => deadline.abort(), deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const pastDeadline = () => deadline.signal.aborted && !options.signal?.aborted;
  const tooSlow = () => new JobFailure('download_too_slow', `the audio_url did not finish downloading within ${formatDuration(deadlineMs)} (${formatBytes(received)} received)`);
  try {
    let response;
    try {
      response = await openOutbound(url, {
        timeoutMs: options.connectTimeoutMs ?? 30_000,
        maxRedirects: options.maxRedirects ?? 3,
        policy: options.policy,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw pastDeadline() ? tooSlow() : error;
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
    let lastReport = 0;
    const bodyStarted = Date.now();
    try {
      await new Promise<void>((resolve, reject) => {
        let stall: NodeJS.Timeout | undefined;
        let rateCheck: NodeJS.Timeout | undefined;
        const stallMs = options.stallTimeoutMs ?? 60_000;
        let settled = false;
        const stop = () => {
          settled = true;
          clearTimeout(stall);
          clearTimeout(rateCheck);
          signal.removeEventListener('abort', onAbort);
        };
        // Destroying the body emits its own errors synchronously: the first reason is the one reported.
        const fail = (error: Error) => {
          if (settled) return;
          stop();
          reject(error);
          body.destroy();
        };
        const armStall = () => {
          clearTimeout(stall);
          stall = setTimeout(() => fail(new JobFailure('audio_unreachable', `the audio_url sent nothing for ${stallMs / 1000} s`)), stallMs);
        };
        armStall();
        // The average is checked when the grace period ends, then again at the moment it would fall below the
        // minimum if nothing more arrived: one timer at a time, none per chunk.
        const checkRate = () => {
          const elapsedMs = Date.now() - bodyStarted;
          const rate = (received * 1000) / Math.max(elapsedMs, 1);
          if (rate < minRate) {
            const message = `the audio_url sent ${formatRate(rate)} on average over ${formatDuration(elapsedMs)}, below the minimum of ${formatRate(minRate)}`;
            return fail(new JobFailure('download_too_slow', message));
          }
          rateCheck = setTimeout(checkRate, Math.max((received * 1000) / minRate - elapsedMs, 50));
        };
        if (minRate > 0) rateCheck = setTimeout(checkRate, graceMs);
        // The request shares the signal, so an abort also breaks the body off: report why, not how.
        const stopped = () => (pastDeadline() ? tooSlow() : new Error('aborted'));
        const onAbort = () => fail(stopped());
        const broken = (failure: JobFailure) => fail(signal.aborted ? stopped() : failure);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
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
          stop();
          resolve();
        });
        body.on('error', (error) => broken(new JobFailure('audio_unreachable', `the download broke off: ${describeNetworkError(error)}`)));
        body.on('aborted', () => broken(new JobFailure('audio_unreachable', 'the download broke off before the end')));
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
  } finally {
    clearTimeout(deadlineTimer);
  }
}

function tooLarge(maxBytes: number): JobFailure {
  return new JobFailure('audio_too_large', `the audio file is larger than the limit of ${formatBytes(maxBytes)}`);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

function formatDuration(ms: number): string {
  if (ms >= 120_000) return `${Math.round(ms / 60_000)} minutes`;
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 100) / 10} s`;
}

function formatRate(bytesPerSecond: number): string {
  return bytesPerSecond >= 10 * 1024 ? `${Math.round(bytesPerSecond / 1024)} KB/s` : `${Math.round(bytesPerSecond)} bytes/s`;
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

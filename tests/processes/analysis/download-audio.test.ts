// The download's deadlines against a real local HTTP server that trickles, with limits small enough to keep the
// suite fast: the overall deadline (headers included) and the least average rate after the grace period.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { downloadAudio, type DownloadOptions } from '../../../processes/analysis/download-audio.ts';
import { JobFailure } from '../../../processes/analysis/job-failure.ts';

/** Writes `bytes` every `everyMs` until `total` bytes are sent (then ends), or forever; stops when the client goes. */
function drip(response: ServerResponse, bytes: number, everyMs: number, total = Infinity): void {
  response.writeHead(200, { 'content-type': 'audio/wav' });
  let sent = 0;
  const timer = setInterval(() => {
    response.write(Buffer.alloc(bytes, 1));
    sent += bytes;
    if (sent >= total) {
      clearInterval(timer);
      response.end();
    }
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

const server = createServer((request, response) => {
  switch (request.url) {
    case '/trickle':
      // 64 bytes every 50 ms: about 1.3 KB/s, never idle long enough for the stall timeout.
      return drip(response, 64, 50);
    case '/steady':
      // 64 KB every 100 ms for 1 s: about 640 KB/s, past the grace period.
      return drip(response, 64 * 1024, 100, 640 * 1024);
    case '/fast':
      response.writeHead(200, { 'content-type': 'audio/wav' });
      return void response.end(Buffer.alloc(256 * 1024, 1));
    case '/no-headers':
      // Accepts the request and never answers.
      return;
    default:
      response.writeHead(404);
      response.end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const directory = mkdtempSync(join(tmpdir(), 'download-'));
let files = 0;

function options(overrides: Partial<DownloadOptions>): DownloadOptions {
  return { policy: { allowPrivateTargets: true, protocols: ['http:'] }, maxBytes: 10 * 1024 * 1024, maxDurationSeconds: 3600, ...overrides };
}

/** The download's outcome and how long it took; one still running after 5 s is reported as such (no limit held). */
async function attempt(path: string, overrides: Partial<DownloadOptions>): Promise<{ error: unknown; bytes: number | null; ms: number; file: string }> {
  const file = join(directory, `audio-${++files}`);
  const started = Date.now();
  const outcome = downloadAudio(`${base}${path}`, file, options(overrides)).then(
    ({ bytes }) => ({ error: null, bytes }),
    (error: unknown) => ({ error, bytes: null }),
  );
  let timer: NodeJS.Timeout | undefined;
  const stillRunning = new Promise<{ error: unknown; bytes: null }>((resolve) => {
    timer = setTimeout(() => resolve({ error: new Error('still downloading after 5 s'), bytes: null }), 5_000);
  });
  const result = await Promise.race([outcome, stillRunning]);
  clearTimeout(timer);
  return { ...result, ms: Date.now() - started, file };
}

function assertTooSlow(error: unknown, message: RegExp): void {
  assert.instance(error, JobFailure);
  assert.is((error as JobFailure).code, 'download_too_slow');
  assert.match((error as JobFailure).message, message);
}

test('a body that trickles past the overall deadline fails with download_too_slow at the deadline, and the partial file is removed', async () => {
  const outcome = await attempt('/trickle', { deadlineMs: 600, minBytesPerSecond: 0 });
  assertTooSlow(outcome.error, /did not finish downloading within 0\.6 s \(\d+ bytes received\)/);
  assert.ok(outcome.ms >= 550 && outcome.ms < 2_000, `${outcome.ms} ms`);
  assert.not.ok(existsSync(outcome.file));
});

test('the deadline covers the wait for the response headers (the connect timeout only bounds silence)', async () => {
  const outcome = await attempt('/no-headers', { deadlineMs: 500 });
  assertTooSlow(outcome.error, /within 0\.5 s \(0 bytes received\)/);
  assert.ok(outcome.ms < 2_000, `${outcome.ms} ms`);
});

test('after the grace period, an average below the minimum rate fails with download_too_slow, long before the deadline', async () => {
  const outcome = await attempt('/trickle', { slowGraceMs: 300, minBytesPerSecond: 16 * 1024 });
  // Checked when the grace period ends (a loaded machine may run the timer a little late).
  assertTooSlow(outcome.error, /sent \d+ bytes\/s on average over 0\.\d s, below the minimum of 16 KB\/s/);
  assert.ok(outcome.ms >= 280 && outcome.ms < 2_000, `${outcome.ms} ms`);
});

test('downloads at a good rate complete under the same small limits, including one that lasts past the grace period', async () => {
  const limits = { slowGraceMs: 300, minBytesPerSecond: 16 * 1024, deadlineMs: 5_000 };
  const fast = await attempt('/fast', limits);
  assert.is(fast.error, null);
  assert.is(fast.bytes, 256 * 1024);
  const steady = await attempt('/steady', limits);
  assert.is(steady.error, null);
  assert.is(steady.bytes, 640 * 1024);
  assert.ok(steady.ms >= 900, `${steady.ms} ms: the rate was checked more than once`);
});

test("the caller's abort is an abort, not a slow download", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const outcome = await attempt('/trickle', { deadlineMs: 5_000, signal: controller.signal });
  assert.instance(outcome.error, Error);
  assert.not.instance(outcome.error, JobFailure);
  assert.ok(outcome.ms < 1_000, `${outcome.ms} ms`);
});

test.after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(directory, { recursive: true, force: true });
});

test.run();

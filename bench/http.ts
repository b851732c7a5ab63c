/**
 * HTTP benchmark (`npm run bench:http`): how much of a bare Hono server's throughput the full middleware chain
 * keeps. Two servers, each in its own process, served by @hono/node-server in the same way:
 *
 *   1. baseline: a bare Hono app with one `GET /hello` JSON route;
 *   2. the service (`main.ts`) on a temporary DATA_DIR: `GET /v1/scripts?limit=20` with an Admin key, through
 *      request id, the access log line (at the service's default level, `info`, into a file as in production;
 *      LOG_LEVEL=warn turns it off), metrics, route resolution, auth (API key by SHA-256 hash), rate limit
 *      (raised for the bench workspace), scopes, query validation and the page of 20 scripts (25 exist) from the
 *      read models.
 *
 * autocannon on loopback, 50 connections. After a warm-up of each, BENCH_ROUNDS rounds (default 9) measure the
 * baseline then the chain for BENCH_SECONDS (default 5) each, so both see the same machine load; the figures are
 * the medians over the rounds, the ratio the median of the rounds' ratios. The machine is shared: run it with
 * `nice -n -10` (as root) to keep other work from skewing one side.
 * Target: the full chain keeps >= 40% of the baseline's requests/s, and its p99 stays under 20 ms.
 * Usage: npx tsx bench/http.ts        (internal: --serve-hello PORT starts the baseline server)
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loanRenewalScript } from '../tests/support/scripts.ts';
import { client, createWorkspace, freePort, projectDirectory, setRateLimit, startServer } from '../tests/support/server.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARM_UP_SECONDS = 2;
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';

function serveHello(port: number): void {
  const app = new Hono();
  app.get('/hello', (c) => c.json({ hello: 'world' }));
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
}

async function startHello(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/http.ts', '--serve-hello', String(port)], {
    cwd: projectDirectory,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/hello`;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(url)).ok) return { url, child };
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the baseline server did not start');
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

async function measure(name: string, url: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const row = (label: string, figures: Figures) =>
  `${label.padEnd(38)} ${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${figures.p50.toFixed(0).padStart(3)} ms   p99 ${figures.p99.toFixed(0).padStart(3)} ms`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  // The server logs as it would in production (one line per request at `info`), to a file in its DATA_DIR.
  const server = await startServer({ dataDir, env: { LOG_LEVEL }, logFile: join(dataDir, 'server.log') });
  let hello: { url: string; child: ChildProcess } | undefined;
  try {
    hello = await startHello();
    const workspace = await createWorkspace(server, 'Bench');
    await setRateLimit(server, workspace.workspaceId, 10_000_000);
    const api = client(server, workspace.key);
    for (let index = 0; index < 25; index++) {
      const created = await api.post('/v1/scripts', { ...loanRenewalScript(), name: `Loan renewal ${index}` });
      if (created.status !== 201) throw new Error(`seeding failed: ${created.status} ${created.text}`);
    }
    const listUrl = `${server.baseUrl}/v1/scripts?limit=20`;
    const chainHeaders = { authorization: `Bearer ${workspace.key}` };
    const check = await api.get('/v1/scripts?limit=20');
    if (check.status !== 200 || check.body.data.length !== 20) throw new Error(`unexpected list response ${check.status}`);

    process.stdout.write(`HTTP benchmark: ${CONNECTIONS} connections, loopback, ${ROUNDS} rounds of ${SECONDS} s each, server log level ${LOG_LEVEL}\n`);
    await measure('baseline warm-up', hello.url, {}, WARM_UP_SECONDS);
    await measure('full chain warm-up', listUrl, chainHeaders, WARM_UP_SECONDS);
    const baselines: Figures[] = [];
    const chains: Figures[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const baseline = await measure('baseline', hello.url, {}, SECONDS);
      const chain = await measure('full chain', listUrl, chainHeaders, SECONDS);
      baselines.push(baseline);
      chains.push(chain);
      process.stdout.write(
        `  round ${round}: bare ${baseline.requestsPerSecond.toFixed(0)} req/s, chain ${chain.requestsPerSecond.toFixed(0)} req/s` +
          ` (${((chain.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(1)}%), chain p99 ${chain.p99} ms\n`,
      );
    }
    const medians = (figures: Figures[]): Figures => ({
      requestsPerSecond: median(figures.map((f) => f.requestsPerSecond)),
      p50: median(figures.map((f) => f.p50)),
      p99: median(figures.map((f) => f.p99)),
    });
    const baseline = medians(baselines);
    const chain = medians(chains);
    const ratio = median(chains.map((f, index) => f.requestsPerSecond / baselines[index]!.requestsPerSecond));
    const pass = ratio >= 0.4 && chain.p99 < 20;
    process.stdout.write(`\nmedians of ${ROUNDS} rounds\n`);
    process.stdout.write(`${row('bare Hono GET /hello', baseline)}\n`);
    process.stdout.write(`${row('full chain GET /v1/scripts?limit=20', chain)}\n`);
    process.stdout.write(`ratio ${(ratio * 100).toFixed(1)}% of baseline (target >= 40%), chain p99 ${chain.p99} ms (target < 20 ms)\n`);
    process.stdout.write(`verdict: ${pass ? 'PASS' : 'BELOW TARGET'}\n`);
  } finally {
    hello?.child.kill('SIGTERM');
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve-hello') serveHello(Number(process.argv[3]));
else {
  // Exit explicitly: nothing the run leaves behind (sockets, child handles) may keep the process alive.
  await main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench:http failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

/**
 * HTTP benchmark (`npm run bench:http`): how much of a bare Hono server's throughput the full middleware chain
 * keeps. Two servers, each in its own process, served by @hono/node-server in the same way:
 *
 *   1. baseline: a bare Hono app with one `GET /hello` JSON route;
 *   2. the service (`main.ts`) on a temporary DATA_DIR: `GET /v1/scripts?limit=20` with an Admin key, through
 *      request id, logging, metrics, route resolution, auth (SQLite lookup by key hash), rate limit (raised for
 *      the bench workspace), scopes, and the SQLite read of 20 scripts (25 exist).
 *
 * autocannon on loopback, 50 connections, a short warm-up then BENCH_SECONDS (default 10) each.
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
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = 2;

function serveHello(port: number): void {
  const app = new Hono();
  app.get('/hello', (c) => c.json({ hello: 'world' }));
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
}

async function startHello(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/http.ts', '--serve-hello', String(port)], {
    cwd: projectDirectory,
    stdio: 'inherit',
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

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<AutocannonResult> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  return result;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const server = await startServer({ dataDir, env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' } });
  const hello = await startHello();
  try {
    const workspace = await createWorkspace(server, 'Bench');
    await setRateLimit(server, workspace.workspaceId, 10_000_000);
    const api = client(server, workspace.key);
    for (let index = 0; index < 25; index++) {
      const created = await api.post('/v1/scripts', { ...loanRenewalScript(), name: `Loan renewal ${index}` });
      if (created.status !== 201) throw new Error(`seeding failed: ${created.status} ${created.text}`);
    }
    const listUrl = `${server.baseUrl}/v1/scripts?limit=20`;
    const check = await api.get('/v1/scripts?limit=20');
    if (check.status !== 200 || check.body.data.length !== 20) throw new Error(`unexpected list response ${check.status}`);

    const baseline = await measure('baseline', hello.url);
    const chain = await measure('full chain', listUrl, { authorization: `Bearer ${workspace.key}` });
    const row = (label: string, result: AutocannonResult) =>
      `${label.padEnd(36)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(result.latency.p50).padStart(3)} ms   p99 ${String(result.latency.p99).padStart(3)} ms`;
    const ratio = chain.requests.average / baseline.requests.average;
    process.stdout.write(`\nHTTP benchmark: ${CONNECTIONS} connections, ${SECONDS} s each, loopback, log level ${process.env.LOG_LEVEL ?? 'warn'}\n`);
    process.stdout.write(`${row('bare Hono GET /hello', baseline)}\n`);
    process.stdout.write(`${row('full chain GET /v1/scripts?limit=20', chain)}\n`);
    process.stdout.write(`ratio ${(ratio * 100).toFixed(1)}% of baseline (target >= 40%), p99 ${chain.latency.p99} ms (target < 20 ms)\n`);
    process.stdout.write(`verdict: ${ratio >= 0.4 && chain.latency.p99 < 20 ? 'PASS' : 'BELOW TARGET'}\n`);
  } finally {
    hello.child.kill('SIGTERM');
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve-hello') serveHello(Number(process.argv[3]));
else await main();

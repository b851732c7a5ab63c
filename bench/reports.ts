/**
 * npm run bench:reports — report generation at a reduced scale (the machine is shared; BENCH_CALLS, default 100,000
 * calls over 30 days, 60% connected and scored, compliance evaluated; bench/report-facts.ts). For each of the five
 * types and each format: generation time on the report pool's worker thread (collect + render), file size, the
 * process RSS and the worker's V8 heap (in use and held) after the run; call_summary in a second zone; then the API's p99 (GET /v1/analytics/calls over 30 days, one request at a time, on the real HTTP app
 * served on loopback in this process) while PDFs generate on the worker versus idle.
 * Env: BENCH_CALLS; BENCH_DATA_DIR=path keeps the seeded data there: the first run seeds it and writes
 * `bench-reports-seed.json`, later runs with the same BENCH_CALLS reuse it without seeding (1,000,000 calls take
 * 13+ minutes to seed), and the directory is left in place.
 */
import { serve } from '@hono/node-server';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../composition.ts';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.ts';
import { workspaceDecider, workspaceStream } from '../domain/workspace.ts';
import { createHttpApp } from '../http/app.ts';
import { hashApiKeySecret, newApiKeySecret } from '../infra/crypto/api-key-secret.ts';
import { loadConfig } from '../infra/config.ts';
import { createLogger } from '../infra/logger.ts';
import { createReportPool } from '../processes/reports/report-pool.ts';
import { seedReportFacts } from './report-facts.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const TYPES = ['call_summary', 'qa_performance', 'compliance_audit', 'agent_coaching', 'campaign_performance'] as const;
const SEED_MARKER = 'bench-reports-seed.json';

interface SeedMarker {
  calls: number;
  days: number;
  first_day: string;
  /** The read-only API key the seeding run created (only its hash is in the read models). */
  api_key: string;
}

/** The kept seed in BENCH_DATA_DIR, or null when it has not been seeded yet (a different size is refused). */
function keptSeed(dataDir: string): SeedMarker | null {
  const path = join(dataDir, SEED_MARKER);
  if (!existsSync(path)) {
    if (readdirSync(dataDir).length > 0) throw new Error(`${dataDir} is not empty and has no ${SEED_MARKER} (an interrupted seeding?): remove it or use another BENCH_DATA_DIR`);
    return null;
  }
  const marker = JSON.parse(readFileSync(path, 'utf8')) as SeedMarker;
  if (marker.calls !== CALLS) throw new Error(`${dataDir} holds ${marker.calls} seeded calls, not BENCH_CALLS=${CALLS}: use another BENCH_DATA_DIR`);
  return marker;
}
const FORMATS = ['json', 'csv', 'pdf'] as const;

async function main(): Promise<void> {
  const keptDir = process.env.BENCH_DATA_DIR;
  if (keptDir !== undefined) mkdirSync(keptDir, { recursive: true });
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'bench-reports-'));
  const kept = keptDir === undefined ? null : keptSeed(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, EVENTSTORE_SYNC: 'normal', CLOCK: 'manual', CLOCK_START: '2026-04-01T00:00:00Z' });
  const runtime = createRuntime(config, createLogger('silent'), () => []);
  await runtime.start();
  const now = runtime.clock.now();
  let key: string;
  if (kept !== null) {
    key = kept.api_key;
    await runtime.projections.catchUp();
    console.log(`reusing ${CALLS.toLocaleString('en')} seeded calls in ${dataDir}`);
  } else {
    const context = { workspaceId: 'ws_bench', actor: 'bench', now };
    await runtime.commands.handle(workspaceDecider, workspaceStream('ws_bench'), { type: 'CreateWorkspace', workspaceId: 'ws_bench', name: 'bench', now }, context);
    // The API probe sends requests back to back: well over the default per-minute limit.
    await runtime.commands.handle(workspaceDecider, workspaceStream('ws_bench'), { type: 'SetRateLimit', perMinute: 1_000_000 }, context);
    key = newApiKeySecret();
    await runtime.commands.handle(apiKeyDecider, apiKeyStream('key_bench'), { type: 'CreateApiKey', keyId: 'key_bench', workspaceId: 'ws_bench', name: 'bench', scope: 'Read-Only', secretHash: hashApiKeySecret(key), now }, context);
    const seeded = performance.now();
    await seedReportFacts(runtime, { workspaceId: 'ws_bench', calls: CALLS, days: 30, firstDay: '2026-03-01', inFlight: 256, compliance: true });
    console.log(`seeded ${CALLS.toLocaleString('en')} calls over 30 days in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    if (keptDir !== undefined) writeFileSync(join(dataDir, SEED_MARKER), JSON.stringify({ calls: CALLS, days: 30, first_day: '2026-03-01', api_key: key } satisfies SeedMarker));
  }
  const pool = createReportPool({ threads: 1, budgetMs: 300_000, readModelPath: config.readModelPath, nice: Number(process.env.REPORT_THREAD_NICE ?? 10) });
  const request = (type: (typeof TYPES)[number], format: (typeof FORMATS)[number], timezone = 'Asia/Kolkata') => ({
    report_id: 'rpt_bench', run_id: 'rrn_bench', workspace_id: 'ws_bench', type, format, period: { from: '2026-03-01', to: '2026-03-30' }, timezone, filters: {}, base_url: 'http://127.0.0.1', generated_at: new Date().toISOString(),
  });
  await pool.generate(request('call_summary', 'pdf')); // warm-up: the thread compiles the modules once
  console.log('type                  format  total ms  collect  render  size KB  process RSS MB  worker heap MB (used/held)');
  let peakRss = 0;
  let peakHeap = 0;
  for (const type of TYPES) {
    for (const format of FORMATS) {
      const started = performance.now();
      const result = await pool.generate(request(type, format));
      const total = performance.now() - started;
      peakRss = Math.max(peakRss, result.rss_bytes);
      peakHeap = Math.max(peakHeap, result.heap_total_bytes);
      console.log(`${type.padEnd(22)}${format.padEnd(8)}${total.toFixed(0).padStart(8)}${String(result.collect_ms).padStart(9)}${String(result.render_ms).padStart(8)}${(result.bytes.byteLength / 1024).toFixed(1).padStart(9)}${(result.rss_bytes / 1048576).toFixed(0).padStart(16)}${(result.heap_bytes / 1048576).toFixed(0).padStart(16)}/${(result.heap_total_bytes / 1048576).toFixed(0)}`);
    }
  }
  const otherZone = performance.now();
  await pool.generate(request('call_summary', 'json', 'Europe/London'));
  console.log(`call_summary json in Europe/London: ${(performance.now() - otherZone).toFixed(0)} ms`);
  console.log(`peak after a run: process RSS ${(peakRss / 1048576).toFixed(0)} MB (main thread, read models and worker together), worker V8 heap held ${(peakHeap / 1048576).toFixed(0)} MB; process peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (includes seeding when it seeded)`);

  const app = createHttpApp(runtime);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/analytics/calls?from=2026-03-01&to=2026-03-30&timezone=Asia/Kolkata&group_by=day`;
  const latencies = async (stopWhen: () => boolean, minimum: number) => {
    const times: number[] = [];
    while (times.length < minimum || !stopWhen()) {
      const started = performance.now();
      const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET analytics answered ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!, count: times.length };
  };
  await latencies(() => true, 50); // warm-up
  const idle = await latencies(() => true, 300);
  let generating = true;
  const pdfs = (async () => {
    for (const type of TYPES) await pool.generate(request(type, 'pdf'));
    generating = false;
  })();
  const busy = await latencies(() => !generating, 50);
  await pdfs;
  console.log(`API p50/p99 (GET /v1/analytics/calls, 30 days by day): idle ${idle.p50.toFixed(1)}/${idle.p99.toFixed(1)} ms (${idle.count} requests), while ${TYPES.length} PDFs generate ${busy.p50.toFixed(1)}/${busy.p99.toFixed(1)} ms (${busy.count} requests): p99 ratio ${(busy.p99 / idle.p99).toFixed(2)}`);
  server.close();
  await pool.close();
  await runtime.close();
  if (keptDir === undefined) rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

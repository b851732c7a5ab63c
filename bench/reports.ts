/**
 * npm run bench:reports — report generation at a reduced scale (the machine is shared; BENCH_CALLS, default 20,000
 * calls over 30 days, 60% connected and scored; bench/report-facts.ts). For each type and format: generation time
 * on the report pool's worker thread (collect + render), file size, and the worker's RSS after the run; then the
 * main thread's event-loop delay p99 (what every API request waits behind) while a PDF generates versus idle.
 * Env: BENCH_CALLS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../composition.ts';
import { loadConfig } from '../infra/config.ts';
import { createLogger } from '../infra/logger.ts';
import { createReportPool } from '../processes/reports/report-pool.ts';
import { seedReportFacts } from './report-facts.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const TYPES = ['call_summary', 'qa_performance', 'agent_coaching', 'campaign_performance'] as const;
const FORMATS = ['json', 'csv', 'pdf'] as const;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
  const config = loadConfig({ DATA_DIR: dataDir, EVENTSTORE_SYNC: 'normal', CLOCK: 'manual', CLOCK_START: '2026-04-01T00:00:00Z' });
  const runtime = createRuntime(config, createLogger('silent'), () => []);
  await runtime.start();
  const seeded = performance.now();
  await seedReportFacts(runtime, { workspaceId: 'ws_bench', calls: CALLS, days: 30, firstDay: '2026-03-01', inFlight: 256 });
  console.log(`seeded ${CALLS.toLocaleString('en')} calls over 30 days in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const pool = createReportPool({ threads: 1, budgetMs: 300_000, readModelPath: config.readModelPath });
  const request = (type: (typeof TYPES)[number], format: (typeof FORMATS)[number], timezone = 'Asia/Kolkata') => ({
    report_id: 'rpt_bench', run_id: 'rrn_bench', workspace_id: 'ws_bench', type, format, period: { from: '2026-03-01', to: '2026-03-30' }, timezone, filters: {}, base_url: 'http://127.0.0.1', generated_at: new Date().toISOString(),
  });
  await pool.generate(request('call_summary', 'pdf')); // warm-up: the thread compiles the modules once
  console.log('type                  format  total ms  collect  render  size KB  worker RSS MB');
  let peakRss = 0;
  for (const type of TYPES) {
    for (const format of FORMATS) {
      const started = performance.now();
      const result = await pool.generate(request(type, format));
      const total = performance.now() - started;
      peakRss = Math.max(peakRss, result.rss_bytes);
      console.log(`${type.padEnd(22)}${format.padEnd(8)}${total.toFixed(0).padStart(8)}${String(result.collect_ms).padStart(9)}${String(result.render_ms).padStart(8)}${(result.bytes.byteLength / 1024).toFixed(1).padStart(9)}${(result.rss_bytes / 1048576).toFixed(0).padStart(15)}`);
    }
  }
  const nonRollup = performance.now();
  await pool.generate(request('call_summary', 'json', 'Europe/London'));
  console.log(`call_summary json in Europe/London (no rollups, per-call facts): ${(performance.now() - nonRollup).toFixed(0)} ms`);
  console.log(`worker peak RSS after a run: ${(peakRss / 1048576).toFixed(0)} MB`);

  const delay = async (during: () => Promise<unknown>) => {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    await during();
    histogram.disable();
    return histogram.percentile(99) / 1e6;
  };
  const idle = await delay(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
  const busy = await delay(() => Promise.all([pool.generate(request('agent_coaching', 'pdf')), pool.generate(request('call_summary', 'pdf'))]));
  console.log(`main-thread event-loop delay p99: idle ${idle.toFixed(1)} ms, while PDFs generate ${busy.toFixed(1)} ms`);
  await pool.close();
  await runtime.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

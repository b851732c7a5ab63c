/**
 * What each thread of the report pool (report-pool.ts) runs: one report, read from its own read-only connection to
 * the read models (SQLite in WAL mode lets it read while the main thread's projections write). Loaded through
 * infra/worker-threads/typescript-worker.mjs, which compiles TypeScript in the thread.
 */
import Database from 'better-sqlite3';
import { getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { chartSvg, type ChartInput } from '../../infra/reports/charts.ts';
import { renderReport, type RenderedReport, type RenderRequest } from './render-report.ts';

let connection: { path: string; db: Database.Database } | null = null;

function readModels(path: string): Database.Database {
  if (connection?.path !== path) {
    connection?.db.close();
    const db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 10000');
    connection = { path, db };
  }
  return connection.db;
}

/**
 * `rss_bytes` is the whole process's (threads share it); `heap_bytes` this thread's V8 heap in use after the report,
 * `heap_total_bytes` the heap V8 holds for the thread then: it grows to the report's peak and shrinks only lazily,
 * so it bounds the peak from above, as near as V8 tells without sampling.
 */
export type WorkerResult = RenderedReport & { thread_id: number; rss_bytes: number; heap_bytes: number; heap_total_bytes: number };

export default async function generate(task: { readModelPath: string; request: RenderRequest }): Promise<WorkerResult> {
  const rendered = await renderReport(readModels(task.readModelPath), task.request);
  const heap = getHeapStatistics();
  return { ...rendered, thread_id: threadId, rss_bytes: process.memoryUsage.rss(), heap_bytes: heap.used_heap_size, heap_total_bytes: heap.total_heap_size };
}

/** A chart for a dashboard page, drawn by the reports' own chart code (one definition for PDF and page). */
export async function renderChart(task: { chart: ChartInput }): Promise<string> {
  return chartSvg(task.chart);
}

import { Piscina } from 'piscina';
import { WorkspaceTurns } from '../../infra/worker-threads/workspace-turns.ts';
import type { ChartInput } from '../../infra/reports/charts.ts';
import type { RenderRequest } from './render-report.ts';
import type { WorkerResult } from './report-worker.ts';

/**
 * Report generation off the event loop: a piscina pool of worker threads (REPORT_THREADS, default 1), each with
 * its own read-only SQLite connection (report-worker.ts), a heap limit and a time budget per report
 * (REPORT_BUDGET_SECONDS): a report that runs past it is stopped (its thread is replaced) and the attempt fails.
 * Reports take the threads in turns between workspaces (WorkspaceTurns). The threads start with the first report.
 */
const TYPESCRIPT_WORKER = new URL('../../infra/worker-threads/typescript-worker.mjs', import.meta.url).href;
const REPORT_WORKER = new URL('./report-worker.ts', import.meta.url).href;

export interface ReportPoolOptions {
  threads: number;
  budgetMs: number;
  maxHeapMb?: number;
  readModelPath: string;
  /** The threads' nice value (REPORT_THREAD_NICE; default 0 here, the normal priority). */
  nice?: number;
}

export class ReportBudgetExceededError extends Error {}

export interface ReportPool {
  generate(request: RenderRequest): Promise<WorkerResult>;
  /**
   * A chart's SVG drawn on a report thread (vega takes 20-200 ms of CPU a chart): the dashboard's Overview uses it
   * so its chart never runs on the event loop. Same turns and budget as a report.
   */
  chart(workspaceId: string, chart: ChartInput): Promise<string>;
  close(): Promise<void>;
}

export function createReportPool(options: ReportPoolOptions): ReportPool {
  let pool: Piscina | null = null;
  // Reports wait for a thread here, in turns between workspaces, and their budget starts when a thread takes them.
  const turns = new WorkspaceTurns(options.threads);
  const started = () =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: REPORT_WORKER, threadName: 'reports', nice: options.nice ?? 0 },
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    }));
  /** Runs a task when the workspace's turn comes, within the budget (which starts when a thread takes it). */
  async function withThread<T>(workspaceId: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const turn = await turns.take(workspaceId);
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new ReportBudgetExceededError(`report generation took longer than ${options.budgetMs / 1000} s`)), options.budgetMs);
    try {
      return await run(budget.signal);
    } catch (error) {
      if (budget.signal.aborted) throw budget.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      turn.end();
    }
  }
  return {
    generate: (request) => withThread(request.workspace_id, (signal) => started().run({ readModelPath: options.readModelPath, request }, { signal }) as Promise<WorkerResult>),
    chart: (workspaceId, chart) => withThread(workspaceId, (signal) => started().run({ chart }, { signal, name: 'renderChart' }) as Promise<string>),
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}

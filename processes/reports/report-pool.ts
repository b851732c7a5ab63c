import { Piscina } from 'piscina';
import { WorkspaceTurns } from '../../infra/worker-threads/workspace-turns.ts';
import { BACKGROUND_NICE } from '../../infra/worker-threads/background-priority.ts';
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
}

export class ReportBudgetExceededError extends Error {}

export interface ReportPool {
  generate(request: RenderRequest): Promise<WorkerResult>;
  close(): Promise<void>;
}

export function createReportPool(options: ReportPoolOptions): ReportPool {
  let pool: Piscina | null = null;
  // Reports wait for a thread here, in turns between workspaces, and their budget starts when a thread takes them.
  const turns = new WorkspaceTurns(options.threads);
  const started = () =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: REPORT_WORKER, nice: BACKGROUND_NICE },
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    }));
  return {
    async generate(request) {
      await turns.take(request.workspace_id);
      const budget = new AbortController();
      const timer = setTimeout(() => budget.abort(new ReportBudgetExceededError(`report generation took longer than ${options.budgetMs / 1000} s`)), options.budgetMs);
      try {
        return (await started().run({ readModelPath: options.readModelPath, request }, { signal: budget.signal })) as WorkerResult;
      } catch (error) {
        if (budget.signal.aborted) throw budget.signal.reason;
        throw error;
      } finally {
        clearTimeout(timer);
        turns.give();
      }
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}

/**
 * The server's TranscriptAnalysis: each analysis runs on a piscina pool of worker threads, so the event loop that
 * serves every workspace's requests never waits for one (issue 12: one hostile transcript blocked it for 25 s).
 *
 * - **Budget.** An analysis that runs longer than `budgetMs` is stopped: piscina terminates its thread on the abort
 *   and starts a fresh one. The budget counts from when a thread takes the task, not the wait for a free thread
 *   (at most `threads` tasks are handed to the pool at once), so one tenant's long analysis cannot spend another's
 *   budget. A thread's first task also pays for its start (compiling the analysis modules, well under a second).
 * - **Heap.** Each thread has its own old-generation limit (`maxHeapMb`): an input that needs more kills that
 *   thread (`AnalysisFailedError`, out of memory), never the process.
 * - The threads start with the first analysis, so the operator CLI, which builds the same runtime, starts none.
 */
import { Piscina } from 'piscina';
import { WorkspaceTurns } from '../worker-threads/workspace-turns.ts';
import type { ComplianceEvaluationResult, ComplianceEvaluationTask, ComplianceEvaluator } from './compliance-evaluation.ts';
import { AnalysisBudgetExceededError, AnalysisFailedError, type AnalysisTaskOptions, type TranscriptAnalysis, type TranscriptAnalysisInput, type TranscriptAnalysisResult } from './transcript-analysis.ts';

export const DEFAULT_ANALYSIS_HEAP_MB = 256;

const TYPESCRIPT_WORKER = new URL('../worker-threads/typescript-worker.mjs', import.meta.url).href;
const LEXICON_ANALYSIS_WORKER = new URL('./analysis-worker.ts', import.meta.url).href;

export interface AnalysisPoolOptions {
  /** Worker threads (ANALYSIS_THREADS). */
  threads: number;
  /** How long one analysis may run (ANALYSIS_BUDGET_SECONDS × 1000). */
  budgetMs: number;
  /** Old-generation heap limit of each thread. */
  maxHeapMb?: number;
  /** The threads' nice value (ANALYSIS_THREAD_NICE; default 0, the normal priority). */
  nice?: number;
  /** Whether the lexicon analyzer runs with the trained call classifier on top (ANALYSIS_CLASSIFIER=on). */
  classifier?: boolean;
  /** Whether the compliance rules run with the trained compliance classifier on top (COMPLIANCE_CLASSIFIER=on). */
  complianceClassifier?: boolean;
  /** A file: URL of the TypeScript module whose default export analyses; tests inject slow or greedy ones. */
  workerModule?: string;
}

export interface AnalysisPool extends TranscriptAnalysis, ComplianceEvaluator {
  /** The id of the thread that runs analyses (0 would be the main thread). */
  workerThreadId(): Promise<number>;
}

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const { threads, budgetMs } = options;
  const slots = new WorkspaceTurns(threads);
  let pool: Piscina | null = null;

  const started = (): Piscina =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: options.workerModule ?? LEXICON_ANALYSIS_WORKER, threadName: 'analysis', nice: options.nice ?? 0, classifier: options.classifier ?? false, complianceClassifier: options.complianceClassifier ?? false },
      minThreads: threads,
      maxThreads: threads,
      // The thread compiles TypeScript itself; the parent's flags (a loader, a profiler) are not its business.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_ANALYSIS_HEAP_MB },
    }));

  /** One task on a thread: a slot, the budget from when the thread takes it, and the thread's death as an error. */
  async function runTask(task: unknown, name: string | undefined, { signal, workspaceId }: AnalysisTaskOptions): Promise<unknown> {
    const turn = await slots.take(workspaceId ?? '', signal);
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(new AnalysisBudgetExceededError(budgetMs)), budgetMs);
    try {
      return await started().run(task, { ...(name ? { name } : {}), signal: signal ? AbortSignal.any([signal, budget.signal]) : budget.signal });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (budget.signal.aborted) throw budget.signal.reason;
      throw new AnalysisFailedError((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY', { cause: error });
    } finally {
      clearTimeout(timer);
      turn.end();
    }
  }

  return {
    async analyse(input: TranscriptAnalysisInput, options: AnalysisTaskOptions = {}): Promise<TranscriptAnalysisResult> {
      return (await runTask(input, undefined, options)) as TranscriptAnalysisResult;
    },
    async evaluateCompliance(task: ComplianceEvaluationTask, options: AnalysisTaskOptions = {}): Promise<ComplianceEvaluationResult> {
      return (await runTask(task, 'evaluateCompliance', options)) as ComplianceEvaluationResult;
    },
    async workerThreadId() {
      return (await started().run(null, { name: 'workerThreadId' })) as number;
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}

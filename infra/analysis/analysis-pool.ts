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
  /** A file: URL of the TypeScript module whose default export analyses; tests inject slow or greedy ones. */
  workerModule?: string;
}

export interface AnalysisPool extends TranscriptAnalysis, ComplianceEvaluator {
  /** The id of the thread that runs analyses (0 would be the main thread). */
  workerThreadId(): Promise<number>;
}

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const { threads, budgetMs } = options;
  const slots = new Slots(threads);
  let pool: Piscina | null = null;

  const started = (): Piscina =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: options.workerModule ?? LEXICON_ANALYSIS_WORKER },
      minThreads: threads,
      maxThreads: threads,
      // The thread compiles TypeScript itself; the parent's flags (a loader, a profiler) are not its business.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_ANALYSIS_HEAP_MB },
    }));

  /** One task on a thread: a slot, the budget from when the thread takes it, and the thread's death as an error. */
  async function runTask(task: unknown, name: string | undefined, { signal, workspaceId }: AnalysisTaskOptions): Promise<unknown> {
    await slots.take(workspaceId ?? '', signal);
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
      slots.give();
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

/**
 * At most `count` analyses in the pool at once; the others wait here, where their budget does not run. A freed slot
 * goes to the workspaces waiting in turn (round robin), not first come first served: one workspace's burst (every
 * answered call of a 20,000-contact campaign is analysed and evaluated) waits behind its own tasks, not in front
 * of another workspace's.
 */
class Slots {
  private free: number;
  private readonly waiting = new Map<string, Array<() => void>>();
  /** Who was given a slot last: the next turn goes to someone else when someone else waits. */
  private lastServed: string | null = null;

  constructor(count: number) {
    this.free = count;
  }

  async take(owner: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      this.lastServed = owner;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const queue = this.waiting.get(owner);
        queue?.splice(queue.indexOf(granted), 1);
        if (queue?.length === 0) this.waiting.delete(owner);
        reject(signal!.reason);
      };
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const queue = this.waiting.get(owner);
      if (queue) queue.push(granted);
      else this.waiting.set(owner, [granted]);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  give(): void {
    if (this.waiting.size === 0) {
      this.free++;
      return;
    }
    // A Map iterates in insertion order: the first owner is the one whose turn it is (unless it was served last and
    // another waits); it goes to the back.
    let owner: string | undefined;
    for (const candidate of this.waiting.keys()) {
      owner ??= candidate;
      if (candidate !== this.lastServed) {
        owner = candidate;
        break;
      }
    }
    const queue = this.waiting.get(owner!)!;
    const next = queue.shift()!;
    this.waiting.delete(owner!);
    if (queue.length > 0) this.waiting.set(owner!, queue);
    this.lastServed = owner!;
    next();
  }
}

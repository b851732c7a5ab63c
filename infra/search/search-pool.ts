/**
 * The server's TranscriptSearcher: each search runs on a small piscina pool of worker threads with their own
 * read-only connections to read.db, so an expensive search (a one-character query scanning a large workspace, a
 * phrase of common words, a deep page) never holds the event loop that serves every workspace.
 *
 * - **Budget.** A search that runs longer than `budgetMs` is answered at once with SearchBudgetExceededError
 *   (`503 search_budget_exceeded`); piscina terminates its thread and starts a fresh one. A thread inside one
 *   SQLite statement stops when that statement returns to JavaScript (each statement is bounded by the size of one
 *   workspace's index). The budget counts from when a thread takes the search, not the wait for a free thread (at
 *   most `threads` searches are in the pool at once; the others queue).
 * - **Totals.** Each thread remembers the exact totals of its recent searches (projections/transcript-search-totals.ts,
 *   bounded by `totalsBytes`): with several threads, a search's next request may land on a thread that counts it
 *   afresh. A thread replaced after its budget starts with none.
 * - The threads start with the first search, so the operator CLI, which builds the same runtime, starts none.
 */
import { Piscina } from 'piscina';
import type { TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import { SearchBudgetExceededError, type TranscriptSearcher, type TranscriptSearchPage } from './port.ts';
import type { SearchTask } from './search-worker.ts';

const TYPESCRIPT_WORKER = new URL('../worker-threads/typescript-worker.mjs', import.meta.url).href;
const SEARCH_WORKER = new URL('./search-worker.ts', import.meta.url).href;

export interface SearchPoolOptions {
  /** read.db's path. */
  path: string;
  /** Worker threads (SEARCH_THREADS). */
  threads: number;
  /** How long one search may run (SEARCH_BUDGET_MS). */
  budgetMs: number;
  /** Each thread's remembered totals, in bytes (SEARCH_TOTALS_CACHE_BYTES); 0: none. */
  totalsBytes: number;
}

export function createSearchPool(options: SearchPoolOptions): TranscriptSearcher {
  const { threads, budgetMs } = options;
  let pool: Piscina | null = null;
  let running = 0;
  const waiting: Array<() => void> = [];

  const started = (): Piscina =>
    (pool ??= new Piscina({
      filename: TYPESCRIPT_WORKER,
      workerData: { module: SEARCH_WORKER },
      minThreads: threads,
      maxThreads: threads,
      execArgv: [],
      // A search holds one page of results: far below this; a runaway one fails alone.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    }));

  return {
    async search(search: TranscriptSearch): Promise<TranscriptSearchPage> {
      if (running >= threads) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      const budget = new AbortController();
      const timer = setTimeout(() => budget.abort(new SearchBudgetExceededError(budgetMs)), budgetMs);
      try {
        const task: SearchTask = { path: options.path, search, totalsBytes: options.totalsBytes };
        return (await started().run(task, { signal: budget.signal })) as TranscriptSearchPage;
      } catch (error) {
        if (budget.signal.aborted) throw budget.signal.reason;
        throw error;
      } finally {
        clearTimeout(timer);
        running--;
        waiting.shift()?.();
      }
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}

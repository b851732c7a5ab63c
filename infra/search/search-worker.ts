/**
 * What each thread of the search pool (search-pool.ts) runs: one transcript search over its own read-only
 * connection to read.db (opened on the thread's first search, kept for the next), with the thread's remembered
 * exact totals (projections/transcript-search-totals.ts). Loaded through
 * infra/worker-threads/typescript-worker.mjs, which compiles TypeScript in the thread.
 */
import Database from 'better-sqlite3';
import { DEFAULT_SEARCH_TUNING, searchTranscripts, type TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import { SearchTotals } from '../../projections/transcript-search-totals.ts';
import type { TranscriptSearchPage } from './port.ts';

export interface SearchTask {
  /** read.db's path. */
  path: string;
  search: TranscriptSearch;
  /** The bound of this thread's remembered totals, in bytes (SEARCH_TOTALS_CACHE_BYTES); 0: none. */
  totalsBytes: number;
}

let connection: { path: string; db: Database.Database; totals: SearchTotals | undefined } | undefined;

export default function search(task: SearchTask): TranscriptSearchPage {
  if (connection?.path !== task.path) {
    connection?.db.close();
    const db = new Database(task.path, { readonly: true, fileMustExist: true });
    // The writer (the projection runner) may be mid-transaction: WAL readers never wait for it, but a checkpoint may.
    db.pragma('busy_timeout = 5000');
    // Totals belong to one database: a new connection starts with none.
    connection = { path: task.path, db, totals: task.totalsBytes > 0 ? new SearchTotals(task.totalsBytes) : undefined };
  }
  return searchTranscripts(connection.db, task.search, DEFAULT_SEARCH_TUNING, connection.totals);
}

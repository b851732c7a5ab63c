/**
 * What each thread of the search pool (search-pool.ts) runs: one transcript search over its own read-only
 * connection to read.db (opened on the thread's first search, kept for the next). Loaded through
 * infra/worker-threads/typescript-worker.mjs, which compiles TypeScript in the thread.
 */
import Database from 'better-sqlite3';
import { searchTranscripts, type TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import type { TranscriptSearchPage } from './port.ts';

export interface SearchTask {
  /** read.db's path. */
  path: string;
  search: TranscriptSearch;
}

let connection: { path: string; db: Database.Database } | undefined;

export default function search(task: SearchTask): TranscriptSearchPage {
  if (connection?.path !== task.path) {
    connection?.db.close();
    const db = new Database(task.path, { readonly: true, fileMustExist: true });
    // The writer (the projection runner) may be mid-transaction: WAL readers never wait for it, but a checkpoint may.
    db.pragma('busy_timeout = 5000');
    connection = { path: task.path, db };
  }
  return searchTranscripts(connection.db, task.search);
}

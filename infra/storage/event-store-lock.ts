import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export class EventStoreFileInUse extends Error {
  constructor(path: string, cluster: boolean) {
    super(
      cluster
        ? `a server without CLUSTER=true is running on the event store ${path}; every node sharing a store needs CLUSTER=true`
        : `another server is running on the event store ${path}; servers sharing one EVENTSTORE_FILE need CLUSTER=true (or each its own file)`,
    );
    this.name = 'EventStoreFileInUse';
  }
}

/**
 * Keeps a lone server (CLUSTER=false) the only server on its embedded event store, as `lockDataDir` keeps it the
 * only one on its DATA_DIR: two lone servers with their own DATA_DIRs but one EVENTSTORE_FILE would both run the
 * process managers, and dial and deliver twice. Cluster nodes share the file (their leader lease decides who does
 * singleton work), so they hold SQLite's SHARED lock on `<file>.nodes.lock`, which any number may hold; a lone
 * server holds its EXCLUSIVE lock, which it gets only when no node holds either. The operating system drops the
 * lock when the process ends, however it ends. The operator CLI takes none.
 */
export function lockEventStoreFile(eventsPath: string, mode: 'shared' | 'exclusive'): { release(): void } {
  mkdirSync(dirname(eventsPath), { recursive: true });
  const db = new Database(`${eventsPath}.nodes.lock`, { timeout: 5_000 });
  try {
    if (mode === 'exclusive') {
      db.pragma('busy_timeout = 0');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } else {
      // The table gives the read below something to read; creating it (once, by the first node) waits for its turn.
      db.exec('CREATE TABLE IF NOT EXISTS cluster_nodes (unused INTEGER)');
      db.pragma('busy_timeout = 0');
      db.exec('BEGIN');
      // Holds the SHARED lock until the transaction ends, that is for the life of the process.
      db.prepare('SELECT count(*) FROM cluster_nodes').get();
    }
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new EventStoreFileInUse(eventsPath, mode === 'shared');
    throw error;
  }
  return {
    release() {
      db.close();
    },
  };
}

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUse extends Error {
  constructor(dataDirectory: string) {
    super(`another server is running on DATA_DIR ${dataDirectory}; stop it first (the operator CLI may run beside a server, a second server may not)`);
    this.name = 'DataDirInUse';
  }
}

/**
 * Makes this process the only server on its DATA_DIR: a second one would run the same process managers and dial,
 * deliver and fire timers a second time. The lock is SQLite's exclusive lock on `DATA_DIR/server.lock`, held by an
 * open transaction for as long as the process lives; the operating system drops it when the process ends however
 * it ends (a crash or SIGKILL leaves no stale lock behind). The operator CLI does not take it.
 */
export function lockDataDir(dataDirectory: string): { release(): void } {
  mkdirSync(dataDirectory, { recursive: true });
  const db = new Database(join(dataDirectory, 'server.lock'), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirInUse(dataDirectory);
    throw error;
  }
  return {
    release() {
      db.close();
    },
  };
}

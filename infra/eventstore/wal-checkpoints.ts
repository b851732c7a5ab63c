import Database from 'better-sqlite3';

/**
 * WAL checkpoints away from the server's thread.
 *
 * SQLite checkpoints a WAL file inside the COMMIT that takes it past `wal_autocheckpoint` pages (1,000 by
 * default), so every few megabytes of appends one request's commit also copies the whole WAL into the database
 * file: 10–35 ms of the event loop, charged to whichever workspace appended last. A 20,000-contact campaign alone
 * writes 1.7 MB. The server's connection therefore raises that threshold to a safety cap (`WAL_SAFETY_CAP_PAGES`,
 * reached only when no checkpointer runs) and a loop on another thread (the projection thread) checkpoints
 * passively and often, so the WAL stays small and the server's thread never copies it.
 */

/** 64 MB of 4 KB pages: the WAL is checkpointed inline only if the other thread's loop has stopped. */
export const WAL_SAFETY_CAP_PAGES = 16_384;

const DEFAULT_EVERY_MS = 250;

export interface WalCheckpointStats {
  runs: number;
  /** Frames copied into the database file, all runs together. */
  framesCheckpointed: number;
}

export interface WalCheckpoints {
  readonly stats: WalCheckpointStats;
  stop(): void;
}

/**
 * Checkpoints `path`'s WAL every `everyMs` on a connection of its own. PASSIVE: it never waits for, nor blocks,
 * the writer or the readers; frames a reader still needs are left for the next run.
 */
export function startWalCheckpoints(path: string, options: { everyMs?: number; onError?: (error: unknown) => void } = {}): WalCheckpoints {
  const db = new Database(path);
  db.pragma('busy_timeout = 0');
  const stats: WalCheckpointStats = { runs: 0, framesCheckpointed: 0 };
  let lastCheckpointed = 0;
  const timer = setInterval(() => {
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      stats.runs += 1;
      // `checkpointed` counts the frames of the current WAL copied so far; it starts again when the WAL restarts.
      if (result && result.checkpointed !== lastCheckpointed) {
        stats.framesCheckpointed += result.checkpointed >= lastCheckpointed ? result.checkpointed - lastCheckpointed : result.checkpointed;
        lastCheckpointed = result.checkpointed;
      }
    } catch (error) {
      // SQLITE_BUSY or a transient I/O error: the next run tries again, and the writer's safety cap still holds.
      options.onError?.(error);
    }
  }, options.everyMs ?? DEFAULT_EVERY_MS);
  timer.unref();
  return {
    stats,
    stop() {
      clearInterval(timer);
      db.close();
    },
  };
}

import type { Database, Statement } from 'better-sqlite3';
import { BoundedMemo } from '../infra/cache/bounded-memo.ts';

/**
 * Tells whether the read-model database may have changed since the last look, so that a copy of a few read-model
 * rows (the API key of a bearer token, a workspace's rate limit) can be kept in memory exactly as long as those
 * rows stay the same, and a revocation still refuses the very next request. Two SQLite counters together see
 * every writer:
 *
 * - `PRAGMA data_version` changes when ANOTHER connection commits: the operator CLI in its own process (it applies
 *   the events it wrote to `read.db` before it exits), or any other connection of this process;
 * - `total_changes()` counts the rows THIS connection inserted, updated or deleted: our projection runner, the
 *   idempotency store, the timer scheduler, all of which write through `runtime.readDb`.
 *
 * Neither sees a change that rewrites no row (schema statements alone), which no cached row depends on: a
 * projection rebuild also deletes its checkpoint row. Reading both costs a few microseconds (the pragma starts a
 * read transaction), far less than the queries a cache spares; tests/projections/read-model-version.test.ts checks
 * every writer.
 */
export class ReadModelVersion {
  private readonly dataVersion: Statement<[], number>;
  private readonly totalChanges: Statement<[], number>;
  private lastDataVersion = -1;
  private lastTotalChanges = -1;
  private generation = 0;

  constructor(db: Database) {
    // Two statements, not one `SELECT ... FROM pragma_data_version`: the table-valued form costs half as much again.
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  }

  /** `data_version` as read in this event-loop turn (forRequest), or -1 when it has not been read yet. */
  private dataVersionThisTurn = -1;

  /** A number that equals the previous call's exactly when nothing was committed to the read models in between. */
  current(): number {
    return this.generationOf(this.dataVersion.get()!);
  }

  /**
   * `current()` for the request being served. Of the two counters, `PRAGMA data_version` is the one that costs
   * system calls (it takes and releases SQLite's shared-memory read lock), so it is read once per event-loop turn
   * and shared by the requests that turn serves, while our own connection's changes are still counted on every
   * call. That is still exact for requests: Node serves the requests of a turn after libuv's poll has returned the
   * sockets that have data, and the first of them reads the counter after that. A request sent after a commit
   * elsewhere had finished (the operator's CLI exited, then the client called) was in its socket when the poll
   * returned, so the commit came before the read. The read is forgotten when the turn ends (setImmediate runs
   * right after the poll phase), so the next turn's requests read again. Every read-model write of the server
   * process goes through this one connection and is seen at once, through `total_changes()`.
   */
  forRequest(): number {
    if (this.dataVersionThisTurn === -1) {
      this.dataVersionThisTurn = this.dataVersion.get()!;
      setImmediate(() => (this.dataVersionThisTurn = -1));
    }
    return this.generationOf(this.dataVersionThisTurn);
  }

  private generationOf(dataVersion: number): number {
    const totalChanges = this.totalChanges.get()!;
    if (dataVersion !== this.lastDataVersion || totalChanges !== this.lastTotalChanges) {
      this.lastDataVersion = dataVersion;
      this.lastTotalChanges = totalChanges;
      this.generation++;
    }
    return this.generation;
  }
}

/**
 * Read-model rows kept in memory while the read models are unchanged (see ReadModelVersion): every entry is
 * dropped as soon as anything was committed, so what `get` answers is what a query would answer now. Bounded
 * (BoundedMemo), so keys nobody sends again do not pile up.
 */
export class ReadModelCache<K, V> {
  private readonly entries: BoundedMemo<K, V>;
  private generation = -1;

  constructor(maxEntries = 10_000) {
    this.entries = new BoundedMemo(maxEntries);
  }

  /** The value of `key` at `generation` (from `ReadModelVersion.current()`), loading it when not held. */
  get(generation: number, key: K, load: (key: K) => V): V {
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return this.entries.get(key, load);
  }
}

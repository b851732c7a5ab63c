import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import { asBufferedApply, type BufferedApply, type Projection } from './projection.ts';
import { AppliedPosition } from './read-model-progress.ts';
import { preparedStatement } from './statement-cache.ts';

const BATCH_SIZE = 1_000;
/** How long one transaction of the runner may apply events before it lets the event loop serve others. */
const DEFAULT_SLICE_MS = 20;
const IDLE_WAIT_MS = 1_000;

interface Checkpoint {
  name: string;
  position: number;
  version: number;
  rebuilding: number;
}

interface PreparedProjection {
  projection: Projection;
  prepared: BufferedApply;
  handles: ReadonlySet<string>;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  lag: number;
  /** Rebuilt in place (its version changed at start) and not yet caught up with the store. */
  rebuilding: boolean;
}

/**
 * Whether any of the named projections is being rebuilt in place and is behind the store: the auth path answers
 * 503 rather than trust an `api_keys` table that has not yet replayed a revocation.
 */
export function projectionsRebuilding(db: Database, names: readonly string[]): boolean {
  // Asked on every request (auth) whenever the read models have moved: prepared once per database and list of names.
  const sql = `SELECT count(*) AS rebuilding FROM projection_checkpoints WHERE rebuilding = 1 AND name IN (${names.map(() => '?').join(',')})`;
  const row = preparedStatement<string[], { rebuilding: number }>(db, sql).get(...names);
  return (row?.rebuilding ?? 0) > 0;
}

/**
 * Folds events into the read models in `read.db`. Each batch of events and the checkpoints it moves are written
 * in one SQLite transaction, so a crash never half-applies a batch. Each projection has its own checkpoint, read
 * again inside every transaction: the operator CLI may rebuild one projection while the server is running, and
 * both then skip what the other has already applied.
 *
 * Rebuilds: `rebuild(name)` replays the projection into a separate database file and then swaps its tables in, in
 * one transaction, so readers see the old tables until the new ones are complete (a revoked key is never valid in
 * between). A projection whose `version` changed is rebuilt in place at start (its old tables no longer match the
 * code) and flagged `rebuilding` until the runner has caught up with the store.
 */
/** What the runner reads from the event store. */
export type ProjectionSource = Pick<EventStore, 'readAll' | 'waitForEvents' | 'headPosition'>;

export interface ProjectionRunnerOptions {
  /**
   * How long one transaction may apply events (default 20 ms). In this thread it bounds how long the event loop
   * waits; in the projection thread, how long the operator CLI's writes to read.db may wait for the write lock.
   */
  sliceMs?: number;
}

/** The read models as the runtime drives them: in this thread (ProjectionRunner) or in a worker (ProjectionThread). */
export type Projections = Pick<ProjectionRunner, 'start' | 'stop' | 'position' | 'waitForPosition' | 'status' | 'catchUp' | 'rebuild' | 'projections'>;

export class ProjectionRunner {
  private readonly prepared: PreparedProjection[] = [];
  private readonly applied: AppliedPosition;
  private readonly sliceMs: number;
  /** The fields the store detaches for this runner's projections (Projection.detach). */
  private readonly detach: ReadonlyMap<string, string>;
  private controller: AbortController | null = null;
  private loop: Promise<void> | null = null;
  // Prepared once: every batch reads and writes checkpoints, and preparing a statement costs more than running it.
  private readonly readCheckpoint: Statement<[string], { position: number }>;
  private readonly writeCheckpoint: Statement<[number, string]>;
  private readonly selectLowest: Statement<string[], { position: number | null }>;
  private readonly clearRebuilding: Statement<[]>;

  constructor(
    private readonly store: ProjectionSource,
    readonly db: Database,
    readonly projections: readonly Projection[],
    private readonly logger?: Logger,
    options: ProjectionRunnerOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    db.exec(`CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL, rebuilding INTEGER NOT NULL DEFAULT 0)`);
    const columns = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('projection_checkpoints')`).all();
    if (!columns.some((column) => column.name === 'rebuilding')) db.exec('ALTER TABLE projection_checkpoints ADD COLUMN rebuilding INTEGER NOT NULL DEFAULT 0');
    this.readCheckpoint = db.prepare('SELECT position FROM projection_checkpoints WHERE name = ?');
    this.writeCheckpoint = db.prepare('UPDATE projection_checkpoints SET position = ? WHERE name = ?');
    this.clearRebuilding = db.prepare('UPDATE projection_checkpoints SET rebuilding = 0 WHERE rebuilding = 1');
    this.selectLowest = db.prepare(
      `SELECT min(position) AS position FROM projection_checkpoints WHERE name IN (${projections.map(() => '?').join(',')})`,
    );
    for (const projection of projections) {
      const stored = this.checkpoint(projection.name);
      const changed = stored !== undefined && stored.version !== projection.version;
      if (changed) {
        this.logger?.info({ projection: projection.name, from: stored.version, to: projection.version }, 'projection version changed: rebuilding');
        this.reset(projection);
      }
      projection.migrate(db);
      db.prepare('INSERT OR IGNORE INTO projection_checkpoints (name, position, version, rebuilding) VALUES (?, 0, ?, ?)').run(
        projection.name,
        projection.version,
        changed ? 1 : 0,
      );
      this.prepared.push({ projection, prepared: asBufferedApply(projection.prepare(db)), handles: new Set(projection.eventTypes) });
    }
    this.applied = new AppliedPosition(this.lowestCheckpoint());
    this.detach = detachedFields(projections);
  }

  /** Calls `listener` each time the position every projection has applied moves forward. */
  onProgress(listener: (position: number) => void): () => void {
    return this.applied.onAdvance(listener);
  }

  /** Catches up and follows live in the background until `stop`. */
  start(): void {
    if (this.loop) return;
    this.controller = new AbortController();
    const signal = this.controller.signal;
    this.loop = (async () => {
      while (!signal.aborted) {
        try {
          const applied = await this.runOnce();
          if (applied === 0) await this.store.waitForEvents(this.applied.position, IDLE_WAIT_MS, signal);
          // A read resolves at once (SQLite is synchronous): yield, or a backlog would starve every request.
          else await new Promise((resolve) => setImmediate(resolve));
        } catch (error) {
          this.logger?.error({ err: error }, 'projection batch failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    await this.loop;
    this.loop = null;
  }

  /** Applies one batch after the lowest checkpoint. Returns how many events were read. */
  async runOnce(batchSize = BATCH_SIZE): Promise<number> {
    const from = this.lowestCheckpoint();
    const events = await this.store.readAll({ after: from, limit: batchSize, detach: this.detach });
    if (events.length === 0) {
      // Caught up with the store: no projection is behind it any longer.
      this.clearRebuilding.run();
      this.markApplied(from);
      return 0;
    }
    this.applyBatch(from, events);
    this.markApplied(this.lowestCheckpoint());
    return events.length;
  }

  /** Applies everything up to the store's head now (tests, the CLI, benchmarks). */
  async catchUp(): Promise<void> {
    while ((await this.runOnce()) > 0) {
      /* next batch */
    }
  }

  /** Read-your-writes: resolves when every projection has applied `position` (or after `timeoutMs`, false). */
  waitForPosition(position: number, timeoutMs = 5_000): Promise<boolean> {
    return this.applied.waitForPosition(position, timeoutMs);
  }

  get position(): number {
    return this.applied.position;
  }

  /**
   * Rebuilds a projection from the first event without a gap: replays every event into a separate database file
   * (DATA_DIR/read.db.rebuild-NAME), then, in one transaction, replaces the projection's tables with the replayed
   * ones and sets its checkpoint to where the replay stopped; the running loop (or `catchUp`) applies what came
   * after. Until that commit readers see the old tables. Works while the server runs (from the CLI's process).
   */
  async rebuild(name: string): Promise<void> {
    const entry = this.prepared.find((candidate) => candidate.projection.name === name);
    if (!entry) throw new Error(`unknown projection ${name}`);
    const { projection } = entry;
    const shadowPath = `${this.db.name}.rebuild-${name}`;
    const removeShadow = () => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${shadowPath}${suffix}`, { force: true });
    };
    removeShadow();
    const shadow = new BetterSqlite3(shadowPath);
    let position = 0;
    try {
      // A scratch file: no journal, no fsync (a crash leaves the old tables in place and this file to delete).
      shadow.pragma('journal_mode = OFF');
      shadow.pragma('synchronous = OFF');
      projection.migrate(shadow);
      const prepared = asBufferedApply(projection.prepare(shadow));
      const handles = new Set<string>(projection.eventTypes);
      for (;;) {
        const events = await this.store.readAll({ after: position, limit: BATCH_SIZE, detach: this.detach });
        if (events.length === 0) break;
        inTransaction(shadow, [prepared], () => {
          for (const event of events) if (handles.has(event.type)) prepared.apply(event);
        });
        position = events[events.length - 1]!.position;
      }
    } finally {
      shadow.close();
    }
    this.db.prepare('ATTACH DATABASE ? AS rebuild').run(shadowPath);
    try {
      this.db
        .transaction(() => {
          for (const table of projection.tables) this.db.exec(`DROP TABLE IF EXISTS main."${table}"`);
          projection.migrate(this.db);
          for (const table of projection.tables) {
            const copied = this.db.prepare<[string], { sql: string }>(`SELECT sql FROM rebuild.sqlite_master WHERE name = ?`).get(table);
            if (!copied) continue;
            if (/^CREATE VIRTUAL TABLE/i.test(copied.sql)) {
              // `SELECT *` of a virtual (FTS) table leaves out its rowid, and an INSERT without one numbers the rows
              // afresh: copy it, since read models key other rows on it (transcript search's segment ids).
              const columns = (this.db.prepare('SELECT name FROM pragma_table_info(?, ?)').all(table, 'rebuild') as Array<{ name: string }>).map((column) => `"${column.name}"`);
              this.db.exec(`INSERT INTO main."${table}" (rowid, ${columns.join(', ')}) SELECT rowid, ${columns.join(', ')} FROM rebuild."${table}"`);
            } else this.db.exec(`INSERT INTO main."${table}" SELECT * FROM rebuild."${table}"`);
          }
          this.db
            .prepare('INSERT OR REPLACE INTO projection_checkpoints (name, position, version, rebuilding) VALUES (?, ?, ?, 0)')
            .run(name, position, projection.version);
        })
        .immediate();
    } finally {
      this.db.exec('DETACH DATABASE rebuild');
      removeShadow();
    }
    entry.prepared = asBufferedApply(projection.prepare(this.db));
    this.applied.set(this.lowestCheckpoint());
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.store.headPosition();
    return this.projections.map((projection) => {
      const checkpoint = this.checkpoint(projection.name);
      const position = checkpoint?.position ?? 0;
      return { name: projection.name, version: projection.version, position, lag: Math.max(0, head - position), rebuilding: checkpoint?.rebuilding === 1 };
    });
  }

  /**
   * Applies events of the batch in order, every projection that is in step with it, until the batch ends or the
   * slice's time is up (the rest is the next batch's): one transaction per slice, so a batch of large events (a long
   * transcript indexed for search, thousands of contacts) never holds the event loop for long. The loop yields
   * between slices (start).
   */
  private applyBatch(from: number, events: RecordedEvent[]): void {
    const last = events[events.length - 1]!.position;
    const { readCheckpoint, writeCheckpoint } = this;
    const started = performance.now();
    inTransaction(this.db, this.prepared.map((entry) => entry.prepared), () => {
      // Already past this batch (another process applied it), or behind its start (rebuilt meanwhile: the next
      // round starts lower and catches it up): not in step.
      const inStep = this.prepared
        .map((entry) => ({ entry, checkpoint: readCheckpoint.get(entry.projection.name)?.position ?? 0 }))
        .filter(({ checkpoint }) => checkpoint < last && checkpoint >= from);
      let applied = from;
      for (const event of events) {
        for (const { entry, checkpoint } of inStep) {
          if (event.position > checkpoint && entry.handles.has(event.type)) entry.prepared.apply(event);
        }
        applied = event.position;
        if (performance.now() - started > this.sliceMs) break;
      }
      for (const { entry, checkpoint } of inStep) if (applied > checkpoint) writeCheckpoint.run(applied, entry.projection.name);
    });
  }

  private reset(projection: Projection): void {
    for (const table of projection.tables) this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    this.db.prepare('DELETE FROM projection_checkpoints WHERE name = ?').run(projection.name);
  }

  private checkpoint(name: string): Checkpoint | undefined {
    return this.db
      .prepare<[string], Checkpoint>('SELECT name, position, version, rebuilding FROM projection_checkpoints WHERE name = ?')
      .get(name);
  }

  private lowestCheckpoint(): number {
    if (this.projections.length === 0) return Number.MAX_SAFE_INTEGER;
    const row = this.selectLowest.get(...this.projections.map((projection) => projection.name));
    return row?.position ?? 0;
  }

  private markApplied(position: number): void {
    this.applied.set(position);
  }
}

/**
 * One immediate transaction that applies events: each projection's gathered writes are flushed before it commits,
 * and forgotten when it fails (its events are applied again later).
 */
function inTransaction(db: Database, prepared: readonly BufferedApply[], applyEvents: () => void): void {
  try {
    db.transaction(() => {
      applyEvents();
      for (const entry of prepared) entry.flush();
    }).immediate();
  } catch (error) {
    for (const entry of prepared) entry.discard();
    throw error;
  }
}

/**
 * The fields to detach for a runner's projections: a type's field only when every projection handling the type
 * declares that same field (one that reads it parsed gets it parsed).
 */
export function detachedFields(projections: readonly Projection[]): ReadonlyMap<string, string> {
  const declared = new Map<string, Array<string | undefined>>();
  for (const projection of projections) {
    for (const type of projection.eventTypes) declared.set(type, [...(declared.get(type) ?? []), projection.detach?.[type]]);
  }
  const detach = new Map<string, string>();
  for (const [type, [first, ...others]] of declared) {
    if (first !== undefined && others.every((field) => field === first)) detach.set(type, first);
  }
  return detach;
}

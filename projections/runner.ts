import type { Database, Statement } from 'better-sqlite3';
import { Subject } from 'rxjs';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import type { Projection } from './projection.ts';

const BATCH_SIZE = 1_000;
const IDLE_WAIT_MS = 1_000;

interface Checkpoint {
  name: string;
  position: number;
  version: number;
}

interface PreparedProjection {
  projection: Projection;
  apply: (event: RecordedEvent) => void;
  handles: ReadonlySet<string>;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  position: number;
  lag: number;
}

/**
 * Folds events into the read models in `read.db`. Each batch of events and the checkpoints it moves are written
 * in one SQLite transaction, so a crash never half-applies a batch. Each projection has its own checkpoint, read
 * again inside every transaction: the operator CLI may rebuild one projection while the server is running, and
 * both then skip what the other has already applied.
 */
export class ProjectionRunner {
  private readonly prepared: PreparedProjection[] = [];
  private readonly progress = new Subject<number>();
  private appliedPosition = 0;
  private controller: AbortController | null = null;
  private loop: Promise<void> | null = null;
  // Prepared once: every batch reads and writes checkpoints, and preparing a statement costs more than running it.
  private readonly readCheckpoint: Statement<[string], { position: number }>;
  private readonly writeCheckpoint: Statement<[number, string]>;
  private readonly selectLowest: Statement<string[], { position: number | null }>;

  constructor(
    private readonly store: EventStore,
    readonly db: Database,
    readonly projections: readonly Projection[],
    private readonly logger?: Logger,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS projection_checkpoints (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL)`);
    this.readCheckpoint = db.prepare('SELECT position FROM projection_checkpoints WHERE name = ?');
    this.writeCheckpoint = db.prepare('UPDATE projection_checkpoints SET position = ? WHERE name = ?');
    this.selectLowest = db.prepare(
      `SELECT min(position) AS position FROM projection_checkpoints WHERE name IN (${projections.map(() => '?').join(',')})`,
    );
    for (const projection of projections) {
      const stored = this.checkpoint(projection.name);
      if (stored && stored.version !== projection.version) {
        this.logger?.info({ projection: projection.name, from: stored.version, to: projection.version }, 'projection version changed: rebuilding');
        this.reset(projection);
      }
      projection.migrate(db);
      db.prepare('INSERT OR IGNORE INTO projection_checkpoints (name, position, version) VALUES (?, 0, ?)').run(
        projection.name,
        projection.version,
      );
      this.prepared.push({ projection, apply: projection.prepare(db), handles: new Set(projection.eventTypes) });
    }
    this.appliedPosition = this.lowestCheckpoint();
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
          if (applied === 0) await this.store.waitForEvents(this.appliedPosition, IDLE_WAIT_MS, signal);
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
    const events = await this.store.readAll({ after: from, limit: batchSize });
    if (events.length === 0) {
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
  async waitForPosition(position: number, timeoutMs = 5_000): Promise<boolean> {
    if (this.appliedPosition >= position) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        subscription.unsubscribe();
        resolve(false);
      }, timeoutMs);
      const subscription = this.progress.subscribe((applied) => {
        if (applied >= position) {
          clearTimeout(timer);
          subscription.unsubscribe();
          resolve(true);
        }
      });
    });
  }

  get position(): number {
    return this.appliedPosition;
  }

  /** Drops a projection's tables and checkpoint; the running loop (or `catchUp`) replays it from the start. */
  rebuild(name: string): void {
    const entry = this.prepared.find((candidate) => candidate.projection.name === name);
    if (!entry) throw new Error(`unknown projection ${name}`);
    this.db.transaction(() => {
      this.reset(entry.projection);
      entry.projection.migrate(this.db);
      this.db
        .prepare('INSERT OR REPLACE INTO projection_checkpoints (name, position, version) VALUES (?, 0, ?)')
        .run(name, entry.projection.version);
    })();
    entry.apply = entry.projection.prepare(this.db);
    this.appliedPosition = this.lowestCheckpoint();
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.store.headPosition();
    return this.projections.map((projection) => {
      const checkpoint = this.checkpoint(projection.name);
      const position = checkpoint?.position ?? 0;
      return { name: projection.name, version: projection.version, position, lag: Math.max(0, head - position) };
    });
  }

  private applyBatch(from: number, events: RecordedEvent[]): void {
    const last = events[events.length - 1]!.position;
    const { readCheckpoint, writeCheckpoint } = this;
    this.db
      .transaction(() => {
        for (const entry of this.prepared) {
          const checkpoint = readCheckpoint.get(entry.projection.name)?.position ?? 0;
          // Already past this batch (another process applied it), or behind its start (rebuilt meanwhile: the
          // next round starts lower and catches it up).
          if (checkpoint >= last || checkpoint < from) continue;
          for (const event of events) {
            if (event.position <= checkpoint || !entry.handles.has(event.type)) continue;
            entry.apply(event);
          }
          writeCheckpoint.run(last, entry.projection.name);
        }
      })
      .immediate();
  }

  private reset(projection: Projection): void {
    for (const table of projection.tables) this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    this.db.prepare('DELETE FROM projection_checkpoints WHERE name = ?').run(projection.name);
  }

  private checkpoint(name: string): Checkpoint | undefined {
    return this.db
      .prepare<[string], Checkpoint>('SELECT name, position, version FROM projection_checkpoints WHERE name = ?')
      .get(name);
  }

  private lowestCheckpoint(): number {
    if (this.projections.length === 0) return Number.MAX_SAFE_INTEGER;
    const row = this.selectLowest.get(...this.projections.map((projection) => projection.name));
    return row?.position ?? 0;
  }

  private markApplied(position: number): void {
    if (position > this.appliedPosition) {
      this.appliedPosition = position;
      this.progress.next(position);
    } else {
      this.appliedPosition = position;
    }
  }
}

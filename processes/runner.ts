import type { Database, Statement } from 'better-sqlite3';
import { DomainError } from '../domain/shared/errors.ts';
import { followAllBatches } from '../infra/eventstore/follow.ts';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import { DeadLetters } from './dead-letters.ts';
import type { ProcessManager } from './process-manager.ts';

const RETRY_REQUESTS_EVERY_MS = 1_000;
/**
 * A manager reads only its own event types (followAllBatches with `types`), so most windows it scans hold nothing
 * for it: its checkpoint moves past them at most this often (a restart scans at most this much again).
 */
const SAVE_EMPTY_PROGRESS_EVERY_MS = 1_000;
/** Warn on the first failure of an event and then every this many retries (the back-off reaches its ceiling). */
const WARN_EVERY_RETRIES = 10;

export interface ProcessStatus {
  name: string;
  position: number;
  backlog: number;
  /** Retries of infrastructure failures since start. */
  retries: number;
  /** Events set aside for a logic failure, not yet resolved. */
  dead_letters: number;
}

export interface ProcessRunnerOptions {
  /** Back-off between retries of an infrastructure failure: base × 2^attempt, at most max. */
  backoff?: { baseMs: number; maxMs: number };
}

/**
 * Runs each process manager in its own catch-up-then-live loop from its own checkpoint (table
 * `process_checkpoints` in state.db), reading only the event types it handles (the store skips the rest). The
 * checkpoint moves after each handled event, so a crash repeats at most the event in flight, and past events of
 * other types at most once a second. Refusals a manager expects (a duplicate after a replay) are tolerated where it issues the
 * command (`handle(..., {tolerate})`). What reaches the runner is one of two kinds:
 *
 * - a **logic failure**, which handling again would repeat: a refusal the manager did not expect (DomainError) or
 *   a bug (TypeError, RangeError, ReferenceError). The event goes to the dead-letter list (dead-letters.ts) with
 *   the error, is logged, and the manager moves on; the operator retries it with `cli processes retry ID`.
 * - anything else is taken for an **infrastructure failure** (the store or read models busy or behind, a disk or
 *   network error) and retried without limit, with back-off up to 30 s, counted (`retries`, a metric) and logged:
 *   an outage of minutes delays a start timer or a webhook fan-out, it never loses it.
 */
export class ProcessRunner {
  private controller = new AbortController();
  private loops: Promise<void>[] = [];
  private managers: readonly ProcessManager[];
  private readonly retries = new Map<string, number>();
  /** How far each running manager has read (ahead of its saved checkpoint by at most a second of empty windows). */
  private readonly scanned = new Map<string, number>();
  /** Moves a manager's checkpoint forward, never back. */
  private readonly advanceCheckpoint: Statement<[string, number]>;
  readonly deadLetters: DeadLetters;
  private retryRequests: NodeJS.Timeout | null = null;
  private retrying: Promise<void> = Promise.resolve();
  private readonly backoff: { baseMs: number; maxMs: number };

  constructor(
    private readonly store: EventStore,
    private readonly db: Database,
    /**
     * The managers, or how to build them: a factory builds a fresh set on every `start`, so that a runner can be
     * stopped and started again (a cluster node's singleton work, each time it wins the leader lease) without
     * carrying one term's in-memory state (queues, slots) into the next.
     */
    private readonly makeManagers: readonly ProcessManager[] | (() => readonly ProcessManager[]),
    private readonly logger?: Logger,
    options: ProcessRunnerOptions = {},
  ) {
    this.managers = typeof makeManagers === 'function' ? [] : makeManagers;
    db.exec('CREATE TABLE IF NOT EXISTS process_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
    this.deadLetters = new DeadLetters(db);
    this.advanceCheckpoint = db.prepare(
      'INSERT INTO process_checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = max(position, excluded.position)',
    );
    this.backoff = options.backoff ?? { baseMs: 50, maxMs: 30_000 };
  }

  async start(): Promise<void> {
    this.scanned.clear();
    if (typeof this.makeManagers === 'function') {
      this.managers = this.makeManagers();
      this.controller = new AbortController();
      this.loops = [];
    }
    for (const manager of this.managers) {
      await manager.start?.({ checkpoint: this.checkpoint(manager.name) });
      this.loops.push(this.run(manager));
    }
    this.retryRequests = setInterval(() => {
      this.retrying = this.retrying.then(() => this.runRetryRequests());
    }, RETRY_REQUESTS_EVERY_MS);
    this.retryRequests.unref();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    if (this.retryRequests) clearInterval(this.retryRequests);
    await Promise.all(this.loops);
    await this.retrying;
    for (const manager of this.managers) await manager.stop?.();
  }

  /** Where each running manager stands (a cluster leader publishes them with its lease renewals). */
  checkpoints(): Record<string, number> {
    return Object.fromEntries(this.managers.map((manager) => [manager.name, this.progress(manager.name)]));
  }

  /** Moves checkpoints forward (never back) to where another node's runner stood; before `start`. */
  adoptCheckpoints(positions: Record<string, number>): void {
    this.db.transaction(() => {
      for (const [name, position] of Object.entries(positions)) this.advanceCheckpoint.run(name, position);
    })();
  }

  /** Where a manager stands: its checkpoint, or how far it has read when that is further. */
  private progress(name: string): number {
    return Math.max(this.checkpoint(name), this.scanned.get(name) ?? 0);
  }

  checkpoint(name: string): number {
    return (
      this.db
        .prepare<[string], { position: number }>('SELECT position FROM process_checkpoints WHERE name = ?')
        .get(name)?.position ?? 0
    );
  }

  async status(): Promise<ProcessStatus[]> {
    const head = await this.store.headPosition();
    const dead = this.deadLetters.unresolvedByProcess();
    return this.managers.map((manager) => {
      const position = this.progress(manager.name);
      return { name: manager.name, position, backlog: Math.max(0, head - position), retries: this.retries.get(manager.name) ?? 0, dead_letters: dead.get(manager.name) ?? 0 };
    });
  }

  /**
   * Every process manager that ever kept a checkpoint in this state.db, whether or not this runner runs it (the
   * operator CLI runs none and reports the server's).
   */
  async recordedStatus(): Promise<Array<Omit<ProcessStatus, 'retries'>>> {
    const head = await this.store.headPosition();
    const dead = this.deadLetters.unresolvedByProcess();
    const rows = this.db.prepare<[], { name: string; position: number }>('SELECT name, position FROM process_checkpoints ORDER BY name').all();
    return rows.map(({ name, position }) => ({ name, position, backlog: Math.max(0, head - position), dead_letters: dead.get(name) ?? 0 }));
  }

  private async run(manager: ProcessManager): Promise<void> {
    const handles = new Set<string>(manager.eventTypes);
    // Checkpoints only move forward: progress past other types, saved late, never undoes an event saved meanwhile.
    const save = this.advanceCheckpoint;
    const signal = this.controller.signal;
    let savedAt = 0;
    let trailingSave: NodeJS.Timeout | null = null;
    const saveScanned = () => {
      if (trailingSave) clearTimeout(trailingSave);
      trailingSave = null;
      const scanned = this.scanned.get(manager.name);
      if (scanned !== undefined) save.run(manager.name, scanned);
      savedAt = Date.now();
    };
    await followAllBatches(
      this.store,
      this.checkpoint(manager.name),
      async (events, scannedTo) => {
        for (const event of events) {
          if (signal.aborted) return;
          const failure = await this.handleWithRetries(manager, event, signal);
          // An aborted handler may not have finished: leave its event to be run again on the next start.
          if (signal.aborted) return;
          if (failure !== null) this.deadLetter(manager, event, failure);
          save.run(manager.name, event.position);
        }
        this.scanned.set(manager.name, scannedTo);
        const sinceSaved = Date.now() - savedAt;
        if (events.length > 0 || sinceSaved >= SAVE_EMPTY_PROGRESS_EVERY_MS) saveScanned();
        // The last window before a quiet spell is saved a little later, not left to a restart to scan again.
        else trailingSave ??= setTimeout(saveScanned, SAVE_EMPTY_PROGRESS_EVERY_MS - sinceSaved).unref();
      },
      signal,
      100,
      handles,
    ).catch((error: unknown) => this.logger?.error({ err: error, process: manager.name }, 'process manager loop stopped'));
    // Stopped between windows or inside one: what `scanned` holds was wholly handled.
    saveScanned();
  }

  /** Handles the event, retrying infrastructure failures until it succeeds; returns a logic failure (or null). */
  private async handleWithRetries(manager: ProcessManager, event: RecordedEvent, signal: AbortSignal): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        await manager.handle(event);
        return null;
      } catch (error) {
        if (isLogicFailure(error)) return error;
        if (signal.aborted) return null;
        this.retries.set(manager.name, (this.retries.get(manager.name) ?? 0) + 1);
        if (attempt === 1 || attempt % WARN_EVERY_RETRIES === 0) {
          this.logger?.warn({ err: error, process: manager.name, event: event.type, position: event.position, attempt }, 'process manager failed on an event; retrying');
        }
        await sleep(Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** Math.min(attempt, 20)), signal);
      }
    }
  }

  private deadLetter(manager: ProcessManager, event: RecordedEvent, failure: unknown): void {
    const error = describe(failure);
    this.deadLetters.record(manager.name, event, error, new Date());
    this.logger?.error({ process: manager.name, event: event.type, position: event.position, error }, 'event set aside as a dead letter (cli processes retry)');
  }

  /** Dead letters the operator asked to retry (from the CLI, through read.db): handled again, resolved or dead again. */
  private async runRetryRequests(): Promise<void> {
    for (const letter of this.deadLetters.retryRequests()) {
      const manager = this.managers.find((candidate) => candidate.name === letter.process);
      if (!manager || this.controller.signal.aborted) continue;
      const [event] = await this.store.readAll({ after: letter.position - 1, limit: 1 });
      if (!event || event.id !== letter.event_id) {
        this.deadLetters.markFailed(letter.id, 'the event is no longer in the store at its position', new Date());
        continue;
      }
      const failure = await this.handleWithRetries(manager, event, this.controller.signal);
      if (this.controller.signal.aborted) return;
      if (failure === null) {
        this.deadLetters.markResolved(letter.id, new Date());
        this.logger?.info({ process: manager.name, position: event.position, dead_letter: letter.id }, 'dead letter handled on retry');
      } else {
        this.deadLetters.markFailed(letter.id, describe(failure), new Date());
      }
    }
  }
}

/** A failure that handling the same event again would repeat. */
function isLogicFailure(error: unknown): boolean {
  return error instanceof DomainError || error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
}

function describe(error: unknown): string {
  if (error instanceof DomainError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

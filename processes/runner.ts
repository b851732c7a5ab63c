import type { Database } from 'better-sqlite3';
import { DomainError } from '../domain/shared/errors.ts';
import { followAllBatches } from '../infra/eventstore/follow.ts';
import type { EventStore, RecordedEvent } from '../infra/eventstore/port.ts';
import type { Logger } from '../infra/logger.ts';
import type { ProcessManager } from './process-manager.ts';

const MAX_HANDLER_ATTEMPTS = 8;

export interface ProcessStatus {
  name: string;
  position: number;
  backlog: number;
}

/**
 * Runs each process manager in its own catch-up-then-live loop from its own checkpoint (table
 * `process_checkpoints` in read.db). The checkpoint moves after each handled event, so a crash repeats at most
 * the event in flight. Refusals a manager expects (a duplicate after a replay) are tolerated where it issues the
 * command (`handle(..., {tolerate})`); a refusal that reaches the runner was not expected: it is logged as an
 * error and the event counts as handled (deciding again would refuse again). Any other error is retried with
 * back-off, then logged and skipped so that one poisoned event cannot stall the service.
 */
export class ProcessRunner {
  private readonly controller = new AbortController();
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly db: Database,
    private readonly managers: readonly ProcessManager[],
    private readonly logger?: Logger,
  ) {
    db.exec('CREATE TABLE IF NOT EXISTS process_checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL)');
  }

  async start(): Promise<void> {
    for (const manager of this.managers) {
      await manager.start?.({ checkpoint: this.checkpoint(manager.name) });
      this.loops.push(this.run(manager));
    }
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.loops);
    for (const manager of this.managers) await manager.stop?.();
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
    return this.managers.map((manager) => {
      const position = this.checkpoint(manager.name);
      return { name: manager.name, position, backlog: Math.max(0, head - position) };
    });
  }

  private async run(manager: ProcessManager): Promise<void> {
    const handles = new Set(manager.eventTypes);
    const save = this.db.prepare(
      'INSERT INTO process_checkpoints (name, position) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET position = excluded.position',
    );
    const signal = this.controller.signal;
    await followAllBatches(
      this.store,
      this.checkpoint(manager.name),
      async (events) => {
        for (const event of events) {
          if (signal.aborted) return;
          if (!handles.has(event.type)) continue;
          await this.handleWithRetries(manager, event, signal);
          // An aborted handler may not have finished: leave its event to be run again on the next start.
          if (signal.aborted) return;
          save.run(manager.name, event.position);
        }
        save.run(manager.name, events[events.length - 1]!.position);
      },
      signal,
      100,
    ).catch((error: unknown) => this.logger?.error({ err: error, process: manager.name }, 'process manager loop stopped'));
  }

  private async handleWithRetries(manager: ProcessManager, event: RecordedEvent, signal: AbortSignal): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await manager.handle(event);
        return;
      } catch (error) {
        if (error instanceof DomainError) {
          this.logger?.error({ process: manager.name, event: event.type, position: event.position, code: error.code, refusal: error.message }, 'a command of a process manager was refused unexpectedly');
          return;
        }
        if (attempt >= MAX_HANDLER_ATTEMPTS || signal.aborted) {
          this.logger?.error({ err: error, process: manager.name, event: event.type, position: event.position }, 'process manager gave up on an event');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 50 * 2 ** attempt)));
      }
    }
  }
}

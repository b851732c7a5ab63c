import type { Database } from 'better-sqlite3';
import type { RecordedEvent } from '../infra/eventstore/port.ts';

/**
 * A read model: SQLite tables built only from events, so it can be dropped and rebuilt at any time.
 *
 * `migrate` creates the tables (idempotently); `prepare` binds the prepared statements once and returns the
 * function that applies one event. Bump `version` whenever the tables or the meaning of `apply` change: the runner
 * then rebuilds the projection from the first event on start.
 */
export interface Projection {
  name: string;
  version: number;
  /** Every table (and FTS table) the projection owns: dropped on rebuild. */
  tables: string[];
  /** Event types the projection reads; others are skipped without calling `apply`. */
  eventTypes: readonly string[];
  migrate(db: Database): void;
  prepare(db: Database): (event: RecordedEvent) => void;
}

import type { Database } from 'better-sqlite3';
import type { DomainEvent } from '../domain/shared/decider.ts';
import type { Recorded } from '../infra/eventstore/port.ts';

/**
 * A read model: SQLite tables built only from events, so it can be dropped and rebuilt at any time.
 *
 * `Event` is the union of the domain events it reads (e.g. `CallEvent`); `eventTypes` lists the ones it handles,
 * and `apply` receives exactly those, typed, so `event.data` needs no cast. `migrate` creates the tables
 * (idempotently); `prepare` binds the prepared statements once and returns the function that applies one event.
 * Bump `version` whenever the tables or the meaning of `apply` change: the runner then rebuilds the projection
 * from the first event on start.
 */
export interface Projection<Event extends DomainEvent<string, object> = DomainEvent> {
  name: string;
  version: number;
  /** Every table (and FTS table) the projection owns: dropped on rebuild. */
  tables: string[];
  /** Event types the projection reads; others are skipped without calling `apply`. */
  eventTypes: ReadonlyArray<Event['type']>;
  migrate(db: Database): void;
  prepare(db: Database): (event: Recorded<Event>) => void;
}

/**
 * A projection typed over its own events, as the runner holds it (with every other read model). The runner calls
 * `apply` only with events whose type is in `eventTypes`, and the upcasters give every event its type's current
 * shape, which is what makes the narrowing from "any recorded event" to `Recorded<Event>` sound: this is the one
 * place it is asserted.
 */
export function defineProjection<Event extends DomainEvent<string, object>>(projection: Projection<Event>): Projection {
  return projection as unknown as Projection;
}

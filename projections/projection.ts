import type { Database } from 'better-sqlite3';
import type { DomainEvent } from '../domain/shared/decider.ts';
import type { Recorded } from '../infra/eventstore/port.ts';

/**
 * A read model: SQLite tables built only from events, so it can be dropped and rebuilt at any time.
 *
 * `Event` is the union of the domain events it reads (e.g. `CallEvent`); `eventTypes` lists the ones it handles,
 * and `apply` receives exactly those, typed, so `event.data` needs no cast. `migrate` creates the tables
 * (idempotently); `prepare` binds the prepared statements once and returns the function that applies one event,
 * or a `BufferedApply` when the projection gathers writes over a transaction. Bump `version` whenever the tables
 * or the meaning of `apply` change: the runner then rebuilds the projection from the first event on start.
 */
export interface Projection<Event extends DomainEvent<string, object> = DomainEvent> {
  name: string;
  version: number;
  /** Every table (and FTS table) the projection owns: dropped on rebuild. */
  tables: string[];
  /** Event types the projection reads; others are skipped without calling `apply`. */
  eventTypes: ReadonlyArray<Event['type']>;
  /**
   * Per event type, a large field of `data` this projection takes only as JSON text, with `fieldAsJson`
   * (infra/eventstore/detached-field.ts), or not at all. When every projection of a lane that handles the type says
   * so, the runner asks the store to detach it: the field is never parsed into objects (issue 12: a neighbour's
   * 4,000-segment transcripts, parsed and serialised again, were most of the time every write's read-your-writes
   * waited for). A detached field passes the upcasters by as it was recorded: name only fields whose shape no
   * upcaster changes (domain/upcasters.ts).
   */
  detach?: Partial<Record<Event['type'], string>>;
  migrate(db: Database): void;
  prepare(db: Database): ((event: Recorded<Event>) => void) | BufferedApply<Event>;
}

/**
 * A projection that gathers some writes in memory while it applies the events of one transaction (e.g. sums that
 * many events add to the same row) and writes them once at its end.
 */
export interface BufferedApply<Event extends DomainEvent<string, object> = DomainEvent> {
  apply(event: Recorded<Event>): void;
  /** Before each transaction that applied events commits: writes what `apply` gathered, and forgets it. */
  flush(): void;
  /** When such a transaction failed: forgets what `apply` gathered (the runner applies the events again). */
  discard(): void;
}

/** A prepared projection as the runner drives it: every projection has `flush` and `discard`, most do nothing there. */
export function asBufferedApply<Event extends DomainEvent<string, object>>(prepared: ReturnType<Projection<Event>['prepare']>): BufferedApply<Event> {
  if (typeof prepared !== 'function') return prepared;
  return { apply: prepared, flush: () => {}, discard: () => {} };
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

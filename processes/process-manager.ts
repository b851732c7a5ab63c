import type { DomainEvent } from '../domain/shared/decider.ts';
import type { Recorded } from '../infra/eventstore/port.ts';

/**
 * A process manager reacts to events by issuing commands (or calling ports). It must be safe to run an event
 * twice: after a crash it resumes from its last checkpoint, so ids of what it creates are derived from the event
 * (see `deterministicId`) and the aggregate refuses the duplicate (tolerated with `handle(..., {tolerate})`).
 *
 * `Event` is the union of the events it handles: the runner passes only events whose type is in `eventTypes`,
 * upcast to their current shape, so `handle` switches on `event.type` and reads `event.data` without casts.
 * (`handle` is a method, so a `ProcessManager<DialerEvent>` is accepted where any process manager is.)
 */
export interface ProcessManager<Event extends DomainEvent<string, object> = DomainEvent<string, object>> {
  name: string;
  eventTypes: ReadonlyArray<Event['type']>;
  handle(event: Recorded<Event>): Promise<void>;
  /**
   * Called once before the first event, e.g. to start background work or to recover what was in flight;
   * `checkpoint` is the position of the last event this manager handled before the start.
   */
  start?(context: { checkpoint: number }): Promise<void> | void;
  stop?(): Promise<void> | void;
}

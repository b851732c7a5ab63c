import type { RecordedEvent } from '../infra/eventstore/port.ts';

/**
 * A process manager reacts to events by issuing commands (or calling ports). It must be safe to run an event
 * twice: after a crash it resumes from its last checkpoint, so ids of what it creates are derived from the event
 * (see `deterministicId`) and the aggregate refuses the duplicate.
 */
export interface ProcessManager {
  name: string;
  eventTypes: readonly string[];
  handle(event: RecordedEvent): Promise<void>;
  /** Called once before the first event, e.g. to start background work. */
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

import type { RecordedEvent } from './port.ts';

/**
 * A field of an event's `data` as JSON text (null when the event has none): the text the store detached when the
 * reader asked it to (`ReadAllOptions.detach`), or else the parsed field serialised again. The one way readers take
 * a detachable field, so they work the same with a store that detaches and one that does not.
 */
export function fieldAsJson(event: Pick<RecordedEvent<string, object>, 'data' | 'detached'>, field: string): string | null {
  const detached = event.detached;
  if (detached !== undefined && field in detached) return detached[field] ?? null;
  const value = (event.data as Record<string, unknown>)[field];
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Whether a field of an event's `data` has a value (not null), detached or not, without serialising it. */
export function hasField(event: Pick<RecordedEvent<string, object>, 'data' | 'detached'>, field: string): boolean {
  const detached = event.detached;
  if (detached !== undefined && field in detached) return detached[field] !== null;
  const value = (event.data as Record<string, unknown>)[field];
  return value !== undefined && value !== null;
}

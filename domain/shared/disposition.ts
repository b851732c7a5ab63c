/** The outcome of a call for a contact, as the spec lists them. */
export const DISPOSITIONS = ['interested', 'not_interested', 'callback', 'not_reachable', 'dnd', 'escalated'] as const;

export type Disposition = (typeof DISPOSITIONS)[number];

export type DispositionSummary = Record<Disposition, number>;

export function isDisposition(value: unknown): value is Disposition {
  return typeof value === 'string' && (DISPOSITIONS as readonly string[]).includes(value);
}

export function emptyDispositionSummary(): DispositionSummary {
  return { interested: 0, not_interested: 0, callback: 0, not_reachable: 0, dnd: 0, escalated: 0 };
}

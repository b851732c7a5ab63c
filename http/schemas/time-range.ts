import { z } from '@hono/zod-openapi';
import { isCalendarDate } from '../../domain/shared/time-zone.ts';
import { invalidParameter } from '../errors.ts';

/**
 * `from` / `to` query parameters of list endpoints (both inclusive). Accepted: an ISO 8601 date-time with an
 * offset (`2026-03-01T10:00:00Z`, `2026-03-01T15:30:00+05:30`; without one it is UTC), or a date `2026-03-01`
 * (`from`: the start of that UTC day, `to`: its last millisecond, so `from=2026-03-01&to=2026-03-01` is that day).
 * Values become UTC ISO timestamps with milliseconds, the form every stored timestamp has, so comparing them as
 * strings compares instants.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export const TIME_EXPECTED = 'an ISO 8601 date-time such as 2026-03-01T10:00:00Z, or a date such as 2026-03-01';

/** The instant a bound names, or null when it is not one; a date alone is its day's first or last millisecond. */
export function parseTimeBound(value: string, bound: 'from' | 'to'): string | null {
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [, year, month, day, hour] = match;
  // Date.parse rolls 2026-02-30 over to March 2: check the calendar date itself.
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return null;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (hour === undefined) {
    const start = calendar.getTime();
    return new Date(bound === 'from' ? start : start + 86_400_000 - 1).toISOString();
  }
  const hasOffset = match[7] !== undefined;
  const time = Date.parse(hasOffset ? value : `${value}Z`);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function timeBound(bound: 'from' | 'to', description: string) {
  return z
    .string()
    .transform((value, context) => {
      const parsed = parseTimeBound(value, bound);
      if (parsed === null) {
        context.issues.push({ code: 'custom', message: TIME_EXPECTED, input: value });
        return z.NEVER;
      }
      return parsed;
    })
    .optional()
    // Declared by the pattern the parser matches, not `format: date-time`: a date alone, or a time without an
    // offset (UTC) or without seconds, is accepted too, and RFC 3339's date-time would tell clients otherwise.
    .openapi({ type: 'string', pattern: DATE_TIME.source, description, example: bound === 'from' ? '2026-03-01T00:00:00Z' : '2026-03-31' } as never);
}

export const TimeRangeQuery = {
  from: timeBound('from', 'On or after this time: an ISO 8601 date-time (UTC when it has no offset), or a date `YYYY-MM-DD` (from the start of that UTC day).'),
  to: timeBound('to', 'On or before this time: an ISO 8601 date-time (UTC when it has no offset), or a date `YYYY-MM-DD` (to the end of that UTC day).'),
};

/** A range whose end is before its start is refused rather than answered with nothing. */
export function checkTimeRange(range: { from?: string; to?: string }, provided: { to?: string }): void {
  if (range.from !== undefined && range.to !== undefined && range.to < range.from) {
    throw invalidParameter('to', provided.to ?? null, 'a time not before from');
  }
}

import { addDays, isCalendarDate, isValidTimezone, localDateOf, startOfLocalDate, zonedTimeToInstant } from '../domain/shared/time-zone.ts';
import type { AnalyticsRange } from '../projections/analytics-range-plan.ts';
import { invalidParameter } from './errors.ts';

/**
 * The `from` / `to` / `timezone` of the analytics endpoints. Both bounds inclusive: a date (`2026-03-01`) is that
 * whole local day in `timezone` (default UTC), a date-time with an offset is that instant, one without an offset a
 * wall-clock time in `timezone`. At most MAX_RANGE_DAYS local days.
 */
export const MAX_RANGE_DAYS = 366;
export const ANALYTICS_TIME_EXPECTED = 'an ISO 8601 date such as 2026-03-01, or a date-time such as 2026-03-01T10:00:00+05:30';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

interface Bound {
  instant: Date;
  day: string;
}

function parseBound(field: 'from' | 'to', value: string, timezone: string): Bound {
  const date = DATE.exec(value);
  if (date) {
    if (!isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw invalidParameter(field, value, ANALYTICS_TIME_EXPECTED);
    const start = startOfLocalDate(value, timezone);
    const instant = field === 'from' ? start : new Date(startOfLocalDate(addDays(value, 1), timezone).getTime() - 1);
    return { instant, day: value };
  }
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) || Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59) {
    throw invalidParameter(field, value, ANALYTICS_TIME_EXPECTED);
  }
  const instant = match[8]
    ? new Date(value)
    : zonedTimeToInstant(
        { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: Number(match[4]), minute: Number(match[5]), second: Number(match[6] ?? 0), millisecond: Math.round(Number(match[7] ?? 0) * 1000) },
        timezone,
      );
  if (Number.isNaN(instant.getTime())) throw invalidParameter(field, value, ANALYTICS_TIME_EXPECTED);
  return { instant, day: localDateOf(instant, timezone) };
}

const ECHOED_SPELLINGS = ['UTC', 'Asia/Kolkata'];

export function parseTimezone(value: string | undefined): string {
  if (value === undefined) return 'UTC';
  if (value.length > 64 || !isValidTimezone(value)) throw invalidParameter('timezone', value, 'an IANA time zone such as Asia/Kolkata or UTC');
  // Intl accepts any case ("asia/kolkata"): the response echoes these zones in their usual spelling, others as given
  // (not ICU's canonical names, which would turn Asia/Kolkata into Asia/Calcutta).
  return ECHOED_SPELLINGS.find((zone) => zone.toLowerCase() === value.toLowerCase()) ?? value;
}

export function parseAnalyticsRange(query: { from: string; to: string; timezone?: string }): AnalyticsRange {
  const timezone = parseTimezone(query.timezone);
  const from = parseBound('from', query.from, timezone);
  const to = parseBound('to', query.to, timezone);
  if (to.instant.getTime() < from.instant.getTime()) throw invalidParameter('to', query.to, 'a time not before from');
  const days = Math.round((Date.parse(`${to.day}T00:00:00Z`) - Date.parse(`${from.day}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > MAX_RANGE_DAYS) throw invalidParameter('to', query.to, `at most ${MAX_RANGE_DAYS} days after from (the range covers ${days})`);
  return {
    fromInstant: from.instant.toISOString(),
    toInstant: to.instant.toISOString(),
    fromDay: from.day,
    toDay: to.day,
    timezone,
  };
}

/**
 * Wall-clock time in IANA zones, from Node's ICU (pure: no clock is read). Shared by campaign schedules and calling
 * hours and by analytics' day and week boundaries.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

export function isValidTimezone(timezone: unknown): timezone is string {
  if (typeof timezone !== 'string' || timezone.length === 0) return false;
  try {
    formatterFor(timezone);
    return true;
  } catch {
    return false;
  }
}

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function localTime(instant: Date, timezone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timezone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetMs(instant: Date, timezone: string): number {
  const local = localTime(instant, timezone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant a wall-clock time in a zone denotes (the later one when a DST change repeats the hour). */
export function zonedTimeToInstant(local: LocalTime & { millisecond?: number }, timezone: string): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond ?? 0);
  let guess = asUtc - offsetMs(new Date(asUtc), timezone);
  // Once more at the guess: the offset may differ across a DST change between the two instants.
  guess = asUtc - offsetMs(new Date(guess), timezone);
  return new Date(guess);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The last year a date the service accepts may name: the end of 9999-12-31, or the day after it, is past what an ISO
 * 8601 date with four-digit years can write (a range ending then answered 500 before this bound).
 */
export const LATEST_YEAR = 9998;

/**
 * Whether year-month-day names a real day (Date.UTC rolls 2026-02-30 over to March 2; this does not) no later than
 * LATEST_YEAR.
 */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year > LATEST_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether a text is a date `YYYY-MM-DD` naming a real day (isCalendarDate). */
export function isCalendarDay(text: string): boolean {
  const match = ISO_DATE.exec(text);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** The zone's calendar date (`YYYY-MM-DD`) at an instant. */
export function localDateOf(instant: Date, timezone: string): string {
  if (timezone === 'UTC') return instant.toISOString().slice(0, 10);
  const local = localTime(instant, timezone);
  return `${local.year}-${String(local.month).padStart(2, '0')}-${String(local.day).padStart(2, '0')}`;
}

/** The instant a calendar date (`YYYY-MM-DD`) begins in the zone. */
export function startOfLocalDate(date: string, timezone: string): Date {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`not a date: ${date}`);
  return zonedTimeToInstant({ year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0 }, timezone);
}

/** The calendar date `days` after `date` (negative: before); calendar arithmetic, no zone involved. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday on or before `date` (ISO 8601 weeks start on Monday). */
export function isoWeekStart(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/**
 * Campaign time rules in the schedule's IANA timezone: resolving `start_time` / `end_time` to instants, and
 * calling hours ("09:00"-"21:00" local). Pure: the timezone database is Node's ICU, no clock is read.
 *
 * A schedule time with an offset (`Z`, `+05:30`) is an instant already; one without (`2026-03-02T09:00:00`) is a
 * wall-clock time in the schedule's timezone (the spec: "IANA timezone name applied to start_time and end_time").
 */
import { isCalendarDate, isCalendarDay, localTime, zonedTimeToInstant } from '../shared/time-zone.ts';

export { isValidTimezone, zonedTimeToInstant } from '../shared/time-zone.ts';

export interface CallingHours {
  /** Local time "HH:MM" when dialing may begin each day. */
  start: string;
  /** Local time "HH:MM" after which no new call is dialed. Earlier than `start`: the window spans midnight. */
  end: string;
}

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const WITHOUT_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/** Resolves a schedule time to an instant, or null when it is not an ISO 8601 date-time. */
export function resolveScheduleTime(value: string, timezone: string): Date | null {
  if (WITH_OFFSET.test(value)) {
    // Date.parse rolls 2027-02-30 over to March 2: a typo in a schedule must not start calling on another day.
    if (!isCalendarDay(value.slice(0, 10))) return null;
    const instant = new Date(value);
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  const match = WITHOUT_OFFSET.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const millisecond = Number((match[7] ?? '0').slice(0, 3).padEnd(3, '0'));
  if (!isCalendarDate(year!, month!, day!) || hour! > 23 || minute! > 59 || second! > 59) return null;
  return zonedTimeToInstant({ year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second!, millisecond }, timezone);
}

const HOUR_MINUTE = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidCallingHours(hours: unknown): hours is CallingHours {
  if (typeof hours !== 'object' || hours === null) return false;
  const { start, end } = hours as Record<string, unknown>;
  return typeof start === 'string' && typeof end === 'string' && HOUR_MINUTE.test(start) && HOUR_MINUTE.test(end) && start !== end;
}

function minutesOfDay(hourMinute: string): number {
  const [hour, minute] = hourMinute.split(':').map(Number) as [number, number];
  return hour * 60 + minute;
}

/** Whether a call may be dialed at `at`: start inclusive, end exclusive, local time in `timezone`. */
export function isWithinCallingHours(at: Date, hours: CallingHours, timezone: string): boolean {
  const local = localTime(at, timezone);
  const now = local.hour * 60 + local.minute;
  const start = minutesOfDay(hours.start);
  const end = minutesOfDay(hours.end);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** `at` itself when within calling hours, else the instant the next window opens (DST-correct). */
export function nextCallingTime(at: Date, hours: CallingHours, timezone: string): Date {
  if (isWithinCallingHours(at, hours, timezone)) return at;
  const local = localTime(at, timezone);
  const start = minutesOfDay(hours.start);
  const nowMinutes = local.hour * 60 + local.minute;
  // Outside the window: it opens later today when today's start is still ahead, else tomorrow.
  const dayOffset = nowMinutes < start ? 0 : 1;
  const day = new Date(Date.UTC(local.year, local.month - 1, local.day + dayOffset));
  return zonedTimeToInstant(
    { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: Math.floor(start / 60), minute: start % 60, second: 0 },
    timezone,
  );
}

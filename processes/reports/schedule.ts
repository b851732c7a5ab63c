import { Cron } from 'croner';
import type { ReportPeriod, ReportSchedule } from '../../domain/report.ts';
import { addDays, localDateOf } from '../../domain/shared/time-zone.ts';

/**
 * Recurring reports (docs/reports.md, "Schedules"): pure functions of a schedule and an instant, by croner with the
 * schedule's IANA zone (DST-correct).
 *
 * - A run at occurrence T covers the period that just ended: from the local date of the occurrence before T to the
 *   day before T's local date, both inclusive, in the schedule's zone. `0 8 * * 1` (Mondays 08:00) covers last
 *   Monday to Sunday; `0 6 * * *` covers yesterday; `0 7 1 * *` covers last month.
 * - A schedule runs at most once a day (gaps of at least 23 hours, allowing for DST), so every period is at least
 *   one whole day.
 */
export const MIN_GAP_MS = 23 * 60 * 60 * 1000;

export class InvalidScheduleError extends Error {
  constructor(
    readonly field: 'schedule.cron' | 'schedule.timezone',
    readonly expected: string,
  ) {
    super(expected);
  }
}

function cronOf(schedule: ReportSchedule): Cron {
  try {
    return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
  } catch (error) {
    throw new InvalidScheduleError('schedule.cron', `a cron expression of 5 fields (minute hour day month weekday) such as "0 8 * * 1": ${(error as Error).message}`);
  }
}

/** Refuses a cron croner cannot parse, or one that runs more than once a day. */
export function validateSchedule(schedule: ReportSchedule, now: Date): void {
  if (schedule.cron.trim().split(/\s+/).length !== 5) throw new InvalidScheduleError('schedule.cron', 'a cron expression of 5 fields (minute hour day month weekday) such as "0 8 * * 1"');
  const runs = cronOf(schedule).nextRuns(10, now);
  if (runs.length === 0) throw new InvalidScheduleError('schedule.cron', 'a cron expression with a future occurrence');
  for (let index = 1; index < runs.length; index++) {
    if (runs[index]!.getTime() - runs[index - 1]!.getTime() < MIN_GAP_MS) throw new InvalidScheduleError('schedule.cron', 'a schedule that runs at most once a day');
  }
}

/** The first occurrence strictly after `after`, or null when there is none. */
export function nextOccurrence(schedule: ReportSchedule, after: Date): Date | null {
  return cronOf(schedule).nextRun(after);
}

/** The latest occurrence at or before `at`, or null when there is none. */
export function latestOccurrence(schedule: ReportSchedule, at: Date): Date | null {
  return cronOf(schedule).previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;
}

/** The period a run at `occurrence` covers: the days since the previous occurrence, up to the day before this one. */
export function periodEndingAt(schedule: ReportSchedule, occurrence: Date): ReportPeriod {
  const previous = cronOf(schedule).previousRuns(1, occurrence)[0] ?? new Date(occurrence.getTime() - 86_400_000);
  const from = localDateOf(previous, schedule.timezone);
  const to = addDays(localDateOf(occurrence, schedule.timezone), -1);
  return { from, to: to < from ? from : to };
}

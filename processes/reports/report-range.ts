import { addDays, startOfLocalDate } from '../../domain/shared/time-zone.ts';
import type { ReportPeriod } from '../../domain/report.ts';
import type { AnalyticsRange } from '../../projections/call-analytics.ts';

/** A report's period (whole local days, both inclusive) as the analytics queries take it. */
export function reportRange(period: ReportPeriod, timezone: string): AnalyticsRange {
  return {
    fromInstant: startOfLocalDate(period.from, timezone).toISOString(),
    toInstant: new Date(startOfLocalDate(addDays(period.to, 1), timezone).getTime() - 1).toISOString(),
    fromDay: period.from,
    toDay: period.to,
    timezone,
  };
}

import type { Database } from 'better-sqlite3';
import type { ChartInput } from '../../infra/reports/charts.ts';
import type { z } from 'zod';
import type { ReportFilters, ReportPeriod, ReportType } from '../../domain/report.ts';
import type { AnalyticsRange } from '../../projections/call-analytics.ts';

/**
 * What one report type is: the filters it accepts, how its data is gathered from the read models, the schema of
 * that data (the JSON format, and the OpenAPI document), and how the data is laid out as summary figures, charts
 * and tables (the CSV and PDF formats). Adding a type is one file in `types/` plus a line in `types/index.ts`.
 */
export interface ReportTypeDefinition<Data = unknown> {
  type: ReportType;
  /** The title of the PDF and the e-mail subject's default. */
  title: string;
  /** One sentence for the documentation and the OpenAPI description. */
  description: string;
  /** The filter keys this type applies; any other key is refused with 400. */
  filters: ReadonlyArray<keyof ReportFilters>;
  /** Plain zod with `.meta({ id })` (processes import nothing from http; the document generator reads the id). */
  schema: z.ZodType<Data>;
  collect(source: ReportSource): Data;
  layout(data: Data): ReportLayout;
}

/** Where a report's figures come from: the read models, for one workspace, period and set of filters. */
export interface ReportSource {
  db: Database;
  workspaceId: string;
  period: ReportPeriod;
  /** The period as the analytics queries take it: whole local days in the report's zone. */
  range: AnalyticsRange;
  filters: ReportFilters;
  /** The API URL of a call (for links in coaching examples). */
  callUrl(callId: string): string;
}

export type Cell = string | number | null;

export interface ReportTable {
  /** The CSV `section` value: a stable snake_case name. */
  name: string;
  title: string;
  columns: Array<{ key: string; title: string; numeric?: boolean }>;
  rows: Array<Record<string, Cell>>;
}

/** A chart of a report: the chart renderer's input, one definition for the PDF and the dashboard. */
export type ReportChart = ChartInput;

export interface ReportLayout {
  summary: Array<{ label: string; value: Cell }>;
  charts: ReportChart[];
  tables: ReportTable[];
}

/** Helpers the types share for the figures they derive from sums. */
export const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** An average over `count` items; null when there is none. */
export const averageOf = (sum: number, count: number) => (count === 0 ? null : round(sum / count, 2));
/** A share from 0 to 1 (4 decimals); 0 when the whole is 0. */
export const rateOf = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 4));
/** A share as a percentage for display ("62.5%"). */
export const percent = (rate: number | null) => (rate === null ? null : `${round(rate * 100, 1)}%`);

/** Display titles of the dispositions in PDF table headers (CSV headers are the machine names: the column keys). */
export const DISPOSITION_TITLES: Record<string, string> = {
  interested: 'Interested',
  not_interested: 'Not interested',
  callback: 'Callback',
  not_reachable: 'Unreached',
  dnd: 'DND',
  escalated: 'Escalated',
};

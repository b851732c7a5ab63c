import type { Database } from 'better-sqlite3';
import type { ReportFilters, ReportFormat, ReportPeriod, ReportType } from '../../domain/report.ts';
import { reportCsv } from '../../infra/reports/csv.ts';
import { reportPdf } from '../../infra/reports/pdf.ts';
import { reportRange } from './report-range.ts';
import { reportTypeDefinition } from './types/index.ts';

/** What one run generates: everything the worker thread needs, as plain data (it crosses the thread boundary). */
export interface RenderRequest {
  report_id: string;
  run_id: string;
  workspace_id: string;
  type: ReportType;
  format: ReportFormat;
  period: ReportPeriod;
  timezone: string;
  filters: ReportFilters;
  /** Where call links in the data point (PUBLIC_BASE_URL). */
  base_url: string;
  generated_at: string;
}

export interface RenderedReport {
  bytes: Uint8Array;
  content_type: string;
  file_name: string;
  /** Milliseconds spent reading the read models and rendering the file. */
  collect_ms: number;
  render_ms: number;
}

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

export class UnknownReportTypeError extends Error {}

/** `call_summary_2026-03-01_2026-03-31.pdf` */
export function reportFileName(type: ReportType, period: ReportPeriod, format: ReportFormat): string {
  return `${type}_${period.from}_${period.to}.${format}`;
}

function filterLine(filters: ReportFilters): string {
  const entries = Object.entries(filters).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? 'Filters: none' : `Filters: ${entries.map(([key, value]) => `${key} = ${value}`).join(', ')}`;
}

/** Reads the report's figures from the read models and renders them in the requested format. */
export async function renderReport(db: Database, request: RenderRequest): Promise<RenderedReport> {
  const definition = reportTypeDefinition(request.type);
  if (!definition) throw new UnknownReportTypeError(`report type ${request.type} is not available`);
  const started = performance.now();
  const collectedReport = definition.collect({
    db,
    workspaceId: request.workspace_id,
    period: request.period,
    range: reportRange(request.period, request.timezone),
    filters: request.filters,
    callUrl: (callId) => `${request.base_url}/v1/calls/${encodeURIComponent(callId)}`,
  });
  const collected = performance.now();
  let bytes: Uint8Array;
  if (request.format === 'json') {
    bytes = new TextEncoder().encode(JSON.stringify(collectedReport.data));
  } else {
    const layout = collectedReport.layout();
    const summaryTable = { name: 'summary', title: 'Summary', columns: [{ key: 'label', title: 'Figure' }, { key: 'value', title: 'Value' }], rows: layout.summary };
    if (request.format === 'csv') {
      bytes = reportCsv([summaryTable, ...layout.tables]);
    } else {
      bytes = await reportPdf(
        {
          title: definition.title,
          subtitle: [
            `Period: ${request.period.from} to ${request.period.to} (${request.timezone})`,
            filterLine(request.filters),
            `Report ${request.report_id}, generated ${request.generated_at.slice(0, 16).replace('T', ' ')} UTC`,
          ],
          summary: layout.summary,
          charts: layout.charts,
          tables: layout.tables,
        },
        { creationDate: new Date(request.generated_at) },
      );
    }
  }
  return {
    bytes,
    content_type: CONTENT_TYPES[request.format],
    file_name: reportFileName(request.type, request.period, request.format),
    collect_ms: Math.round(collected - started),
    render_ms: Math.round(performance.now() - collected),
  };
}

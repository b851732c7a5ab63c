import type { ReportType } from '../../../domain/report.ts';
import type { ReportLayout, ReportSource, ReportTypeDefinition } from '../report-type.ts';
import { agentCoachingReport } from './agent-coaching.ts';
import { callSummaryReport } from './call-summary.ts';
import { campaignPerformanceReport } from './campaign-performance.ts';
import { qaPerformanceReport } from './qa-performance.ts';

/** A report type with its data type hidden: what the generator and the routes need of any type. */
export interface AvailableReportType extends Pick<ReportTypeDefinition, 'type' | 'title' | 'description' | 'filters' | 'schema'> {
  /** Gathers the data; its layout (for CSV and PDF) is computed only when asked for. */
  collect(source: ReportSource): { data: unknown; layout(): ReportLayout };
}

function available<Data>(definition: ReportTypeDefinition<Data>): AvailableReportType {
  return {
    type: definition.type,
    title: definition.title,
    description: definition.description,
    filters: definition.filters,
    schema: definition.schema,
    collect(source) {
      const data = definition.collect(source);
      return { data, layout: () => definition.layout(data) };
    },
  };
}

/**
 * The report types this server generates. A type of REPORT_TYPES missing here is refused at POST /v1/reports
 * with 400 `invalid_parameter` ("not available yet"): `compliance_audit` waits for the compliance module
 * (issue 14); it is added by writing `types/compliance-audit.ts` and listing it here (its data schema joins the
 * OpenAPI document from this list).
 */
export const REPORT_TYPE_DEFINITIONS: Partial<Record<ReportType, AvailableReportType>> = {
  call_summary: available(callSummaryReport),
  qa_performance: available(qaPerformanceReport),
  agent_coaching: available(agentCoachingReport),
  campaign_performance: available(campaignPerformanceReport),
};

export function reportTypeDefinition(type: ReportType): AvailableReportType | undefined {
  return REPORT_TYPE_DEFINITIONS[type];
}

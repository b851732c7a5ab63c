import type { ReportType } from '../../../domain/report.ts';
import type { ReportLayout, ReportSource, ReportTypeDefinition } from '../report-type.ts';
import { agentCoachingReport } from './agent-coaching.ts';
import { callSummaryReport } from './call-summary.ts';
import { campaignPerformanceReport } from './campaign-performance.ts';
import { complianceAuditReport } from './compliance-audit.ts';
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

/** The report types this server generates, one per REPORT_TYPES (their data schemas join the OpenAPI document from this list). */
export const REPORT_TYPE_DEFINITIONS: Record<ReportType, AvailableReportType> = {
  call_summary: available(callSummaryReport),
  qa_performance: available(qaPerformanceReport),
  compliance_audit: available(complianceAuditReport),
  agent_coaching: available(agentCoachingReport),
  campaign_performance: available(campaignPerformanceReport),
};

export function reportTypeDefinition(type: ReportType): AvailableReportType {
  return REPORT_TYPE_DEFINITIONS[type];
}

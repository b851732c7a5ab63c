import type { ReportType } from '../../../domain/report.ts';
import type { ReportTypeDefinition } from '../report-type.ts';
import { agentCoachingReport } from './agent-coaching.ts';
import { callSummaryReport } from './call-summary.ts';
import { campaignPerformanceReport } from './campaign-performance.ts';
import { qaPerformanceReport } from './qa-performance.ts';

/**
 * The report types this server generates. A type of REPORT_TYPES missing here is refused at POST /v1/reports
 * with 400 `invalid_parameter` ("not available yet"): `compliance_audit` waits for the compliance module
 * (issue 14); it is added by writing `types/compliance-audit.ts` and listing it here.
 */
export const REPORT_TYPE_DEFINITIONS: Partial<Record<ReportType, ReportTypeDefinition<never>>> = {
  call_summary: callSummaryReport as ReportTypeDefinition<never>,
  qa_performance: qaPerformanceReport as ReportTypeDefinition<never>,
  agent_coaching: agentCoachingReport as ReportTypeDefinition<never>,
  campaign_performance: campaignPerformanceReport as ReportTypeDefinition<never>,
};

export function reportTypeDefinition(type: ReportType): ReportTypeDefinition<unknown> | undefined {
  return REPORT_TYPE_DEFINITIONS[type] as ReportTypeDefinition<unknown> | undefined;
}

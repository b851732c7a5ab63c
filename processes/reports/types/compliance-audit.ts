import { z } from 'zod';
import { complianceAggregate, complianceCheckResults, complianceViolationLog } from '../../../projections/compliance-results.ts';
import { percent, rateOf, type ReportSource, type ReportTypeDefinition } from '../report-type.ts';
import { nameLookup } from './names.ts';

/**
 * The most findings the violation log lists (oldest call first); `violation_log_total` states how many there were.
 * A month of a large collections floor can have tens of thousands: the report is for a manager to read and forward,
 * the full list is `GET /v1/analytics/compliance?call_id=` per call (docs/reports.md).
 */
export const VIOLATION_LOG_MAX_ROWS = 500;
/** The evidence text of a finding is cut to this many characters in the log (an excerpt, not the transcript). */
export const EXCERPT_MAX_CHARS = 160;

const Severity = z.enum(['critical', 'warning']);
const severityOf = (value: string): z.infer<typeof Severity> => (value === 'critical' ? 'critical' : 'warning');

export const ComplianceAuditDataSchema = z
  .strictObject({
    totals: z.strictObject({
      calls_evaluated: z.number().int().min(0).meta({ description: 'Calls (and standalone jobs) with a compliance result, by the time the call happened.' }),
      passed_calls: z.number().int().min(0).meta({ description: 'Calls without a critical finding.' }),
      pass_rate: z.number().min(0).max(1).meta({ description: 'passed_calls / calls_evaluated (0 without calls).' }),
      avg_compliance_score: z.number().nullable().meta({ description: 'Average compliance score (0 to 100); null without calls.' }),
      violations: z.number().int().min(0).meta({ description: 'Findings (a check failed twice in a call counts twice).' }),
      blocked_attempts: z.number().int().min(0).meta({ description: 'Dial attempts the pre-dial rules refused in the period.' }),
    }),
    check_results: z
      .array(
        z.strictObject({
          check: z.string(),
          severity: Severity,
          calls_evaluated: z.number().int().min(0).meta({ description: 'Calls the check applied to.' }),
          failed_calls: z.number().int().min(0),
          violations: z.number().int().min(0),
          pass_rate: z.number().min(0).max(1).meta({ description: '(calls_evaluated - failed_calls) / calls_evaluated.' }),
        }),
      )
      .meta({ description: 'Every check that applied in the period, most failed first.' }),
    severity_breakdown: z.strictObject({ critical: z.number().int().min(0), warning: z.number().int().min(0) }).meta({ description: 'Findings by severity.' }),
    violation_log: z
      .array(
        z.strictObject({
          call_id: z.string().nullable().meta({ description: 'Null for a standalone transcription job.' }),
          job_id: z.string(),
          campaign_id: z.string().nullable(),
          campaign_name: z.string().nullable(),
          occurred_at: z.string().meta({ description: 'When the call happened (ISO 8601, UTC).' }),
          check: z.string(),
          severity: Severity,
          rule_id: z.string(),
          description: z.string(),
          evidence_speaker: z.string().nullable(),
          evidence_time_seconds: z.number().nullable().meta({ description: 'Seconds into the recording where the evidence starts; null for a finding without a segment (e.g. a missing disclosure).' }),
          excerpt: z.string().nullable().meta({ description: `The evidence text, at most ${EXCERPT_MAX_CHARS} characters (cut with "…").` }),
        }),
      )
      .meta({ description: `The findings, oldest call first; at most ${VIOLATION_LOG_MAX_ROWS} (see violation_log_total).` }),
    violation_log_total: z.number().int().min(0).meta({ description: 'All findings of the period; more than violation_log lists when violation_log_truncated.' }),
    violation_log_truncated: z.boolean(),
    blocked_attempts_by_rule: z.array(
      z.strictObject({
        rule_id: z.string(),
        severity: Severity,
        count: z.number().int().min(0),
        final: z.number().int().min(0).meta({ description: 'Attempts the rule refused for good (the contact is not retried); the others wait for a later window.' }),
      }),
    ),
  })
  .meta({ id: 'ComplianceAuditReportData' });

export type ComplianceAuditData = z.infer<typeof ComplianceAuditDataSchema>;

function excerptOf(text: string): string {
  return text.length <= EXCERPT_MAX_CHARS ? text : `${text.slice(0, EXCERPT_MAX_CHARS - 1)}…`;
}

function collect({ db, workspaceId, range, filters }: ReportSource): ComplianceAuditData {
  const filter = { fromInstant: range.fromInstant, toInstant: range.toInstant, campaign_id: filters.campaign_id, language: filters.language };
  const names = nameLookup(db, workspaceId);
  const aggregate = complianceAggregate(db, workspaceId, filter);
  const log = complianceViolationLog(db, workspaceId, filter, VIOLATION_LOG_MAX_ROWS);
  const blocked = aggregate.blocked_attempts_by_rule.map((row) => ({ ...row, severity: severityOf(row.severity) }));
  return {
    totals: {
      calls_evaluated: aggregate.calls_evaluated,
      passed_calls: aggregate.passed_calls,
      pass_rate: rateOf(aggregate.passed_calls, aggregate.calls_evaluated),
      avg_compliance_score: aggregate.avg_compliance_score,
      violations: aggregate.violations_by_severity.critical + aggregate.violations_by_severity.warning,
      blocked_attempts: blocked.reduce((sum, row) => sum + row.count, 0),
    },
    check_results: complianceCheckResults(db, workspaceId, filter).map((row) => ({
      ...row,
      severity: severityOf(row.severity),
      pass_rate: rateOf(row.calls_evaluated - row.failed_calls, row.calls_evaluated),
    })),
    severity_breakdown: aggregate.violations_by_severity,
    violation_log: log.entries.map(({ violation, ...call }) => ({
      call_id: call.call_id,
      job_id: call.job_id,
      campaign_id: call.campaign_id,
      campaign_name: names.campaign(call.campaign_id),
      occurred_at: call.occurred_at,
      check: violation.check,
      severity: severityOf(violation.severity),
      rule_id: violation.rule_id,
      description: violation.description,
      evidence_speaker: violation.evidence?.speaker ?? null,
      evidence_time_seconds: violation.evidence?.start_time ?? null,
      excerpt: violation.evidence ? excerptOf(violation.evidence.text) : null,
    })),
    violation_log_total: log.total,
    violation_log_truncated: log.total > log.entries.length,
    blocked_attempts_by_rule: blocked,
  };
}

export const complianceAuditReport: ReportTypeDefinition<ComplianceAuditData> = {
  type: 'compliance_audit',
  title: 'Compliance audit',
  description: 'Check results with pass rates, the violation log with evidence, findings by severity and the dial attempts the pre-dial rules blocked, by rule.',
  // The compliance read models carry the campaign and the call's language (not the agent or a scorecard).
  filters: ['campaign_id', 'language'],
  schema: ComplianceAuditDataSchema,
  collect,
  layout(data) {
    const t = data.totals;
    return {
      summary: [
        { label: 'Calls evaluated', value: t.calls_evaluated },
        { label: 'Passed (no critical finding)', value: t.passed_calls },
        { label: 'Pass rate', value: percent(t.pass_rate) },
        { label: 'Average compliance score', value: t.avg_compliance_score },
        { label: 'Critical findings', value: data.severity_breakdown.critical },
        { label: 'Warnings', value: data.severity_breakdown.warning },
        { label: 'Blocked dial attempts', value: t.blocked_attempts },
        {
          label: 'Violation log',
          value: data.violation_log_truncated ? `first ${data.violation_log.length} of ${data.violation_log_total} findings` : `${data.violation_log_total} findings`,
        },
      ],
      charts: [
        {
          title: 'Failed calls by check',
          mark: 'bar',
          xTitle: 'Check',
          yTitle: 'Failed calls',
          points: data.check_results.map((row) => ({ x: row.check, y: row.failed_calls, series: row.severity })),
        },
        {
          title: 'Blocked dial attempts by rule',
          mark: 'bar',
          xTitle: 'Rule',
          yTitle: 'Attempts',
          points: data.blocked_attempts_by_rule.map((row) => ({ x: row.rule_id, y: row.count, series: row.severity })),
        },
      ],
      tables: [
        {
          name: 'check_results',
          title: 'Check results',
          columns: [
            { key: 'check', title: 'Check' },
            { key: 'severity', title: 'Severity' },
            { key: 'calls_evaluated', title: 'Calls evaluated', numeric: true },
            { key: 'failed_calls', title: 'Failed', numeric: true },
            { key: 'violations', title: 'Findings', numeric: true },
            { key: 'pass_rate', title: 'Pass rate', numeric: true },
          ],
          rows: data.check_results,
        },
        {
          name: 'severity_breakdown',
          title: 'Findings by severity',
          columns: [
            { key: 'severity', title: 'Severity' },
            { key: 'violations', title: 'Findings', numeric: true },
          ],
          rows: (['critical', 'warning'] as const).map((severity) => ({ severity, violations: data.severity_breakdown[severity] })),
        },
        {
          name: 'blocked_attempts_by_rule',
          title: 'Blocked dial attempts by rule',
          columns: [
            { key: 'rule_id', title: 'Rule' },
            { key: 'severity', title: 'Severity' },
            { key: 'count', title: 'Attempts', numeric: true },
            { key: 'final', title: 'Final', numeric: true },
          ],
          rows: data.blocked_attempts_by_rule,
        },
        {
          name: 'violation_log',
          title: data.violation_log_truncated ? `Violation log (first ${data.violation_log.length} of ${data.violation_log_total})` : 'Violation log',
          columns: [
            { key: 'occurred_at', title: 'Call time (UTC)' },
            { key: 'call', title: 'Call (or job)' },
            { key: 'campaign_name', title: 'Campaign' },
            { key: 'check', title: 'Check' },
            { key: 'severity', title: 'Severity' },
            { key: 'evidence_time_seconds', title: 'At (s)', numeric: true },
            { key: 'excerpt', title: 'Excerpt' },
          ],
          rows: data.violation_log.map((row) => ({
            // To the minute: the table has seven columns to fit on a page (the JSON keeps the instant).
            occurred_at: `${row.occurred_at.slice(0, 10)} ${row.occurred_at.slice(11, 16)}`,
            call: row.call_id ?? row.job_id,
            campaign_name: row.campaign_name ?? (row.campaign_id === null ? 'Single call' : row.campaign_id),
            check: row.check,
            severity: row.severity,
            evidence_time_seconds: row.evidence_time_seconds,
            excerpt: row.excerpt,
          })),
        },
      ],
    };
  },
};

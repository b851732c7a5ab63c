import { z } from '@hono/zod-openapi';
import { REPORT_FORMATS, REPORT_STATUSES, REPORT_TYPES } from '../../domain/report.ts';
import { REPORT_TYPE_DEFINITIONS } from '../../processes/reports/types/index.ts';
import { PaginationQuery, Timestamp, listEnvelope } from './common.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_EXPECTED = 'an ISO 8601 date such as 2026-03-01';
const Identifier = z.string().min(1).max(100);

export const ReportFiltersSchema = z
  .strictObject({
    campaign_id: Identifier.optional(),
    agent_id: Identifier.optional(),
    language: z.string().max(20).optional().openapi({ example: 'hi-IN' }),
    scorecard_id: Identifier.optional(),
  })
  .openapi('ReportFilters', {
    description:
      'Which apply depends on the type: call_summary and campaign_performance take campaign_id, agent_id, language; qa_performance and agent_coaching take agent_id, scorecard_id; compliance_audit takes campaign_id, language. Any other key is refused (400).',
  });

export const ReportScheduleSchema = z
  .strictObject({
    cron: z.string().min(1).max(100).openapi({ example: '0 8 * * 1', description: '5 fields (minute hour day month weekday); at most one run a day.' }),
    timezone: z.string().min(1).max(64).openapi({ example: 'Asia/Kolkata', description: 'IANA zone the cron is read in (DST-correct).' }),
  })
  .openapi('ReportSchedule');

export const ReportEmailSchema = z
  .strictObject({
    to: z.array(z.email({ error: 'an e-mail address' })).min(1).max(20).openapi({ example: ['ops@example.com'] }),
    subject: z.string().min(1).max(200).optional(),
  })
  .openapi('ReportEmail');

export const ReportBody = z
  .strictObject({
    type: z.enum(REPORT_TYPES).openapi({ description: 'What the report contains (docs/reports.md).' }),
    from: z.string().regex(DATE, { error: DATE_EXPECTED }).openapi({ example: '2026-03-01', description: 'First day of the period (inclusive), in `timezone`.' }),
    to: z.string().regex(DATE, { error: DATE_EXPECTED }).openapi({ example: '2026-03-31', description: 'Last day (inclusive); at most 366 days from `from`.' }),
    filters: ReportFiltersSchema.optional(),
    format: z.enum(REPORT_FORMATS).default('json'),
    timezone: z.string().max(64).optional().openapi({ example: 'Asia/Kolkata', description: 'IANA zone of the days; default UTC.' }),
    schedule: ReportScheduleSchema.optional(),
    email: ReportEmailSchema.optional().openapi({ description: 'Needs SMTP_URL on the server (else 400).' }),
  })
  .openapi('ReportInput');

export const ReportAcceptedSchema = z
  .object({ report_id: z.string().openapi({ example: 'rpt_01jd8k3m9q2x7c4v5b6n8p0r2t' }), status: z.literal('generating'), created_at: Timestamp })
  .openapi('ReportAccepted');

const Period = z.object({ from: z.string(), to: z.string() }).openapi('ReportPeriod');
const ErrorReason = z.object({ code: z.string(), message: z.string() });

export const ReportRunSchema = z
  .object({
    run_id: z.string().openapi({ example: 'rrn_7q2x7c4v5b6n8p0r2t1a3c5e7g' }),
    period: Period,
    trigger: z.enum(['request', 'schedule']),
    status: z.enum(REPORT_STATUSES),
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
    error: ErrorReason.nullable(),
    download_url: z.string().nullable().openapi({ description: 'Signed, valid 1 hour; null until completed and after the retention period.' }),
    size_bytes: z.int().nullable(),
    expired: z.boolean().openapi({ description: 'The file was deleted after the retention period.' }),
    email_status: z.enum(['pending', 'sent_attachment', 'sent_link', 'retrying', 'failed']).nullable().openapi({ description: 'Null without e-mail delivery.' }),
  })
  .openapi('ReportRun');

const DATA_SCHEMAS = Object.values(REPORT_TYPE_DEFINITIONS).map((definition) => definition.schema);

/** One schema per available type (processes/reports/types/), named by each type's `.meta({ id })`. */
export const ReportDataSchema = z
  .union(DATA_SCHEMAS as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]])
  .openapi({ description: `The shape of the report's \`type\`: ${Object.keys(REPORT_TYPE_DEFINITIONS).map((type) => `${type}`).join(', ')} (one schema each).` });

const reportFields = {
  report_id: z.string().openapi({ example: 'rpt_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  type: z.enum(REPORT_TYPES),
  status: z.enum(REPORT_STATUSES).openapi({ description: "The latest run's." }),
  format: z.enum(REPORT_FORMATS),
  period: Period.openapi({ description: 'As requested (the first run); scheduled runs have their own periods.' }),
  timezone: z.string(),
  filters: ReportFiltersSchema,
  schedule: ReportScheduleSchema.extend({ active: z.boolean() }).nullable(),
  email: z.object({ to: z.array(z.string()), subject: z.string().nullable() }).nullable(),
  created_at: Timestamp,
  completed_at: Timestamp.nullable().openapi({ description: 'When the latest run completed or failed.' }),
  error: ErrorReason.nullable().openapi({ description: 'Why the latest run failed; null otherwise.' }),
  download_url: z.string().nullable().openapi({ description: 'csv and pdf: the latest run\'s file, signed for 1 hour from this response (a fresh one each GET).' }),
  download_expires_at: Timestamp.nullable(),
  email_status: z.enum(['pending', 'sent_attachment', 'sent_link', 'retrying', 'failed']).nullable().openapi({ description: "The latest run's e-mail delivery; null without `email`." }),
  next_run_at: Timestamp.nullable().openapi({ description: 'Scheduled reports: when the next run is due; null once cancelled or for a one-time report.' }),
};

export const ReportSchema = z
  .object({
    ...reportFields,
    data: ReportDataSchema.nullable().optional().openapi({ description: 'json only: the latest completed run\'s data; null until then and after the retention period.' }),
    runs: z.array(ReportRunSchema).optional().openapi({ description: 'Scheduled reports: the runs, newest first (at most 100).' }),
  })
  .openapi('Report');

export const ReportListItemSchema = z.object(reportFields).openapi('ReportListItem');
export const ReportListSchema = listEnvelope(ReportListItemSchema, 'ReportList');

const booleanQuery = z
  .enum(['true', 'false'], { error: 'true or false' })
  .transform((value) => value === 'true')
  .optional()
  .openapi({ type: 'boolean', description: 'true: only scheduled reports; false: only one-time ones.' } as never);

export const ReportListQuery = PaginationQuery.extend({
  type: z.enum(REPORT_TYPES).optional(),
  status: z.enum(REPORT_STATUSES).optional(),
  scheduled: booleanQuery,
});

export const ReportIdParams = z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'rpt_01jd8k3m9q2x7c4v5b6n8p0r2t' }) });

import { z } from '@hono/zod-openapi';
import { Readable } from 'node:stream';
import { validateLanguage } from '../../domain/campaign.ts';
import { reportDecider, reportRunId, reportStream, type ReportFilters, type ReportSchedule, type ReportType } from '../../domain/report.ts';
import { isCalendarDay } from '../../domain/shared/time-zone.ts';
import type { BlobStore } from '../../infra/blobs/port.ts';
import type { ReportLinks } from '../../infra/blobs/report-links.ts';
import { InvalidScheduleError, nextOccurrence, validateSchedule } from '../../processes/reports/schedule.ts';
import { reportTypeDefinition } from '../../processes/reports/types/index.ts';
import { findAgent } from '../../projections/agents.ts';
import { findCampaign } from '../../projections/campaigns.ts';
import { findQaScorecard } from '../../projections/qa-scorecards.ts';
import { findReport, findReportRun, listReports, reportRuns, type ReportRow, type ReportRunRow } from '../../projections/reports.ts';
import { createOnce } from '../../commands/create-once.ts';
import { MAX_RANGE_DAYS, parseTimezone } from '../analytics-range.ts';
import { principalOf } from '../context.ts';
import { errorResponse } from '../contract/error-responses.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { ApiError, invalidParameter, resourceNotFound } from '../errors.ts';
import { listBody } from '../list.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { ReportAcceptedSchema, ReportBody, ReportIdParams, ReportListQuery, ReportListSchema, ReportSchema } from '../schemas/report.ts';

const TAG = 'Reports';
const reportJson = { 'application/json': { schema: ReportSchema } };
const MAX_RUNS_SHOWN = 100;

const createReport = defineRoute({
  method: 'post',
  path: '/reports',
  operationId: 'createReport',
  tags: [TAG],
  summary: 'Generate a report (once, or on a schedule)',
  description:
    'Starts generation off the request path and answers at once with `generating`; poll GET /v1/reports/{id} or subscribe to `report.completed` / `report.failed`. ' +
    'With `schedule`, the report also runs at every cron occurrence for the period that just ended (docs/reports.md).',
  request: { body: { content: { 'application/json': { schema: ReportBody } }, required: true } },
  responses: { 202: { description: 'Accepted.', content: { 'application/json': { schema: ReportAcceptedSchema } } } },
}, { references: 'resource_not_found: `filters.campaign_id`, `filters.agent_id` or `filters.scorecard_id` names nothing of this workspace (`field` says which).' });

const getReport = defineRoute({
  method: 'get',
  path: '/reports/{id}',
  operationId: 'getReport',
  tags: [TAG],
  summary: 'Get a report',
  description: 'Status, and the data inline (json) or a signed `download_url` valid one hour (csv, pdf); a scheduled report lists its runs.',
  request: { params: ReportIdParams },
  responses: { 200: { description: 'The report.', content: reportJson } },
});

const listReportsRoute = defineRoute({
  method: 'get',
  path: '/reports',
  operationId: 'listReports',
  tags: [TAG],
  summary: 'List reports',
  description: 'Newest first, without data and runs (GET /v1/reports/{id} has them).',
  request: { query: ReportListQuery },
  responses: { 200: { description: 'A page of reports.', content: { 'application/json': { schema: ReportListSchema } } } },
});

const cancelSchedule = defineRoute(
  {
    method: 'delete',
    path: '/reports/{id}/schedule',
    operationId: 'cancelReportSchedule',
    tags: [TAG],
    summary: "Cancel a report's schedule",
    description: 'No further runs; the report and its runs stay readable. Answers the report (`schedule.active: false`); cancelling again is harmless.',
    request: { params: ReportIdParams },
    responses: { 200: { description: 'The report, its schedule cancelled.', content: reportJson } },
  },
  { conflicts: 'invalid_state: the report has no schedule.' },
);

const downloadReport = defineRoute(
  {
    method: 'get',
    path: '/report-files/{run_id}',
    operationId: 'downloadReportFile',
    tags: [TAG],
    summary: 'Download a report file (signed URL)',
    description: 'The `download_url` of a report or run: no API key, the signature is the credential, valid one hour from when it was handed out (7 days in e-mails).',
    request: {
      params: z.object({ run_id: z.string().min(1).max(100).openapi({ param: { name: 'run_id', in: 'path' }, example: 'rrn_7q2x7c4v5b6n8p0r2t1a3c5e7g' }) }),
      query: z.object({ expires: z.string().optional(), signature: z.string().optional() }),
    },
    responses: {
      200: {
        description: 'The file, with its content type and an attachment file name.',
        content: {
          'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
          'text/csv': { schema: z.string() },
          'application/json': { schema: z.string() },
        },
      },
      403: errorResponse('forbidden: the signature is missing or wrong (`reason: invalid_signature`), or the URL expired (`reason: expired`).'),
      404: errorResponse('resource_not_found: no such file (not generated, or deleted after the retention period).'),
    },
  },
  { public: true },
);

/** Only the filters the report's type applies; else 400. */
function checkTypeAndFilters(type: ReportType, filters: ReportFilters): void {
  const definition = reportTypeDefinition(type);
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (!(definition.filters as readonly string[]).includes(key)) {
      throw invalidParameter(`filters.${key}`, value, `only the filters of ${type}: ${definition.filters.join(', ')}`, `Filter ${key} does not apply to ${type} reports.`);
    }
  }
  if (filters.language !== undefined) validateLanguage(filters.language, 'filters.language');
}

/**
 * A filter naming a campaign, agent or scorecard the workspace does not have is a 404 at creation: a scheduled
 * report with a mistyped id would otherwise deliver empty figures every week. One that is deleted later still runs,
 * with the figures of its calls.
 */
function checkFilterReferences(readDb: ResourcePorts['readDb'], workspaceId: string, filters: ReportFilters): void {
  const references = [
    ['campaign_id', 'campaign', (id: string) => findCampaign(readDb, workspaceId, id)],
    ['agent_id', 'agent', (id: string) => findAgent(readDb, workspaceId, id)],
    ['scorecard_id', 'qa_scorecard', (id: string) => findQaScorecard(readDb, workspaceId, id)],
  ] as const;
  for (const [key, resourceType, find] of references) {
    const id = filters[key];
    if (id !== undefined && !find(id)) throw resourceNotFound(resourceType, id, { field: `filters.${key}` });
  }
}

function checkPeriod(from: string, to: string): void {
  for (const [field, value] of [['from', from], ['to', to]] as const) {
    if (!isCalendarDay(value)) throw invalidParameter(field, value, 'an ISO 8601 date such as 2026-03-01');
  }
  if (to < from) throw invalidParameter('to', to, 'a date not before from');
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (days > MAX_RANGE_DAYS) throw invalidParameter('to', to, `at most ${MAX_RANGE_DAYS} days after from (the period covers ${days})`);
}

function checkSchedule(schedule: ReportSchedule, now: Date): ReportSchedule {
  let timezone: string;
  try {
    timezone = parseTimezone(schedule.timezone);
  } catch {
    throw invalidParameter('schedule.timezone', schedule.timezone, 'an IANA time zone such as Asia/Kolkata or UTC');
  }
  const checked = { cron: schedule.cron.trim(), timezone };
  try {
    validateSchedule(checked, now);
  } catch (error) {
    if (error instanceof InvalidScheduleError) throw invalidParameter(error.field, error.field === 'schedule.cron' ? schedule.cron : schedule.timezone, error.expected);
    throw error;
  }
  return checked;
}

export interface ReportRoutePorts extends ResourcePorts {
  blobs: BlobStore;
  reportLinks: ReportLinks;
  /** SMTP_URL: e-mail delivery is refused without it. */
  mailConfigured: boolean;
}

export function reportRoutes({ commands, clock, readDb, readYourWrites, blobs, reportLinks, mailConfigured }: ReportRoutePorts) {
  const router = createRouter();

  function runDocument(run: ReportRunRow, emailRequested: boolean) {
    const available = run.status === 'completed' && run.output !== null && !run.expired;
    return {
      run_id: run.run_id,
      period: { from: run.period_from, to: run.period_to },
      trigger: run.trigger,
      status: run.status === 'queued' ? ('generating' as const) : run.status,
      created_at: run.queued_at,
      completed_at: run.completed_at,
      error: run.status === 'failed' ? run.error : null,
      download_url: available ? reportLinks.urlFor(run.run_id).url : null,
      size_bytes: run.output?.size_bytes ?? null,
      expired: run.expired,
      email_status: emailRequested ? ((run.email_status ?? 'pending') as 'pending') : null,
    };
  }

  function listItem(report: ReportRow, latest: ReportRunRow | undefined) {
    const request = report.request;
    const available = latest?.status === 'completed' && latest.output !== null && !latest.expired;
    const link = available && request.format !== 'json' ? reportLinks.urlFor(latest.run_id) : null;
    return {
      report_id: report.report_id,
      type: request.type,
      status: report.status,
      format: request.format,
      period: request.period,
      timezone: request.timezone,
      filters: request.filters,
      schedule: request.schedule ? { ...request.schedule, active: report.schedule_active === 1 } : null,
      email: request.email,
      created_at: report.created_at,
      completed_at: latest?.status === 'completed' || latest?.status === 'failed' ? latest.completed_at : null,
      error: latest?.status === 'failed' ? latest.error : null,
      download_url: link?.url ?? null,
      download_expires_at: link?.expires_at ?? null,
      email_status: request.email ? ((latest?.email_status ?? 'pending') as 'pending') : null,
      next_run_at: report.schedule_active === 1 ? report.next_run_at : null,
    };
  }

  async function reportDocument(report: ReportRow): Promise<z.infer<typeof ReportSchema>> {
    const runs = reportRuns(readDb, report.report_id, MAX_RUNS_SHOWN);
    const latest = runs.find((run) => run.run_id === report.latest_run_id) ?? runs[0];
    const document: z.infer<typeof ReportSchema> = listItem(report, latest);
    if (report.request.format === 'json') {
      const lastCompleted = runs.find((run) => run.status === 'completed' && run.output !== null && !run.expired);
      const shown = report.request.schedule ? lastCompleted : latest?.status === 'completed' ? latest : undefined;
      document.data = null;
      if (shown?.output && !shown.expired) {
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of blobs.read(shown.output.blob_key)) chunks.push(chunk as Buffer);
          document.data = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch (error) {
          // Deleted by the retention sweep between the read model and this read: shown as expired.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
    if (report.request.schedule) document.runs = runs.map((run) => runDocument(run, report.request.email !== null));
    return document;
  }

  router.openapi(createReport, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    const filters = body.filters ?? {};
    checkTypeAndFilters(body.type, filters);
    checkFilterReferences(readDb, workspaceId, filters);
    const timezone = parseTimezone(body.timezone);
    checkPeriod(body.from, body.to);
    const now = clock.now();
    const schedule = body.schedule ? checkSchedule(body.schedule, now) : null;
    if (body.email && !mailConfigured) {
      throw invalidParameter('email', body.email, 'e-mail delivery configured on the server (SMTP_URL)', 'E-mail delivery is not configured on this server: set SMTP_URL (and MAIL_FROM), or leave out `email`.');
    }

    const reportId = resourceId(c, 'rpt', now);
    const period = { from: body.from, to: body.to };
    const result = await createOnce(
      commands,
      reportDecider,
      reportStream(reportId),
      {
        type: 'RequestReport',
        data: {
          report_id: reportId,
          workspace_id: workspaceId,
          type: body.type,
          period,
          timezone,
          filters: Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)),
          format: body.format,
          schedule,
          email: body.email ? { to: body.email.to, subject: body.email.subject ?? null } : null,
          requested_at: now.toISOString(),
        },
        facts: { runId: reportRunId(reportId, period), nextRunAt: schedule ? nextOccurrence(schedule, now) : null },
      },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json({ report_id: reportId, status: 'generating' as const, created_at: result.state.report!.requested_at }, 202);
  });

  router.openapi(getReport, async (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const report = findReport(readDb, workspaceId, id);
    if (!report) throw resourceNotFound('report', id);
    return c.json(await reportDocument(report), 200);
  });

  router.openapi(listReportsRoute, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    const { data, total } = listReports(readDb, workspaceId, { type: query.type, status: query.status, scheduled: query.scheduled }, query.limit, query.offset);
    const items = data.map((report) => listItem(report, report.latest_run_id ? findReportRun(readDb, report.latest_run_id) : undefined));
    return c.json(listBody(items, total, query), 200);
  });

  router.openapi(cancelSchedule, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const { id } = c.req.valid('param');
    if (!findReport(readDb, workspaceId, id)) throw resourceNotFound('report', id);
    const now = clock.now();
    const result = await commands.handle(reportDecider, reportStream(id), { type: 'CancelReportSchedule', workspaceId, now }, { workspaceId, actor: keyId, now });
    await readYourWrites(result.position);
    return c.json(await reportDocument(findReport(readDb, workspaceId, id)!), 200);
  });

  router.openapi(downloadReport, async (c) => {
    const { run_id: runId } = c.req.valid('param');
    const { expires, signature } = c.req.valid('query');
    const verdict = reportLinks.verify(runId, expires, signature);
    if (verdict === 'invalid') throw new ApiError('forbidden', 'The download URL is not valid: its signature does not match.', { reason: 'invalid_signature' });
    if (verdict === 'expired') throw new ApiError('forbidden', 'The download URL has expired; get a fresh one from GET /v1/reports/{id}.', { reason: 'expired' });
    const run = findReportRun(readDb, runId);
    const size = run?.output && !run.expired ? await blobs.size(run.output.blob_key) : null;
    if (!run?.output || size === null) throw resourceNotFound('report_file', runId);
    const headers = {
      'Content-Type': run.output.content_type,
      'Content-Length': String(size),
      'Content-Disposition': `attachment; filename="${run.output.file_name}"`,
      'Cache-Control': 'private, max-age=3600',
    };
    const content = size === 0 || c.req.method === 'HEAD' ? '' : (Readable.toWeb(blobs.read(run.output.blob_key)) as ReadableStream<Uint8Array>);
    return c.body(content, 200, headers);
  });

  return router;
}

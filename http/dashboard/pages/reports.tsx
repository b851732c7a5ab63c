import type { Child } from 'hono/jsx';
import { REPORT_FORMATS, REPORT_STATUSES, REPORT_TYPES } from '../../../domain/report.ts';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { addDays, localDateOf } from '../../../domain/shared/time-zone.ts';
import { REPORT_TYPE_DEFINITIONS } from '../../../processes/reports/types/index.ts';
import { unwrap } from '../api-client.ts';
import type { DashboardContext } from '../env.ts';
import { redirectWithFlash } from '../respond.ts';
import { Badge, canWrite, CsrfField, Empty, ErrorBox, inPlace, Layout, Pager, Time, WriteNeeded, ZoneNote, type Viewer } from '../view.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

type ApiError = { code: string; message: string; details: Record<string, unknown> };
interface Period { from: string; to: string }
interface Report {
  report_id: string;
  type: string;
  status: string;
  format: string;
  period: Period;
  timezone: string;
  filters: Record<string, string | undefined>;
  schedule: { cron: string; timezone: string; active: boolean } | null;
  email: { to: string[]; subject: string | null } | null;
  created_at: string;
  completed_at: string | null;
  error: { code: string; message: string } | null;
  download_url: string | null;
  download_expires_at: string | null;
  email_status: string | null;
  next_run_at: string | null;
  runs?: Run[];
  /** A JSON report's figures, inline. */
  data?: unknown;
}
interface Run {
  run_id: string;
  period: Period;
  trigger: string;
  status: string;
  created_at: string;
  completed_at: string | null;
  error: { code: string; message: string } | null;
  download_url: string | null;
  size_bytes: number | null;
  expired: boolean;
  email_status: string | null;
}
interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }

/** The types this server generates (the API refuses the others), with the filters each applies. */
const AVAILABLE_TYPES = REPORT_TYPES.filter((type) => REPORT_TYPE_DEFINITIONS[type]);
const FILTERS = ['campaign_id', 'agent_id', 'language', 'scorecard_id'] as const;
const typeLabel = (type: string) => REPORT_TYPE_DEFINITIONS[type as keyof typeof REPORT_TYPE_DEFINITIONS]?.title ?? type.replaceAll('_', ' ');

/** A signed download link as a path on this origin (the API may sign it for its public base URL). */
function downloadPath(url: string): string {
  const parsed = new URL(url, 'http://local');
  return `${parsed.pathname}${parsed.search}`;
}

/** What the create form holds: as typed, so a refused form comes back filled in. */
type ReportForm = Record<'type' | 'from' | 'to' | 'format' | 'timezone' | 'cron' | 'schedule_timezone' | 'email_to' | 'email_subject' | (typeof FILTERS)[number], string>;

function formOf(body: Record<string, unknown>): ReportForm {
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string).trim() : '');
  return {
    type: text('type'), from: text('from'), to: text('to'), format: text('format'), timezone: text('timezone'),
    cron: text('cron'), schedule_timezone: text('schedule_timezone'), email_to: text('email_to'), email_subject: text('email_subject'),
    campaign_id: text('campaign_id'), agent_id: text('agent_id'), language: text('language'), scorecard_id: text('scorecard_id'),
  };
}

/** The POST /v1/reports body: empty optional fields left out, so the API's own defaults and rules apply. */
function requestOf(form: ReportForm) {
  const filters = Object.fromEntries(FILTERS.filter((name) => form[name]).map((name) => [name, form[name]]));
  const recipients = form.email_to.split(/[\s,;]+/).filter(Boolean);
  return {
    type: form.type,
    from: form.from,
    to: form.to,
    format: form.format || undefined,
    timezone: form.timezone || undefined,
    filters: Object.keys(filters).length ? filters : undefined,
    schedule: form.cron ? { cron: form.cron, timezone: form.schedule_timezone || form.timezone || 'UTC' } : undefined,
    email: recipients.length ? { to: recipients, subject: form.email_subject || undefined } : undefined,
  };
}

/** Which form field an API error belongs to (`details.field` is the body's path, e.g. `schedule.cron`, `email.to.0`). */
function fieldOf(error: ApiError | undefined): string | undefined {
  const field = typeof error?.details.field === 'string' ? error.details.field : undefined;
  if (!field) return undefined;
  if (field.startsWith('filters.')) return field.slice('filters.'.length);
  if (field === 'schedule' || field === 'schedule.cron') return 'cron';
  if (field === 'schedule.timezone') return 'schedule_timezone';
  if (field === 'email.subject') return 'email_subject';
  if (field === 'email' || field.startsWith('email.to')) return 'email_to';
  return field;
}

export function reportPages(app: DashboardApp, { clock }: PageDeps) {
  app.get('/reports', async (c) => {
    const viewer = c.get('viewer');
    const query = { type: c.req.query('type'), status: c.req.query('status'), scheduled: c.req.query('scheduled') };
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const result = await c.get('api').get<ListPage<Report>>('/reports', { ...query, offset, limit: 20 });
    const filtered = Object.values(query).some(Boolean);
    return c.html(
      <Layout title="Reports" viewer={viewer} path="/reports">
        {canWrite(viewer) ? <p><a class="button" href="/reports/new">New report</a></p> : null}
        <form class="filters" method="get" action="/reports" {...inPlace('/reports')}>
          <div>
            <label for="r-type">Type</label>
            <select id="r-type" name="type">
              <option value="">Any</option>
              {REPORT_TYPES.map((type) => <option value={type} selected={query.type === type}>{typeLabel(type)}</option>)}
            </select>
          </div>
          <div>
            <label for="r-status">Status</label>
            <select id="r-status" name="status">
              <option value="">Any</option>
              {REPORT_STATUSES.map((status) => <option value={status} selected={query.status === status}>{status}</option>)}
            </select>
          </div>
          <div>
            <label for="r-scheduled">Schedule</label>
            <select id="r-scheduled" name="scheduled">
              <option value="">Any</option>
              <option value="true" selected={query.scheduled === 'true'}>Scheduled</option>
              <option value="false" selected={query.scheduled === 'false'}>One-time</option>
            </select>
          </div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <ErrorBox error={result.ok ? undefined : result.error} />
        {result.ok && result.body.total === 0 ? (
          <Empty>
            <p>{filtered ? 'No report matches these filters.' : 'No reports yet.'}</p>
            {canWrite(viewer) ? <p><a href="/reports/new">Create a report</a>: once, or on a schedule, as JSON, CSV or PDF.</p> : null}
          </Empty>
        ) : result.ok ? (
          <>
            <div class="table-wrap">
              <table class="responsive">
                <thead><tr><th scope="col">Report</th><th scope="col">Status</th><th scope="col">Period</th><th scope="col">Format</th><th scope="col">Schedule</th><th scope="col">Created</th></tr></thead>
                <tbody>
                  {result.body.data.map((report) => (
                    <tr>
                      <td data-label="Report"><a href={`/reports/${report.report_id}`}>{typeLabel(report.type)}</a></td>
                      <td data-label="Status"><Badge value={report.status} /></td>
                      <td data-label="Period">{report.period.from} to {report.period.to}</td>
                      <td data-label="Format">{report.format.toUpperCase()}</td>
                      <td data-label="Schedule">{report.schedule ? <code>{report.schedule.cron}</code> : <span class="muted">once</span>}</td>
                      <td data-label="Created"><Time at={report.created_at} zone={viewer.timeZone} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager path="/reports" query={query} total={result.body.total} limit={result.body.limit} offset={result.body.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        ) : null}
      </Layout>,
    );
  });

  const renderForm = (c: DashboardContext, form: ReportForm, error?: ApiError) => {
    const viewer = c.get('viewer');
    return c.html(
      <Layout title="New report" viewer={viewer} path="/reports">
        <ReportFormView viewer={viewer} form={form} error={error} />
      </Layout>,
    );
  };

  app.get('/reports/new', (c) => {
    const viewer = c.get('viewer');
    const today = localDateOf(clock.now(), viewer.timeZone);
    return renderForm(c, {
      ...formOf({}),
      type: 'call_summary',
      from: addDays(today, -6),
      to: today,
      format: 'pdf',
      timezone: viewer.timeZone,
      schedule_timezone: viewer.timeZone,
    });
  });

  app.post('/reports/new', async (c) => {
    const form = formOf(await c.req.parseBody());
    const result = await c.get('api').send<{ report_id: string }>('POST', '/reports', requestOf(form), `dash-report-${c.get('viewer').csrfToken.slice(0, 8)}-${Date.now()}`);
    if (!result.ok) return renderForm(c, form, result.error);
    return redirectWithFlash(c, `/reports/${result.body.report_id}`, 'ok', 'Report requested: it is being generated.');
  });

  app.get('/reports/:id', async (c) => {
    const viewer = c.get('viewer');
    const report = unwrap(await c.get('api').get<Report>(`/reports/${encodeURIComponent(c.req.param('id'))}`));
    const zone = viewer.timeZone;
    const filters = Object.entries(report.filters).filter(([, value]) => value);
    return c.html(
      <Layout title={`${typeLabel(report.type)} report`} viewer={viewer} path="/reports">
        <dl class="facts card">
          <dt>Status</dt><dd data-testid="report-status"><Badge value={report.status} />{report.error ? ` ${report.error.message}` : ''}</dd>
          <dt>Period</dt><dd>{report.period.from} to {report.period.to} ({report.timezone})</dd>
          <dt>Format</dt><dd>{report.format.toUpperCase()}</dd>
          <dt>Filters</dt><dd>{filters.length ? filters.map(([name, value]) => `${name.replaceAll('_', ' ')}: ${value}`).join(', ') : 'none'}</dd>
          <dt>Schedule</dt>
          <dd>
            {report.schedule ? <><code>{report.schedule.cron}</code> in {report.schedule.timezone} {report.schedule.active ? '' : '(cancelled)'}</> : 'once'}
            {report.next_run_at ? <> · next run <Time at={report.next_run_at} zone={zone} withZone /></> : null}
          </dd>
          {report.email ? <><dt>E-mail</dt><dd>{report.email.to.join(', ')}{report.email_status ? <> <Badge value={report.email_status} /></> : null}</dd></> : null}
          <dt>Created</dt><dd><Time at={report.created_at} zone={zone} withZone /></dd>
          <dt>Completed</dt><dd><Time at={report.completed_at} zone={zone} withZone /></dd>
        </dl>
        {report.status === 'generating' ? <p class="muted">Being generated; reload in a moment.</p> : null}
        {report.download_url ? (
          <p><a class="button" href={downloadPath(report.download_url)} download data-testid="download">Download {report.format.toUpperCase()}</a> <span class="muted small">(link valid until <Time at={report.download_expires_at} zone={zone} withZone />)</span></p>
        ) : null}
        {report.format === 'json' && report.status === 'completed' ? (
          report.data === undefined ? (
            <p class="muted small">The data is no longer kept (retention); the report can be generated again.</p>
          ) : (
            <section class="card" aria-labelledby="data-h">
              <h2 id="data-h">Data</h2>
              <p class="muted small">As GET /v1/reports/{report.report_id} returns it.</p>
              <pre class="json" tabindex={0} data-testid="report-data">{JSON.stringify(report.data, null, 2)}</pre>
            </section>
          )
        ) : null}
        {report.runs?.length ? (
          <section class="card" aria-labelledby="runs-h">
            <h2 id="runs-h">Runs</h2>
            <div class="table-wrap">
              <table class="responsive">
                <thead><tr><th scope="col">Period</th><th scope="col">Trigger</th><th scope="col">Status</th><th scope="col">Completed</th><th scope="col">File</th></tr></thead>
                <tbody>
                  {report.runs.map((run) => (
                    <tr>
                      <td data-label="Period">{run.period.from} to {run.period.to}</td>
                      <td data-label="Trigger">{run.trigger}</td>
                      <td data-label="Status"><Badge value={run.status} />{run.error ? ` ${run.error.message}` : ''}</td>
                      <td data-label="Completed"><Time at={run.completed_at} zone={zone} /></td>
                      <td data-label="File">
                        {run.download_url ? <a href={downloadPath(run.download_url)} download>Download{run.size_bytes ? ` (${Math.ceil(run.size_bytes / 1024)} KB)` : ''}</a> : run.expired ? <span class="muted">deleted (retention)</span> : <span class="muted">—</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        ) : null}
        {report.schedule?.active && canWrite(viewer) ? (
          <form method="post" action={`/reports/${report.report_id}/cancel-schedule`} data-confirm="Cancel this report's schedule? Its runs stay readable.">
            <CsrfField viewer={viewer} />
            <button type="submit" class="danger">Cancel schedule</button>
          </form>
        ) : null}
        <p><a href="/reports">All reports</a></p>
      </Layout>,
    );
  });

  app.post('/reports/:id/cancel-schedule', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send<Report>('DELETE', `/reports/${encodeURIComponent(id)}/schedule`);
    if (!result.ok) return redirectWithFlash(c, `/reports/${encodeURIComponent(id)}`, 'error', result.error.message);
    return redirectWithFlash(c, `/reports/${result.body.report_id}`, 'ok', 'Schedule cancelled: no further runs.');
  });
}

function ReportFormView({ viewer, form, error }: { viewer: Viewer; form: ReportForm; error?: ApiError }) {
  const errorField = fieldOf(error);
  const known = new Set(['type', 'from', 'to', 'format', 'timezone', 'cron', 'schedule_timezone', 'email_to', 'email_subject', ...FILTERS]);
  // An error the form has no field for is shown above it.
  const general = error && (!errorField || !known.has(errorField)) ? error : undefined;
  const Field = ({ name, label, children, hint }: { name: string; label: string; children: Child; hint?: string }) => (
    <div class={errorField === name ? 'field invalid' : 'field'}>
      <label for={`rf-${name}`}>{label}</label>
      {children}
      {hint ? <p class="muted small" id={`rf-${name}-hint`}>{hint}</p> : null}
      {errorField === name ? <p class="field-error" id={`rf-${name}-error`} role="alert">{error!.message}</p> : null}
    </div>
  );
  const described = (name: string, hint = false) => [hint ? `rf-${name}-hint` : '', errorField === name ? `rf-${name}-error` : ''].filter(Boolean).join(' ') || undefined;
  const invalid = (name: string) => (errorField === name ? 'true' : undefined);
  if (!canWrite(viewer)) return <WriteNeeded viewer={viewer} action="Creating a report" />;
  return (
    <form method="post" action="/reports/new" class="card" novalidate>
      <CsrfField viewer={viewer} />
      <ErrorBox error={general} />
      <Field name="type" label="Type">
        <select id="rf-type" name="type" aria-invalid={invalid('type')} aria-describedby={described('type')}>
          {AVAILABLE_TYPES.map((type) => <option value={type} selected={form.type === type}>{typeLabel(type)}</option>)}
        </select>
      </Field>
      <div class="row">
        <Field name="from" label="From (first day)"><input id="rf-from" name="from" type="date" value={form.from} aria-invalid={invalid('from')} aria-describedby={described('from')} /></Field>
        <Field name="to" label="To (last day)"><input id="rf-to" name="to" type="date" value={form.to} aria-invalid={invalid('to')} aria-describedby={described('to')} /></Field>
        <Field name="timezone" label="Time zone of the days"><input id="rf-timezone" name="timezone" value={form.timezone} aria-invalid={invalid('timezone')} aria-describedby={described('timezone')} /></Field>
      </div>
      <Field name="format" label="Format">
        <select id="rf-format" name="format" aria-invalid={invalid('format')} aria-describedby={described('format')}>
          {REPORT_FORMATS.map((format) => <option value={format} selected={form.format === format}>{format.toUpperCase()}</option>)}
        </select>
      </Field>
      <fieldset>
        <legend>Filters (optional; which apply depends on the type)</legend>
        <div class="row">
          <Field name="campaign_id" label="Campaign id"><input id="rf-campaign_id" name="campaign_id" value={form.campaign_id} aria-invalid={invalid('campaign_id')} aria-describedby={described('campaign_id')} /></Field>
          <Field name="agent_id" label="Agent id"><input id="rf-agent_id" name="agent_id" value={form.agent_id} aria-invalid={invalid('agent_id')} aria-describedby={described('agent_id')} /></Field>
          <Field name="language" label="Language">
            <select id="rf-language" name="language" aria-invalid={invalid('language')} aria-describedby={described('language')}>
              <option value="">Any</option>
              {SUPPORTED_LANGUAGES.map((language) => <option value={language} selected={form.language === language}>{language}</option>)}
            </select>
          </Field>
          <Field name="scorecard_id" label="Scorecard id"><input id="rf-scorecard_id" name="scorecard_id" value={form.scorecard_id} aria-invalid={invalid('scorecard_id')} aria-describedby={described('scorecard_id')} /></Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>Schedule (optional)</legend>
        <div class="row">
          <Field name="cron" label="Cron (minute hour day month weekday)" hint="For example 0 8 * * 1: every Monday at 08:00, for the week before. At most one run a day.">
            <input id="rf-cron" name="cron" value={form.cron} aria-invalid={invalid('cron')} aria-describedby={described('cron', true)} />
          </Field>
          <Field name="schedule_timezone" label="Schedule time zone"><input id="rf-schedule_timezone" name="schedule_timezone" value={form.schedule_timezone} aria-invalid={invalid('schedule_timezone')} aria-describedby={described('schedule_timezone')} /></Field>
        </div>
      </fieldset>
      <fieldset>
        <legend>E-mail (optional)</legend>
        <div class="row">
          <Field name="email_to" label="To (addresses, comma-separated)"><input id="rf-email_to" name="email_to" value={form.email_to} aria-invalid={invalid('email_to')} aria-describedby={described('email_to')} /></Field>
          <Field name="email_subject" label="Subject"><input id="rf-email_subject" name="email_subject" value={form.email_subject} aria-invalid={invalid('email_subject')} aria-describedby={described('email_subject')} /></Field>
        </div>
      </fieldset>
      <button type="submit">Create report</button>
    </form>
  );
}

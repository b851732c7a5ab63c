import type { Child } from 'hono/jsx';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { addDays, localDateOf } from '../../../domain/shared/time-zone.ts';
import { findComplianceAudit } from '../../../projections/compliance-audits.ts';
import { auditDocument } from '../../routes/compliance.ts';
import { unwrap, type ApiResult } from '../api-client.ts';
import type { DashboardContext } from '../env.ts';
import { liveFragments } from '../live-stream.ts';
import { Badge, CsrfField, Empty, ErrorBox, inPlace, isAdmin, Layout, Pager, Time, ZoneNote, type Viewer } from '../view.tsx';
import type { ComplianceSettings } from './compliance-packs.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

type Severity = 'critical' | 'warning';
/** GET /v1/analytics/compliance without call_id. */
interface ComplianceAggregate {
  from: string;
  to: string;
  timezone: string;
  calls_evaluated: number;
  avg_compliance_score: number | null;
  pass_rate: number;
  violations_by_severity: Record<Severity, number>;
  violations_by_check: { check: string; severity: Severity; count: number; calls: number }[];
  blocked_attempts_by_rule: { rule_id: string; severity: Severity; count: number; final: number }[];
}
/** GET /v1/compliance/audits/{id}. */
export interface ComplianceAudit {
  id: string;
  status: 'running' | 'completed';
  basis: 'settings' | 'rule_pack_version';
  rule_packs: { id: string; version: string; parameters: Record<string, unknown> }[];
  from: string;
  to: string;
  campaign_id: string | null;
  progress: { processed: number; total: number };
  calls_newly_failing: number;
  newly_failing_call_ids: string[];
  calls_newly_passing: number;
  calls_changed: number;
  violations_by_check: { check: string; severity: Severity; added: number; removed: number }[];
  classifiers: string[];
  calls_judged_by_other_model: number;
  requested_at: string;
  completed_at: string | null;
}
interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }
type ApiError = Extract<ApiResult<unknown>, { ok: false }>['error'];

const DEFAULT_DAYS = 30;
const AUDITS_PER_PAGE = 10;
const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;
const label = (check: string) => check.replaceAll('_', ' ');

/** What the audit form submitted, kept to show a refused form as typed with the API's error at its field. */
interface AuditFormState {
  from: string;
  to: string;
  campaign_id: string;
  basis: string;
  packs: string[];
  pack_version: string;
  error?: { message: string; input?: AuditInput };
}
type AuditInput = 'from' | 'to' | 'campaign_id' | 'packs' | 'pack_version';

/** The form input an API error names (`packs[0].id` → the packs, `rule_pack_version.version` → the version). */
export function auditInputOfError(field: unknown): AuditInput | undefined {
  if (typeof field !== 'string') return undefined;
  if (field === 'from' || field === 'to' || field === 'campaign_id') return field;
  if (field === 'settings' || field.startsWith('packs') || field.startsWith('settings')) return 'packs';
  if (field.startsWith('rule_pack_version')) return 'pack_version';
  return undefined;
}

/**
 * The POST /v1/compliance/audits body from the form: dates are the viewer's local days (sent with their zone);
 * "these packs" sends the packs ticked, each with the parameters now in force when it is enabled (its defaults
 * otherwise); "a pack version" sends `rule_pack_version`. Every check is the API's.
 */
export function auditRequestOf(state: AuditFormState, settings: ComplianceSettings, zone: string): Record<string, unknown> {
  const body: Record<string, unknown> = { from: state.from, to: state.to, timezone: zone };
  if (state.campaign_id) body.campaign_id = state.campaign_id;
  if (state.basis === 'rule_pack_version') {
    const [id = '', version = ''] = state.pack_version.split('@');
    body.rule_pack_version = { id, version };
  } else {
    const current = new Map(settings.packs.map((pack) => [pack.id, pack.parameters]));
    body.settings = { packs: state.packs.map((id) => (current.has(id) ? { id, parameters: current.get(id) } : { id })) };
  }
  return body;
}

export function compliancePages(app: DashboardApp, { clock, readDb }: PageDeps) {
  app.get('/compliance', async (c) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const zone = viewer.timeZone;
    const today = localDateOf(clock.now(), zone);
    const query = {
      from: c.req.query('from') || addDays(today, -(DEFAULT_DAYS - 1)),
      to: c.req.query('to') || today,
      campaign_id: c.req.query('campaign_id') || undefined,
      language: c.req.query('language') || undefined,
    };
    const auditOffset = Number(c.req.query('offset') ?? 0) || 0;
    const [aggregate, campaigns, audits] = await Promise.all([
      api.get<ComplianceAggregate>('/analytics/compliance', { ...query, timezone: zone }),
      api.get<ListPage<{ id: string; name: string }>>('/campaigns', { limit: 100 }).then(unwrap),
      api.get<ListPage<ComplianceAudit>>('/compliance/audits', { limit: AUDITS_PER_PAGE, offset: auditOffset }).then(unwrap),
    ]);
    const totals = aggregate.ok ? aggregate.body : undefined;
    return c.html(
      <Layout title="Compliance" viewer={viewer} path="/compliance">
        <p class="muted small">
          What the rule packs found on the calls that started in the period (post-call checks) and the dial attempts they held back (pre-dial checks).
          The packs in force are under <a href="/settings">Settings</a>; a re-audit shows what other rules would change on past calls.
        </p>
        <form class="filters" method="get" action="/compliance" {...inPlace('/compliance')}>
          <div><label for="c-from">From (local date)</label><input id="c-from" name="from" type="date" value={query.from} /></div>
          <div><label for="c-to">To</label><input id="c-to" name="to" type="date" value={query.to} /></div>
          <div>
            <label for="c-campaign">Campaign</label>
            <select id="c-campaign" name="campaign_id">
              <option value="">All</option>
              {campaigns.data.map((campaign) => <option value={campaign.id} selected={query.campaign_id === campaign.id}>{campaign.name}</option>)}
            </select>
          </div>
          <div>
            <label for="c-language">Language</label>
            <select id="c-language" name="language">
              <option value="">All</option>
              {SUPPORTED_LANGUAGES.map((language) => <option value={language} selected={query.language === language}>{language}</option>)}
            </select>
          </div>
          <button type="submit" class="secondary">Show</button>
        </form>
        <ErrorBox error={aggregate.ok ? undefined : aggregate.error} />
        {totals ? <AggregateView totals={totals} /> : null}
        <h2 id="audits-h">Re-audits</h2>
        {isAdmin(viewer) ? <div class="actions"><a class="button" href="/compliance/audits/new">Start a re-audit</a></div> : null}
        {audits.total === 0 ? (
          <Empty>
            <p>No re-audit yet.</p>
            <p>{isAdmin(viewer) ? 'Start one to see what other rules, or a new version of a pack, would change on past calls; current results are never touched.' : 'An Admin key can start one.'}</p>
          </Empty>
        ) : (
          <>
            <AuditTable audits={audits.data} zone={zone} />
            <Pager path="/compliance" query={{ from: c.req.query('from'), to: c.req.query('to'), campaign_id: query.campaign_id, language: query.language }} total={audits.total} limit={audits.limit} offset={audits.offset} />
          </>
        )}
        <ZoneNote zone={zone} />
      </Layout>,
    );
  });

  app.get('/compliance/audits/new', async (c) => {
    const today = localDateOf(clock.now(), c.get('viewer').timeZone);
    return renderAuditForm(c, { from: addDays(today, -(DEFAULT_DAYS - 1)), to: today, campaign_id: '', basis: 'settings', packs: [], pack_version: '' }, true);
  });

  app.post('/compliance/audits/new', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
    const state: AuditFormState = {
      from: text('from'),
      to: text('to'),
      campaign_id: text('campaign_id'),
      basis: text('basis') === 'rule_pack_version' ? 'rule_pack_version' : 'settings',
      packs: ([] as unknown[]).concat(form.pack ?? []).filter((value): value is string => typeof value === 'string'),
      pack_version: text('pack_version'),
    };
    const settings = unwrap(await c.get('api').get<ComplianceSettings>('/compliance/settings'));
    const created = await c.get('api').send<ComplianceAudit>('POST', '/compliance/audits', auditRequestOf(state, settings, c.get('viewer').timeZone));
    if (!created.ok) return renderAuditForm(c, { ...state, error: { message: created.error.message, input: auditInputOfError(created.error.details.field) } }, false);
    c.get('session').flash = { kind: 'ok', text: `Re-audit started over ${created.body.progress.total} call${created.body.progress.total === 1 ? '' : 's'}.` };
    return c.redirect(`/compliance/audits/${created.body.id}`, 303);
  });

  app.get('/compliance/audits/:id', async (c) => {
    const viewer = c.get('viewer');
    const audit = unwrap(await c.get('api').get<ComplianceAudit>(`/compliance/audits/${encodeURIComponent(c.req.param('id'))}`));
    return c.html(
      <Layout title={`Re-audit ${audit.id}`} viewer={viewer} path="/compliance">
        <p><a href="/compliance">← Compliance</a></p>
        <section class="card" aria-labelledby="audit-progress-h">
          <h2 id="audit-progress-h">Progress</h2>
          <div id="audit-progress" aria-live="polite" data-live-progress={audit.status === 'running' ? `/compliance/audits/${audit.id}/progress` : undefined}>
            <AuditProgress audit={audit} />
          </div>
        </section>
        <div class="split">
          <section class="card" aria-labelledby="audit-scope-h">
            <h2 id="audit-scope-h">What was re-audited</h2>
            <dl class="facts">
              <dt>Calls started</dt><dd><Time at={audit.from} zone={viewer.timeZone} /> to <Time at={audit.to} zone={viewer.timeZone} withZone /></dd>
              <dt>Campaign</dt><dd>{audit.campaign_id ? <a href={`/campaigns/${audit.campaign_id}`}>{audit.campaign_id}</a> : 'all'}</dd>
              <dt>Rules</dt><dd>{audit.basis === 'settings' ? 'the packs chosen for this audit' : "the workspace's settings with one pack at a given version"}</dd>
              <dt>Requested</dt><dd><Time at={audit.requested_at} zone={viewer.timeZone} withZone /></dd>
              <dt>Completed</dt><dd><Time at={audit.completed_at} zone={viewer.timeZone} withZone /></dd>
            </dl>
          </section>
          <section class="card" aria-labelledby="audit-packs-h">
            <h2 id="audit-packs-h">Packs</h2>
            {audit.rule_packs.length === 0 ? <p class="muted">No pack: every check off.</p> : (
              <ul>
                {audit.rule_packs.map((pack) => (
                  <li>{pack.id} <span class="muted small">{pack.version}</span>{Object.keys(pack.parameters).length ? <span class="small muted"> · {Object.entries(pack.parameters).map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(', ')}</span> : null}</li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </Layout>,
    );
  });

  /** Live progress of a running audit, from the read model GET /v1/compliance/audits/{id} answers from. */
  app.get('/compliance/audits/:id/progress', (c) => {
    const { workspaceId } = c.get('principal');
    const id = c.req.param('id');
    if (!findComplianceAudit(readDb, workspaceId, id)) return c.notFound();
    return liveFragments(c, async () => {
      const row = findComplianceAudit(readDb, workspaceId, id);
      if (!row) return undefined;
      const audit = auditDocument(row);
      return { html: String(await (<AuditProgress audit={audit} />).toString()), end: audit.status === 'completed' ? audit.status : undefined };
    });
  });
}

function AggregateView({ totals }: { totals: ComplianceAggregate }) {
  return (
    <>
      <h2>
        {totals.from} to {totals.to} <span class="muted small">({totals.timezone})</span>
      </h2>
      <div class="cards" data-testid="compliance-totals">
        <Metric label="Calls evaluated" value={String(totals.calls_evaluated)} />
        <Metric label="Average score" value={totals.avg_compliance_score === null ? '—' : `${totals.avg_compliance_score} / 100`} />
        <Metric label="Passed (no critical)" value={totals.calls_evaluated ? percent(totals.pass_rate) : '—'} />
        <Metric label="Critical violations" value={String(totals.violations_by_severity.critical)} testId="by-severity-critical" />
        <Metric label="Warnings" value={String(totals.violations_by_severity.warning)} testId="by-severity-warning" />
      </div>
      <div class="split">
        <section class="card" aria-labelledby="by-check-h">
          <h3 id="by-check-h">Violations by rule (after the call)</h3>
          {totals.violations_by_check.length === 0 ? <p class="muted">{totals.calls_evaluated ? 'No violation in this period.' : 'No call was evaluated in this period.'}</p> : (
            <div class="table-wrap">
              <table class="responsive" data-testid="by-check">
                <thead><tr><th scope="col">Check</th><th scope="col">Severity</th><th scope="col">Violations</th><th scope="col">Calls</th></tr></thead>
                <tbody>
                  {totals.violations_by_check.map((row) => (
                    <tr><td data-label="Check">{label(row.check)}</td><td data-label="Severity"><Badge value={row.severity} /></td><td data-label="Violations">{row.count}</td><td data-label="Calls">{row.calls}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section class="card" aria-labelledby="blocked-h">
          <h3 id="blocked-h">Dial attempts held back (before the call)</h3>
          {totals.blocked_attempts_by_rule.length === 0 ? <p class="muted">No campaign attempt was held back in this period.</p> : (
            <div class="table-wrap">
              <table class="responsive" data-testid="blocked-by-rule">
                <thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">Attempts held</th><th scope="col">Contacts ended</th></tr></thead>
                <tbody>
                  {totals.blocked_attempts_by_rule.map((row) => (
                    <tr><td data-label="Rule">{row.rule_id}</td><td data-label="Severity"><Badge value={row.severity} /></td><td data-label="Attempts held">{row.count}</td><td data-label="Contacts ended">{row.final}</td></tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}

function AuditTable({ audits, zone }: { audits: ComplianceAudit[]; zone: string }) {
  return (
    <div class="table-wrap">
      <table class="responsive" data-testid="audits">
        <thead><tr><th scope="col">Audit</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Newly failing</th><th scope="col">Newly passing</th><th scope="col">Requested</th></tr></thead>
        <tbody>
          {audits.map((audit) => (
            <tr>
              <td data-label="Audit"><a href={`/compliance/audits/${audit.id}`}>{audit.rule_packs.map((pack) => pack.id).join(', ') || 'no packs'}</a></td>
              <td data-label="Status"><Badge value={audit.status} /></td>
              <td data-label="Progress">{audit.progress.processed} / {audit.progress.total}</td>
              <td data-label="Newly failing">{audit.calls_newly_failing}</td>
              <td data-label="Newly passing">{audit.calls_newly_passing}</td>
              <td data-label="Requested"><Time at={audit.requested_at} zone={zone} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AuditProgress({ audit }: { audit: ComplianceAudit }) {
  const { processed, total } = audit.progress;
  return (
    <div>
      <p>
        <Badge value={audit.status} /> <strong data-testid="audit-processed">{processed}</strong> of {total} calls re-evaluated
      </p>
      <progress class="wide" value={processed} max={Math.max(total, 1)} aria-label="Calls re-evaluated"></progress>
      <div class="cards">
        <Metric label="Would newly fail (critical)" value={String(audit.calls_newly_failing)} testId="newly-failing" />
        <Metric label="Would newly pass" value={String(audit.calls_newly_passing)} />
        <Metric label="Calls whose violations change" value={String(audit.calls_changed)} />
      </div>
      <p class="small muted" data-testid="audit-classifier">
        Judged with {audit.classifiers.length ? audit.classifiers.join(', ') : 'the rules alone'}
        {audit.calls_judged_by_other_model
          ? `; ${audit.calls_judged_by_other_model} of these calls were judged by another model (or the rules alone) at the time, so part of their change may come from the model rather than the rules.`
          : '.'}
      </p>
      {audit.violations_by_check.length ? (
        <table>
          <caption class="small muted">Violations each check would add or remove</caption>
          <thead><tr><th scope="col">Check</th><th scope="col">Severity</th><th scope="col">Added</th><th scope="col">Removed</th></tr></thead>
          <tbody>
            {audit.violations_by_check.map((row) => <tr><td>{label(row.check)}</td><td><Badge value={row.severity} /></td><td>{row.added}</td><td>{row.removed}</td></tr>)}
          </tbody>
        </table>
      ) : processed ? <p class="muted">No violation would change so far.</p> : null}
      {audit.newly_failing_call_ids.length ? (
        <>
          <h3 class="small muted">Calls that would newly fail{audit.calls_newly_failing > audit.newly_failing_call_ids.length ? ` (first ${audit.newly_failing_call_ids.length})` : ''}</h3>
          <ul class="row">
            {audit.newly_failing_call_ids.map((id) => <li>{id.startsWith('cal_') ? <a href={`/calls/${id}`}>{id}</a> : <span>{id} (transcription job)</span>}</li>)}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function Metric({ label: text, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div class="metric" data-testid={testId}>
      <div class="value">{value}</div>
      <div class="label">{text}</div>
    </div>
  );
}

/** A refused form answers 200 like every dashboard form (the page is what the browser should show; the API's status is in the message). */
async function renderAuditForm(c: DashboardContext, state: AuditFormState, fresh: boolean) {
  const viewer = c.get('viewer');
  const api = c.get('api');
  const [settings, campaigns] = await Promise.all([
    api.get<ComplianceSettings>('/compliance/settings').then(unwrap),
    api.get<ListPage<{ id: string; name: string }>>('/campaigns', { limit: 100 }).then(unwrap),
  ]);
  const ticked = new Set(fresh ? settings.packs.map((pack) => pack.id) : state.packs);
  const error = state.error;
  const at = (input: AuditInput) => (error?.input === input ? error.message : undefined);
  return c.html(
    <Layout title="Start a re-audit" viewer={viewer} path="/compliance">
      <p><a href="/compliance">← Compliance</a></p>
      {!isAdmin(viewer) ? (
        <>
          {error ? <p class="flash flash-error" role="alert">{error.message}</p> : null}
          <p>Only an Admin key can start a re-audit; you are signed in with a {viewer.scope} key.</p>
        </>
      ) : (
        <form method="post" action="/compliance/audits/new" class="card">
          <CsrfField viewer={viewer} />
          <p class="muted small">
            Every call with a compliance result that started in the period is evaluated again from its events under the rules chosen here, in the
            background. The current results are not changed: the audit reports what would.
          </p>
          {error && !error.input ? <p class="flash flash-error" role="alert">{error.message}</p> : null}
          <div class="row">
            <Field id="a-from" label={`Calls from (local date, ${viewer.timeZone})`} error={at('from')}>
              <input id="a-from" name="from" type="date" required value={state.from} aria-invalid={at('from') ? 'true' : undefined} aria-describedby={at('from') ? 'a-from-error' : undefined} />
            </Field>
            <Field id="a-to" label="to (inclusive)" error={at('to')}>
              <input id="a-to" name="to" type="date" required value={state.to} aria-invalid={at('to') ? 'true' : undefined} aria-describedby={at('to') ? 'a-to-error' : undefined} />
            </Field>
            <Field id="a-campaign" label="Campaign" error={at('campaign_id')}>
              <select id="a-campaign" name="campaign_id">
                <option value="">All calls</option>
                {campaigns.data.map((campaign) => <option value={campaign.id} selected={state.campaign_id === campaign.id}>{campaign.name}</option>)}
              </select>
            </Field>
          </div>
          <fieldset>
            <legend>Rules</legend>
            <div class="field">
              <label><input type="radio" name="basis" value="settings" checked={state.basis !== 'rule_pack_version'} /> These packs (enabled ones keep their parameters; others use their defaults)</label>
              <div class={at('packs') ? 'field invalid' : 'field'} id="a-packs">
                {settings.available_packs.map((pack) => (
                  <label class="small"><input type="checkbox" name="pack" value={pack.id} checked={ticked.has(pack.id)} /> {pack.id} <span class="muted">{pack.version} · {pack.title}</span><br /></label>
                ))}
                {at('packs') ? <p class="field-error" id="a-packs-error" role="alert">{at('packs')}</p> : null}
              </div>
            </div>
            <div class="field">
              <label><input type="radio" name="basis" value="rule_pack_version" checked={state.basis === 'rule_pack_version'} /> The current settings with one pack at a version</label>
              <Field id="a-version" label="Pack and version" error={at('pack_version')}>
                <select id="a-version" name="pack_version" aria-invalid={at('pack_version') ? 'true' : undefined} aria-describedby={at('pack_version') ? 'a-version-error' : undefined}>
                  {settings.available_packs.map((pack) => <option value={`${pack.id}@${pack.version}`} selected={state.pack_version === `${pack.id}@${pack.version}`}>{pack.id} {pack.version}</option>)}
                </select>
              </Field>
            </div>
          </fieldset>
          <button type="submit">Start re-audit</button>
        </form>
      )}
    </Layout>,
  );
}

function Field({ id, label: text, error, children }: { id: string; label: string; error?: string; children?: Child }) {
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>{text}</label>
      {children}
      {error ? <p class="field-error" id={`${id}-error`} role="alert">{error}</p> : null}
    </div>
  );
}

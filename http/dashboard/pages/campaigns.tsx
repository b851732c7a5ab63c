import { DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_INTERVAL_MINUTES } from '../../../domain/campaign/validation.ts';
import { CALL_PURPOSES } from '../../../domain/compliance/rule.ts';
import { DISPOSITIONS } from '../../../domain/shared/disposition.ts';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { findCampaign, type CampaignDocument } from '../../../projections/campaigns.ts';
import { unwrap } from '../api-client.ts';
import { redirectWithFlash } from '../respond.ts';
import { CampaignDrafts } from '../campaign-drafts.ts';
import { CsvImportError, guessMapping, mapContacts, mappingTargets, optionalTargets, parseContactsCsv, type ColumnMapping, type RowError } from '../contact-import.ts';
import type { DashboardContext } from '../env.ts';
import { liveFragments } from '../live-stream.ts';
import { inPlace, Badge, canWrite, CsrfField, Empty, ErrorBox, Layout, Pager, Time, WriteNeeded, ZoneNote, type Viewer } from '../view.tsx';
import { CallTable, type CallListItem } from './calls.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

type Campaign = CampaignDocument;
interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }
interface ScriptSummary { id: string; name: string; version: number; variables: string[] }
interface Scorecard { id: string; name: string }

const STATUSES = ['scheduled', 'running', 'paused', 'completed', 'stopped'] as const;
const FINAL = new Set(['completed', 'stopped']);
/** Which actions each status allows (the campaign aggregate refuses the others with 409 anyway). */
const ACTIONS: Record<string, ('start' | 'pause' | 'resume' | 'stop')[]> = {
  scheduled: ['start', 'stop'],
  running: ['pause', 'stop'],
  paused: ['resume', 'stop'],
};
const MAX_ERRORS_SHOWN = 200;

export function campaignPages(app: DashboardApp, { readDb }: PageDeps) {
  const drafts = new CampaignDrafts();

  app.get('/campaigns', async (c) => {
    const viewer = c.get('viewer');
    const query = { status: c.req.query('status'), from: c.req.query('from'), to: c.req.query('to') };
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const result = await c.get('api').get<ListPage<Campaign>>('/campaigns', { ...query, offset, limit: 20 });
    const page = result.ok ? result.body : undefined;
    return c.html(
      <Layout title="Campaigns" viewer={viewer} path="/campaigns">
        {canWrite(viewer) ? <div class="actions"><a class="button" href="/campaigns/new">New campaign from a CSV</a></div> : null}
        <form class="filters" method="get" action="/campaigns" {...inPlace('/campaigns')}>
          <div>
            <label for="f-status">Status</label>
            <select id="f-status" name="status">
              <option value="">Any</option>
              {STATUSES.map((status) => <option value={status} selected={query.status === status}>{status}</option>)}
            </select>
          </div>
          <div><label for="f-from">Created from (UTC date)</label><input id="f-from" name="from" type="date" value={query.from ?? ''} /></div>
          <div><label for="f-to">Created to</label><input id="f-to" name="to" type="date" value={query.to ?? ''} /></div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <ErrorBox error={result.ok ? undefined : result.error} />
        {page && page.total === 0 ? (
          <Empty>
            {query.status || query.from || query.to ? <p>No campaign matches these filters.</p> : <p>No campaigns yet.</p>}
            <p>{canWrite(viewer) ? <>Create one: <a href="/campaigns/new">upload a CSV of contacts</a> and pick a <a href="/scripts">script</a>.</> : 'A Read-Write key can create one.'}</p>
          </Empty>
        ) : page ? (
          <>
            <div class="table-wrap">
              <table class="responsive">
                <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Calls</th><th scope="col">Created</th></tr></thead>
                <tbody>
                  {page.data.map((campaign) => (
                    <tr>
                      <td data-label="Name"><a href={`/campaigns/${campaign.id}`}>{campaign.name}</a></td>
                      <td data-label="Status"><Badge value={campaign.status} /></td>
                      <td data-label="Progress"><ProgressBar campaign={campaign} /></td>
                      <td data-label="Calls">{campaign.calls_made} made, {campaign.calls_connected} connected</td>
                      <td data-label="Created"><Time at={campaign.created_at} zone={viewer.timeZone} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager path="/campaigns" query={query} total={page.total} limit={page.limit} offset={page.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        ) : null}
      </Layout>,
    );
  });

  app.get('/campaigns/new', async (c) => renderNewCampaign(c, {}));

  /** Step 1 → 2: the file and the settings; the next page maps the columns. */
  app.post('/campaigns/new', async (c) => {
    // A Read-Only session never gets a draft (a parsed file held for it): the notice, as on the first step.
    if (!canWrite(c.get('viewer'))) return renderNewCampaign(c, {});
    const form = await c.req.parseBody();
    const settings = pickSettings(form);
    const file = form.contacts;
    if (!(file instanceof File) || file.size === 0) return renderNewCampaign(c, { settings, error: 'Choose a CSV file of contacts.' });
    let csv;
    try {
      csv = await parseContactsCsv(await file.text());
    } catch (error) {
      if (error instanceof CsvImportError) return renderNewCampaign(c, { settings, error: error.message });
      throw error;
    }
    const script = await c.get('api').get<ScriptSummary>(`/scripts/${encodeURIComponent(settings.script_id ?? '')}`);
    if (!script.ok) return renderNewCampaign(c, { settings, error: 'Choose a script.' });
    const draftId = drafts.add({ keyId: c.get('principal').keyId, csv, fileName: file.name, settings });
    const targets = mappingTargets(script.body.variables);
    return renderMapping(c, drafts, draftId, targets, optionalTargets(script.body.variables), guessMapping(csv.header, targets), undefined);
  });

  /** Step 2 → 3: check every row with the chosen mapping; create when asked and nothing is wrong. */
  app.post('/campaigns/new/contacts', async (c) => {
    // A Read-Only session never gets a draft (a parsed file held for it): the notice, as on the first step.
    if (!canWrite(c.get('viewer'))) return renderNewCampaign(c, {});
    const form = await c.req.parseBody();
    const draftId = String(form.draft ?? '');
    const draft = drafts.get(draftId, c.get('principal').keyId);
    if (!draft) return redirectWithFlash(c, '/campaigns/new', 'error', 'That upload expired; choose the file again.');
    const script = unwrap(await c.get('api').get<ScriptSummary>(`/scripts/${encodeURIComponent(draft.settings.script_id ?? '')}`));
    const targets = mappingTargets(script.variables);
    const mapping: ColumnMapping = {};
    for (const target of targets) {
      const value = form[`map_${target}`];
      if (typeof value === 'string' && value !== '' && Number.isInteger(Number(value))) mapping[target] = Number(value);
    }
    const mapped = await mapContacts(draft.csv, mapping, targets, { purpose: draft.settings.purpose || 'service', optional: optionalTargets(script.variables) });
    if (mapped.errors.length > 0 || form.intent !== 'create') return renderMapping(c, drafts, draftId, targets, optionalTargets(script.variables), mapping, mapped.errors);
    const body = campaignBody(draft.settings, mapped.contacts, c.get('viewer').timeZone);
    const created = await c.get('api').send<Campaign>('POST', '/campaigns', body, `dash-${draftId}`);
    if (!created.ok) return renderMapping(c, drafts, draftId, targets, optionalTargets(script.variables), mapping, [], created.error);
    drafts.remove(draftId);
    return redirectWithFlash(c, `/campaigns/${created.body.id}`, 'ok', `Campaign "${created.body.name}" created with ${created.body.total_contacts} contacts.`);
  });

  app.get('/campaigns/:id', async (c) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const id = c.req.param('id');
    const campaign = unwrap(await api.get<Campaign>(`/campaigns/${encodeURIComponent(id)}`));
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const calls = unwrap(await api.get<ListPage<CallListItem>>('/calls', { campaign_id: id, limit: 20, offset }));
    const actions = ACTIONS[campaign.status] ?? [];
    const script = await api.get<{ name: string }>(`/scripts/${encodeURIComponent(campaign.script_id)}`);
    return c.html(
      <Layout title={`Campaign: ${campaign.name}`} viewer={viewer} path="/campaigns">
        {canWrite(viewer) && actions.length ? (
          <div class="actions">
            {actions.map((action) => (
              <form method="post" action={`/campaigns/${campaign.id}/action`} class="inline" data-confirm={action === 'stop' ? 'Stop this campaign for good? Calls in progress finish; nobody else is called.' : undefined}>
                <CsrfField viewer={viewer} />
                <input type="hidden" name="action" value={action} />
                <button type="submit" class={action === 'stop' ? 'danger' : action === 'pause' ? 'secondary' : undefined}>{ACTION_LABEL[action]}</button>
              </form>
            ))}
          </div>
        ) : null}
        <div class="split">
          <section class="card" aria-labelledby="progress-h">
            <h2 id="progress-h">Progress</h2>
            <div id="progress" aria-live="polite" data-live-progress={FINAL.has(campaign.status) ? undefined : `/campaigns/${campaign.id}/progress`}>
              <Progress campaign={campaign} />
            </div>
          </section>
          <section class="card" aria-labelledby="settings-h">
            <h2 id="settings-h">Settings</h2>
            <dl class="facts">
              <dt>Script</dt><dd data-testid="script"><a href={`/scripts/${campaign.script_id}`}>{script.ok ? script.body.name : campaign.script_id}</a> (version {campaign.script_version})</dd>
              <dt>Language</dt><dd>{campaign.language}</dd>
              <dt>Purpose</dt><dd data-testid="purpose">{PURPOSE_LABEL[campaign.purpose]}</dd>
              <dt>Attempts</dt><dd>up to {campaign.max_attempts}, {campaign.retry_interval_minutes} min apart</dd>
              <dt>Schedule</dt><dd>{campaign.schedule ? `${campaign.schedule.start_time}${campaign.schedule.end_time ? ` to ${campaign.schedule.end_time}` : ''} (${campaign.schedule.timezone ?? 'UTC'})` : 'started by hand'}</dd>
              <dt>Calling hours</dt><dd>{campaign.calling_hours ? `${campaign.calling_hours.start}–${campaign.calling_hours.end}` : 'any time'}</dd>
              <dt>Recording</dt><dd>{campaign.recording_enabled ? 'on' : 'off'}</dd>
              <dt>Created</dt><dd><Time at={campaign.created_at} zone={viewer.timeZone} withZone /></dd>
              <dt>Started</dt><dd><Time at={campaign.started_at} zone={viewer.timeZone} withZone /></dd>
              <dt>Ended</dt><dd><Time at={campaign.ended_at} zone={viewer.timeZone} withZone /></dd>
            </dl>
          </section>
        </div>
        <h2>Calls</h2>
        {calls.total === 0 ? <Empty><p>No calls yet. {campaign.status === 'scheduled' ? 'Start the campaign to begin dialing.' : 'Calls appear here as they are placed.'}</p></Empty> : (
          <>
            <CallTable calls={calls.data} zone={viewer.timeZone} />
            <Pager path={`/campaigns/${campaign.id}`} query={{}} total={calls.total} limit={calls.limit} offset={calls.offset} />
          </>
        )}
        {canWrite(viewer) && !FINAL.has(campaign.status) ? (
          <section class="card">
            <h2>Remove contacts</h2>
            <form method="post" action={`/campaigns/${campaign.id}/remove-contacts`}>
              <CsrfField viewer={viewer} />
              <label for="phones">Phone numbers to remove (E.164, one per line or separated by commas). Contacts not yet called are removed; those already called stay.</label>
              <textarea id="phones" name="phones" required></textarea>
              <button type="submit" class="secondary">Remove these contacts</button>
            </form>
          </section>
        ) : null}
      </Layout>,
    );
  });

  app.post('/campaigns/:id/action', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const action = String(form.action ?? '');
    const result = await c.get('api').send<Campaign>('PATCH', `/campaigns/${encodeURIComponent(id)}`, { action });
    if (!result.ok) return redirectWithFlash(c, `/campaigns/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, `/campaigns/${id}`, 'ok', `Campaign ${result.body.status}.`);
  });

  app.post('/campaigns/:id/remove-contacts', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const phones = String(form.phones ?? '').split(/[\s,;]+/).filter(Boolean);
    if (phones.length === 0) return redirectWithFlash(c, `/campaigns/${id}`, 'error', 'Paste at least one phone number.');
    const result = await c.get('api').send<{ removed: number; not_found: number; already_called: number }>('DELETE', `/campaigns/${encodeURIComponent(id)}/contacts`, { phones });
    if (!result.ok) return redirectWithFlash(c, `/campaigns/${id}`, 'error', result.error.message);
    const { removed, not_found: notFound, already_called: called } = result.body;
    return redirectWithFlash(c, `/campaigns/${id}`, 'ok', `Removed ${removed}; ${called} already called (kept); ${notFound} not in the campaign.`);
  });

  /** Live progress: the progress fragment whenever the campaign's read model row changes. */
  app.get('/campaigns/:id/progress', (c) => {
    const { workspaceId } = c.get('principal');
    const id = c.req.param('id');
    if (!findCampaign(readDb, workspaceId, id)) return c.notFound();
    return liveFragments(c, async () => {
      const campaign = findCampaign(readDb, workspaceId, id);
      if (!campaign) return undefined;
      return { html: String(await (<Progress campaign={campaign} />).toString()), end: FINAL.has(campaign.status) ? campaign.status : undefined };
    });
  });
}

const TARGET_LABEL: Record<string, string> = {
  phone: 'phone (E.164)',
  name: 'name',
  timezone: "the contact's time zone (optional; IANA, e.g. Asia/Kolkata; the calling windows use it)",
  consent_given_at: 'when the contact consented (optional; ISO 8601 with offset, e.g. 2026-01-15T10:00:00+05:30; a consent for this campaign\'s purpose, which a promotional campaign needs)',
};

const PURPOSE_LABEL: Record<(typeof CALL_PURPOSES)[number], string> = { service: 'Service', promotional: 'Promotional', recovery: 'Recovery (collections)' };

const ACTION_LABEL = { start: 'Start now', pause: 'Pause', resume: 'Resume', stop: 'Stop' } as const;

const finishedContacts = (campaign: Campaign) => DISPOSITIONS.reduce((sum, disposition) => sum + (campaign.disposition_summary[disposition] ?? 0), 0);

function ProgressBar({ campaign }: { campaign: Campaign }) {
  const done = finishedContacts(campaign);
  return (
    <span>
      <progress value={done} max={Math.max(campaign.total_contacts, 1)} aria-label={`${campaign.name}: ${done} of ${campaign.total_contacts} contacts done`}></progress>{' '}
      <span class="small">{done} / {campaign.total_contacts}</span>
    </span>
  );
}

function Progress({ campaign }: { campaign: Campaign }) {
  const done = finishedContacts(campaign);
  return (
    <div data-status={campaign.status}>
      <p>
        <Badge value={campaign.status} /> <strong data-testid="done">{done}</strong> of {campaign.total_contacts} contacts done ·{' '}
        <span data-testid="calls-made">{campaign.calls_made}</span> calls made · {campaign.calls_connected} connected
      </p>
      <progress class="wide" value={done} max={Math.max(campaign.total_contacts, 1)} aria-label="Contacts done"></progress>
      <table>
        <caption class="small muted">Disposition of each contact, counted once</caption>
        <tbody>
          {DISPOSITIONS.map((disposition) => (
            <tr><th scope="row">{disposition.replaceAll('_', ' ')}</th><td>{campaign.disposition_summary[disposition] ?? 0}</td></tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const SETTING_FIELDS = ['name', 'script_id', 'language', 'purpose', 'max_attempts', 'retry_interval_minutes', 'qa_scorecard_id', 'recording_enabled', 'start_time', 'end_time', 'hours_start', 'hours_end'];

function pickSettings(form: Record<string, unknown>): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const field of SETTING_FIELDS) if (typeof form[field] === 'string') settings[field] = (form[field] as string).trim();
  return settings;
}

/** The API body from the form's settings: blank fields are left out (the API's defaults apply). */
function campaignBody(settings: Record<string, string>, contacts: Record<string, unknown>[], zone: string) {
  const number = (value: string | undefined) => (value ? Number(value) : undefined);
  return {
    name: settings.name ?? '',
    script_id: settings.script_id ?? '',
    language: settings.language ?? '',
    purpose: settings.purpose || undefined,
    contacts,
    max_attempts: number(settings.max_attempts),
    retry_interval_minutes: number(settings.retry_interval_minutes),
    qa_scorecard_id: settings.qa_scorecard_id || undefined,
    recording_enabled: settings.recording_enabled !== 'off',
    schedule: settings.start_time ? { start_time: settings.start_time, ...(settings.end_time ? { end_time: settings.end_time } : {}), timezone: zone } : undefined,
    calling_hours: settings.hours_start && settings.hours_end ? { start: settings.hours_start, end: settings.hours_end } : undefined,
  };
}

async function renderNewCampaign(c: DashboardContext, { settings = {}, error }: { settings?: Record<string, string>; error?: string }) {
  const viewer = c.get('viewer');
  if (!canWrite(viewer)) {
    return c.html(
      <Layout title="New campaign" viewer={viewer} path="/campaigns">
        <WriteNeeded viewer={viewer} action="Creating a campaign" />
      </Layout>,
    );
  }
  const api = c.get('api');
  const [scripts, scorecards] = await Promise.all([
    api.get<ListPage<ScriptSummary>>('/scripts', { limit: 100 }).then(unwrap),
    api.get<ListPage<Scorecard>>('/qa/scorecards', { limit: 100 }).then(unwrap),
  ]);
  return c.html(
    <Layout title="New campaign" viewer={viewer} path="/campaigns">
      <p class="muted">Step 1 of 3: settings and the contacts file. Next you map the file's columns, then every row is checked before anything is created.</p>
      {error ? <p class="flash flash-error" role="alert">{error}</p> : null}
      {scripts.total === 0 ? (
        <Empty><p>A campaign needs a script. <a href="/scripts/new">Write a script</a> first.</p></Empty>
      ) : (
        <form method="post" action="/campaigns/new" enctype="multipart/form-data" class="card">
          <CsrfField viewer={viewer} />
          <div class="field"><label for="name">Name</label><input id="name" name="name" required maxlength={255} class="wide" value={settings.name ?? ''} /></div>
          <div class="field">
            <label for="script_id">Script</label>
            <select id="script_id" name="script_id" required>
              {scripts.data.map((script) => <option value={script.id} selected={settings.script_id === script.id}>{script.name} (v{script.version}{script.variables.length ? `; uses ${script.variables.join(', ')}` : ''})</option>)}
            </select>
          </div>
          <div class="field">
            <label for="language">Language</label>
            <select id="language" name="language">
              {SUPPORTED_LANGUAGES.map((language) => <option value={language} selected={(settings.language ?? 'hi-IN') === language}>{language}</option>)}
            </select>
          </div>
          <div class="field">
            <label for="purpose">Purpose (decides which compliance rules apply: calling windows, consent, caller ID series)</label>
            <select id="purpose" name="purpose" aria-describedby="purpose-help">
              {CALL_PURPOSES.map((purpose) => <option value={purpose} selected={(settings.purpose ?? 'service') === purpose}>{PURPOSE_LABEL[purpose]}</option>)}
            </select>
            <p class="small muted" id="purpose-help">Recovery calls follow the RBI recovery rules (08:00–19:00 local, attempt caps); promotional calls need each contact's consent (a column with the date it was given, mapped in the next step: a contact without one is not called) and are never placed to a number on the do-not-call list.</p>
          </div>
          <div class="field">
            <label for="contacts">Contacts (CSV with a header line, up to 100,000 rows; e.g. phone,name,amount)</label>
            <input id="contacts" name="contacts" type="file" accept=".csv,text/csv" required />
          </div>
          <details>
            <summary>Attempts, schedule, calling hours, QA</summary>
            <div class="field"><label for="max_attempts">Attempts per contact (1–5; default {DEFAULT_MAX_ATTEMPTS})</label><input id="max_attempts" name="max_attempts" type="number" min={1} max={5} value={settings.max_attempts ?? ''} /></div>
            <div class="field"><label for="retry_interval_minutes">Minutes between attempts (default {DEFAULT_RETRY_INTERVAL_MINUTES})</label><input id="retry_interval_minutes" name="retry_interval_minutes" type="number" min={1} value={settings.retry_interval_minutes ?? ''} /></div>
            <div class="field"><label for="start_time">Start at (in {viewer.timeZone}; leave blank to start by hand)</label><input id="start_time" name="start_time" type="datetime-local" value={settings.start_time ?? ''} /></div>
            <div class="field"><label for="end_time">Stop dialing at (optional)</label><input id="end_time" name="end_time" type="datetime-local" value={settings.end_time ?? ''} /></div>
            <div class="field"><label for="hours_start">Calling hours from (HH:MM, optional)</label><input id="hours_start" name="hours_start" type="time" value={settings.hours_start ?? ''} /></div>
            <div class="field"><label for="hours_end">Calling hours to</label><input id="hours_end" name="hours_end" type="time" value={settings.hours_end ?? ''} /></div>
            <div class="field">
              <label for="qa_scorecard_id">QA scorecard</label>
              <select id="qa_scorecard_id" name="qa_scorecard_id">
                <option value="">Workspace default</option>
                {scorecards.data.map((card) => <option value={card.id} selected={settings.qa_scorecard_id === card.id}>{card.name}</option>)}
              </select>
            </div>
            <div class="field">
              <label for="recording_enabled">Recording</label>
              <select id="recording_enabled" name="recording_enabled"><option value="on">Record answered calls</option><option value="off" selected={settings.recording_enabled === 'off'}>Do not record</option></select>
            </div>
          </details>
          <p><button type="submit">Next: map columns</button></p>
        </form>
      )}
    </Layout>,
  );
}

function renderMapping(c: DashboardContext, drafts: CampaignDrafts, draftId: string, targets: string[], optional: readonly string[], mapping: ColumnMapping, errors: RowError[] | undefined, apiError?: { code: string; message: string; details: Record<string, unknown> }) {
  const viewer = c.get('viewer');
  const draft = drafts.get(draftId, c.get('principal').keyId);
  if (!draft) return redirectWithFlash(c, '/campaigns/new', 'error', 'That upload expired; choose the file again.');
  const { csv } = draft;
  const checked = errors !== undefined && errors.length === 0 && !apiError;
  return c.html(
    <Layout title={`New campaign: ${draft.settings.name ?? ''}`} viewer={viewer} path="/campaigns">
      <p class="muted">Step {checked ? 3 : 2} of 3: {checked ? 'every row is valid; create the campaign.' : `map the columns of ${draft.fileName} (${csv.rows.length} rows).`}</p>
      <ErrorBox error={apiError} />
      {errors && errors.length > 0 ? (
        <div class="card" role="alert">
          <h2>{errors.length} problem{errors.length === 1 ? '' : 's'} to fix before creating</h2>
          <ul class="errors">
            {errors.slice(0, MAX_ERRORS_SHOWN).map((error) => <li>{error.line === 1 ? 'Columns' : `Line ${error.line}`}: {error.message}</li>)}
          </ul>
          {errors.length > MAX_ERRORS_SHOWN ? <p>…and {errors.length - MAX_ERRORS_SHOWN} more.</p> : null}
          <p class="small">Fix the mapping below, or correct the file and <a href="/campaigns/new">upload it again</a>.</p>
        </div>
      ) : null}
      <form method="post" action="/campaigns/new/contacts" class="card">
        <CsrfField viewer={viewer} />
        <input type="hidden" name="draft" value={draftId} />
        {targets.map((target) => (
          <div class="field">
            <label for={`map_${target}`}>Column for {target === 'phone' || target === 'name' || optional.includes(target) ? TARGET_LABEL[target] : `{${target}} (used by the script)`}</label>
            <select id={`map_${target}`} name={`map_${target}`}>
              <option value="">{optional.includes(target) ? 'Not in the file' : 'Choose a column'}</option>
              {csv.header.map((column, index) => <option value={String(index)} selected={mapping[target] === index}>{column}</option>)}
            </select>
          </div>
        ))}
        <h3 class="small muted">First rows of the file</h3>
        <div class="table-wrap">
          <table>
            <thead><tr>{csv.header.map((column) => <th scope="col">{column}</th>)}</tr></thead>
            <tbody>{csv.rows.slice(0, 5).map((row) => <tr>{csv.header.map((_, index) => <td>{row[index] ?? ''}</td>)}</tr>)}</tbody>
          </table>
        </div>
        <div class="actions">
          <button type="submit" name="intent" value="check" class={checked ? 'secondary' : undefined}>Check all rows</button>
          {checked ? <button type="submit" name="intent" value="create">Create campaign with {csv.rows.length} contacts</button> : null}
        </div>
      </form>
    </Layout>,
  );
}


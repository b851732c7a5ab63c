import { AGENT_STATUSES } from '../../../domain/agent.ts';
import { SUPPORTED_LANGUAGES } from '../../../domain/shared/language.ts';
import { renderTemplate } from '../../../domain/script-template.ts';
import { addDays, localDateOf } from '../../../domain/shared/time-zone.ts';
import { unwrap, type ApiResult } from '../api-client.ts';
import { redirectWithFlash } from '../respond.ts';
import type { DashboardContext } from '../env.ts';
import { Badge, canWrite, CsrfField, Empty, ErrorBox, Layout, Pager, ticked, Time, typed, WriteNeeded, ZoneNote, type Viewer } from '../view.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';
import { applyEdit, draftsFromForm, draftsFromSteps, stepsFromDrafts, type StepDraft } from '../script-form.ts';
import { StepsEditor } from './script-editor.tsx';
import { applyParameterEdit, draftsFromForm as scorecardDraftsFromForm, draftsFromParameters, parametersFromDrafts, type ParameterDraft } from '../scorecard-form.ts';
import { ParametersEditor } from './scorecard-editor.tsx';

interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }
type ApiError = Extract<ApiResult<unknown>, { ok: false }>['error'];
interface Step { id: string; say: string; next?: string; end?: boolean; disposition?: string; listen?: unknown }
interface Script { id: string; name: string; version: number; single_call_enabled: boolean; steps: Step[]; variables: string[]; created_at: string; updated_at: string }
interface Scorecard { id: string; name: string; description?: string; pass_threshold: number; parameters: Record<string, unknown>[]; version: number; created_at?: string }
interface Agent { id: string; name: string; languages: string[]; phone: string | null; sip_uri: string | null; status: string; last_assigned_at: string | null }
interface AgentStats { total_calls: number; connected_calls: number; avg_duration_seconds: number | null; avg_qa_score: number | null }
interface Suppression { phone: string; source: string; reason: string | null; call_id: string | null; suppressed_at: string }

const offsetOf = (c: DashboardContext) => Number(c.req.query('offset') ?? 0) || 0;

const EXAMPLE_STEPS = JSON.stringify(
  [
    { id: 'greet', say: 'Namaste {name}, this is Sahay Finance about your loan of {amount} rupees. Would you like to renew it?', listen: { timeout_seconds: 6, routes: [{ intent: 'affirm', disposition: 'interested', next: 'thanks' }, { intent: 'deny', disposition: 'not_interested', next: 'bye' }], no_input: { retries: 1, disposition: 'callback', next: 'bye' } } },
    { id: 'thanks', say: 'Thank you, our team will call you back today.', end: true },
    { id: 'bye', say: 'Thank you for your time. Goodbye.', end: true },
  ],
  null,
  2,
);

/** "steps[2].listen.routes[0].next" → "Step 3 (offer): listen.routes[0].next". */
function stepOfField(field: unknown, steps: unknown): string | undefined {
  const match = typeof field === 'string' ? /^steps\[(\d+)\]\.?(.*)$/.exec(field) : null;
  if (!match) return undefined;
  const index = Number(match[1]);
  const id = Array.isArray(steps) && typeof steps[index]?.id === 'string' ? ` (${steps[index].id})` : '';
  return `Step ${index + 1}${id}${match[2] ? `: ${match[2]}` : ''}`;
}

function FieldError({ error, steps }: { error: ApiError | undefined; steps?: unknown }) {
  if (!error) return null;
  const where = stepOfField(error.details.field, steps) ?? (typeof error.details.field === 'string' ? error.details.field : undefined);
  return (
    <div class="flash flash-error" role="alert">
      {where ? <strong>{where}: </strong> : null}
      {error.message}
      {error.details.expected ? <div class="small">Expected {String(error.details.expected)}.</div> : null}
    </div>
  );
}

function DeleteButton({ viewer, action, label, confirm }: { viewer: Viewer; action: string; label: string; confirm: string }) {
  if (!canWrite(viewer)) return null;
  return (
    <form method="post" action={action} class="inline" data-confirm={confirm}>
      <CsrfField viewer={viewer} />
      <button type="submit" class="danger">{label}</button>
    </form>
  );
}

function parseJson(text: unknown): { value?: unknown; error?: ApiError } {
  try {
    return { value: JSON.parse(String(text ?? '')) };
  } catch (error) {
    return { error: { code: 'invalid_parameter', message: `Not valid JSON: ${(error as Error).message}`, details: {} } };
  }
}

export function catalogPages(app: DashboardApp, { clock }: PageDeps) {
  // ---------------------------------------------------------------- Scripts
  app.get('/scripts', async (c) => {
    const viewer = c.get('viewer');
    const page = unwrap(await c.get('api').get<ListPage<Script>>('/scripts', { offset: offsetOf(c), limit: 20 }));
    return c.html(
      <Layout title="Scripts" viewer={viewer} path="/scripts">
        {canWrite(viewer) ? <div class="actions"><a class="button" href="/scripts/new">New script</a></div> : null}
        {page.total === 0 ? (
          <Empty><p>No scripts yet. A script is what the voice agent says and how it reacts; every campaign uses one.</p>{canWrite(viewer) ? <p><a href="/scripts/new">Write the first script</a> (an example is filled in).</p> : null}</Empty>
        ) : (
          <>
            <table class="responsive">
              <thead><tr><th scope="col">Name</th><th scope="col">Version</th><th scope="col">Variables</th><th scope="col">Single calls</th><th scope="col">Updated</th></tr></thead>
              <tbody>
                {page.data.map((script) => (
                  <tr>
                    <td data-label="Name"><a href={`/scripts/${script.id}`}>{script.name}</a></td>
                    <td data-label="Version">{script.version}</td>
                    <td data-label="Variables">{script.variables.join(', ') || '—'}</td>
                    <td data-label="Single calls">{script.single_call_enabled ? 'yes' : 'no'}</td>
                    <td data-label="Updated"><Time at={script.updated_at} zone={viewer.timeZone} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager path="/scripts" query={{}} total={page.total} limit={page.limit} offset={page.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        )}
      </Layout>,
    );
  });

  type ScriptValues = { id?: string; name: string; single: boolean; view: 'steps' | 'json'; drafts: StepDraft[]; json: string };
  const scriptForm = (c: DashboardContext, values: ScriptValues, error?: ApiError) => {
    const viewer = c.get('viewer');
    if (!canWrite(viewer)) return writeNeededPage(c, values.id ? `Edit script: ${values.name}` : 'New script', '/scripts', values.id ? 'Editing a script' : 'Writing a script');
    const action = values.id ? `/scripts/${values.id}` : '/scripts/new';
    const editPath = values.id ? `/scripts/${values.id}/edit` : '/scripts/new';
    return c.html(
      <Layout title={values.id ? `Edit script: ${values.name}` : 'New script'} viewer={viewer} path="/scripts">
        <p class="small">
          {values.view === 'json' ? <a href={editPath}>Edit step by step</a> : <a href={`${editPath}?view=json`}>Edit as JSON</a>}
          <span class="muted"> (switching view starts again from the {values.id ? 'saved script' : 'example'})</span>
        </p>
        <form method="post" action={action} class="card">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="view" value={values.view} />
          <div class="field"><label for="s-name">Name</label><input id="s-name" name="name" required maxlength={255} class="wide" value={values.name} /></div>
          <div class="field"><label><input type="checkbox" name="single_call_enabled" value="true" checked={values.single} /> Usable for single calls (POST /v1/calls)</label></div>
          {values.view === 'json' ? (
            <>
              <FieldError error={error} steps={parseJson(values.json).value} />
              <div class="field">
                <label for="s-steps">Steps (JSON). The call starts at the first step; write {'{name}'} or {'{amount}'} to use a contact's columns.</label>
                <textarea id="s-steps" name="steps" rows={18} spellcheck={false}>{values.json}</textarea>
              </div>
            </>
          ) : (
            <StepsEditor drafts={values.drafts} action={action} error={error} />
          )}
          <button type="submit">{values.id ? 'Save as a new version' : 'Create script'}</button>
        </form>
      </Layout>,
    );
  };

  /** The submitted form: a JSON view's text, or the step editor's fields (with an editing `op` when a step button was pressed). */
  const scriptSubmission = (form: Record<string, unknown>, id?: string) => {
    const name = String(form.name ?? '');
    const single = form.single_call_enabled === 'true';
    if (form.view === 'json') {
      const json = String(form.steps ?? '');
      const parsed = parseJson(json);
      return { values: { id, name, single, view: 'json' as const, drafts: [], json }, steps: parsed.value, parseError: parsed.error, op: undefined };
    }
    const drafts = draftsFromForm(form);
    const op = typeof form.op === 'string' && form.op ? form.op : undefined;
    return { values: { id, name, single, view: 'steps' as const, drafts: op ? applyEdit(drafts, op) : drafts, json: '' }, steps: stepsFromDrafts(drafts), parseError: undefined, op };
  };
  const initialValues = (view: string | undefined, script: { id?: string; name: string; single_call_enabled: boolean; steps: unknown }): ScriptValues => ({
    id: script.id,
    name: script.name,
    single: script.single_call_enabled,
    view: view === 'json' ? 'json' : 'steps',
    drafts: draftsFromSteps(script.steps),
    json: JSON.stringify(script.steps, null, 2),
  });

  app.get('/scripts/new', (c) => scriptForm(c, initialValues(c.req.query('view'), { name: '', single_call_enabled: false, steps: JSON.parse(EXAMPLE_STEPS) })));
  app.post('/scripts/new', async (c) => {
    const { values, steps, parseError, op } = scriptSubmission(await c.req.parseBody());
    if (op) return scriptForm(c, values);
    if (parseError) return scriptForm(c, values, parseError);
    const result = await c.get('api').send<Script>('POST', '/scripts', { name: values.name, single_call_enabled: values.single, steps });
    if (!result.ok) return scriptForm(c, values, result.error);
    return redirectWithFlash(c, `/scripts/${result.body.id}`, 'ok', 'Script created.');
  });

  app.get('/scripts/:id', async (c) => {
    const viewer = c.get('viewer');
    const id = encodeURIComponent(c.req.param('id'));
    const version = c.req.query('version');
    const script = unwrap(await c.get('api').get<Script>(`/scripts/${id}`, { version }));
    const latest = version ? unwrap(await c.get('api').get<Script>(`/scripts/${id}`)).version : script.version;
    // The preview fills the placeholders for a sample contact with the domain's own template code.
    const sample: Record<string, string> = Object.fromEntries(script.variables.map((variable) => [variable, c.req.query(`v_${variable}`) || (variable === 'name' ? 'Asha' : `<${variable}>`)]));
    return c.html(
      <Layout title={`Script: ${script.name}`} viewer={viewer} path="/scripts">
        <p class="muted">Version {script.version} of {latest}. {Array.from({ length: latest }, (_, index) => index + 1).map((n) => (n === script.version ? <strong>v{n} </strong> : <a href={`/scripts/${script.id}?version=${n}`}>v{n} </a>))}</p>
        <div class="actions">
          {canWrite(viewer) ? <a class="button" href={`/scripts/${script.id}/edit`}>Edit</a> : null}
          <DeleteButton viewer={viewer} action={`/scripts/${script.id}/delete`} label="Delete" confirm="Delete this script? Campaigns already using it keep their version." />
        </div>
        <form method="get" action={`/scripts/${script.id}`} class="filters">
          {version ? <input type="hidden" name="version" value={version} /> : null}
          {script.variables.map((variable) => <div><label for={`v_${variable}`}>{variable}</label><input id={`v_${variable}`} name={`v_${variable}`} value={sample[variable]} /></div>)}
          {script.variables.length ? <button type="submit" class="secondary">Preview for this contact</button> : null}
        </form>
        <ol class="card">
          {script.steps.map((step) => (
            <li>
              <strong>{step.id}</strong> {step.disposition ? <Badge value={step.disposition} /> : null}
              <pre class="script">{renderTemplate(step.say, sample)}</pre>
              <span class="small muted">{step.end ? 'Ends the call.' : step.next ? `Then ${step.next}.` : step.listen ? 'Listens for the reply.' : ''}</span>
            </li>
          ))}
        </ol>
      </Layout>,
    );
  });

  app.get('/scripts/:id/edit', async (c) => {
    const script = unwrap(await c.get('api').get<Script>(`/scripts/${encodeURIComponent(c.req.param('id'))}`));
    return scriptForm(c, initialValues(c.req.query('view'), script));
  });
  app.post('/scripts/:id', async (c) => {
    const id = c.req.param('id');
    const { values, steps, parseError, op } = scriptSubmission(await c.req.parseBody(), id);
    if (op) return scriptForm(c, values);
    if (parseError) return scriptForm(c, values, parseError);
    const result = await c.get('api').send<Script>('PUT', `/scripts/${encodeURIComponent(id)}`, { name: values.name, single_call_enabled: values.single, steps });
    if (!result.ok) return scriptForm(c, values, result.error);
    return redirectWithFlash(c, `/scripts/${id}`, 'ok', `Saved as version ${result.body.version}.`);
  });
  app.post('/scripts/:id/delete', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send('DELETE', `/scripts/${encodeURIComponent(id)}`);
    if (!result.ok) return redirectWithFlash(c, `/scripts/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, '/scripts', 'ok', 'Script deleted.');
  });

  // ---------------------------------------------------------------- Scorecards
  app.get('/scorecards', async (c) => {
    const viewer = c.get('viewer');
    const page = unwrap(await c.get('api').get<ListPage<Scorecard>>('/qa/scorecards', { offset: offsetOf(c), limit: 20 }));
    return c.html(
      <Layout title="QA scorecards" viewer={viewer} path="/scorecards">
        {canWrite(viewer) ? <div class="actions"><a class="button" href="/scorecards/new">New scorecard</a></div> : null}
        {page.total === 0 ? (
          <Empty><p>No scorecards. A scorecard scores every connected call's transcript (greeting said, no threats, …); create one, then pick it for a campaign or as the workspace default.</p></Empty>
        ) : (
          <>
            <table class="responsive">
              <thead><tr><th scope="col">Name</th><th scope="col">Pass mark</th><th scope="col">Parameters</th><th scope="col">Version</th></tr></thead>
              <tbody>{page.data.map((card) => <tr><td data-label="Name"><a href={`/scorecards/${card.id}`}>{card.name}</a></td><td data-label="Pass mark">{card.pass_threshold}</td><td data-label="Parameters">{card.parameters.length}</td><td data-label="Version">{card.version}</td></tr>)}</tbody>
            </table>
            <Pager path="/scorecards" query={{}} total={page.total} limit={page.limit} offset={page.offset} />
          </>
        )}
      </Layout>,
    );
  });

  const EXAMPLE_PARAMETERS = JSON.stringify([{ name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['hello', 'good morning'], hi: ['नमस्ते'] }, within_seconds: 15 } }, { name: 'no_threats', max_score: 30, check: { type: 'agent_avoids', phrases: { en: ['legal action', 'police'] } } }], null, 2);
  type ScorecardValues = { id?: string; name: string; description: string; threshold: string; view: 'steps' | 'json'; drafts: ParameterDraft[]; parameters: string };
  const scorecardForm = (c: DashboardContext, values: ScorecardValues, error?: ApiError) => {
    const viewer = c.get('viewer');
    if (!canWrite(viewer)) return writeNeededPage(c, values.id ? `Edit scorecard: ${values.name}` : 'New scorecard', '/scorecards', values.id ? 'Editing a scorecard' : 'Creating a scorecard');
    const action = values.id ? `/scorecards/${values.id}` : '/scorecards/new';
    const editPath = values.id ? `/scorecards/${values.id}/edit` : '/scorecards/new';
    return c.html(
      <Layout title={values.id ? `Edit scorecard: ${values.name}` : 'New scorecard'} viewer={viewer} path="/scorecards">
        <p class="small">
          {values.view === 'json' ? <a href={editPath}>Edit parameter by parameter</a> : <a href={`${editPath}?view=json`}>Edit as JSON</a>}
          <span class="muted"> (switching view starts again from the {values.id ? 'saved scorecard' : 'example'})</span>
        </p>
        <form method="post" action={action} class="card">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="view" value={values.view} />
          {values.view === 'json' ? <FieldError error={error} /> : null}
          <div class="field"><label for="q-name">Name</label><input id="q-name" name="name" required class="wide" value={values.name} /></div>
          <div class="field"><label for="q-desc">Description (optional)</label><input id="q-desc" name="description" class="wide" value={values.description} /></div>
          <div class="field"><label for="q-threshold">Pass mark (0–100)</label><input id="q-threshold" name="pass_threshold" type="number" min={0} max={100} step="any" required value={values.threshold} /></div>
          {values.view === 'json' ? (
            <div class="field"><label for="q-params">Parameters (JSON; check types: agent_says, agent_avoids, customer_says, talk_ratio, max_silence — see docs/analysis.md)</label><textarea id="q-params" name="parameters" rows={14} spellcheck={false}>{values.parameters}</textarea></div>
          ) : (
            <ParametersEditor drafts={values.drafts} action={action} error={error} />
          )}
          <button type="submit">{values.id ? 'Save as a new version' : 'Create scorecard'}</button>
        </form>
      </Layout>,
    );
  };
  const scorecardSubmit = async (c: DashboardContext, id?: string) => {
    const form = await c.req.parseBody();
    const common = { id, name: String(form.name ?? ''), description: String(form.description ?? ''), threshold: String(form.pass_threshold ?? '') };
    let values: ScorecardValues;
    let parameters: unknown;
    if (form.view === 'json') {
      values = { ...common, view: 'json', drafts: [], parameters: String(form.parameters ?? '') };
      const parsed = parseJson(values.parameters);
      if (parsed.error) return scorecardForm(c, values, parsed.error);
      parameters = parsed.value;
    } else {
      const drafts = scorecardDraftsFromForm(form);
      if (typeof form.op === 'string' && form.op) return scorecardForm(c, { ...common, view: 'steps', drafts: applyParameterEdit(drafts, form.op), parameters: '' });
      values = { ...common, view: 'steps', drafts, parameters: '' };
      parameters = parametersFromDrafts(drafts);
    }
    const body = { name: values.name, ...(values.description ? { description: values.description } : {}), pass_threshold: Number(values.threshold), parameters };
    const result = await c.get('api').send<Scorecard>(id ? 'PUT' : 'POST', id ? `/qa/scorecards/${encodeURIComponent(id)}` : '/qa/scorecards', body);
    if (!result.ok) return scorecardForm(c, values, result.error);
    return redirectWithFlash(c, `/scorecards/${result.body.id}`, 'ok', id ? `Saved as version ${result.body.version}.` : 'Scorecard created.');
  };
  const scorecardValues = (view: string | undefined, card: { id?: string; name: string; description?: string; pass_threshold: number; parameters: unknown }): ScorecardValues => ({
    id: card.id,
    name: card.name,
    description: card.description ?? '',
    threshold: String(card.pass_threshold),
    view: view === 'json' ? 'json' : 'steps',
    drafts: draftsFromParameters(card.parameters),
    parameters: JSON.stringify(card.parameters, null, 2),
  });
  app.get('/scorecards/new', (c) => scorecardForm(c, scorecardValues(c.req.query('view'), { name: '', pass_threshold: 70, parameters: JSON.parse(EXAMPLE_PARAMETERS) })));
  app.post('/scorecards/new', (c) => scorecardSubmit(c));
  app.get('/scorecards/:id', async (c) => {
    const viewer = c.get('viewer');
    const card = unwrap(await c.get('api').get<Scorecard>(`/qa/scorecards/${encodeURIComponent(c.req.param('id'))}`));
    return c.html(
      <Layout title={`Scorecard: ${card.name}`} viewer={viewer} path="/scorecards">
        <div class="actions">
          {canWrite(viewer) ? <a class="button" href={`/scorecards/${card.id}/edit`}>Edit</a> : null}
          <DeleteButton viewer={viewer} action={`/scorecards/${card.id}/delete`} label="Delete" confirm="Delete this scorecard?" />
        </div>
        <dl class="facts card"><dt>Version</dt><dd>{card.version}</dd><dt>Pass mark</dt><dd>{card.pass_threshold}</dd>{card.description ? <><dt>Description</dt><dd>{card.description}</dd></> : null}</dl>
        <pre class="script">{JSON.stringify(card.parameters, null, 2)}</pre>
      </Layout>,
    );
  });
  app.get('/scorecards/:id/edit', async (c) => {
    const card = unwrap(await c.get('api').get<Scorecard>(`/qa/scorecards/${encodeURIComponent(c.req.param('id'))}`));
    return scorecardForm(c, scorecardValues(c.req.query('view'), card));
  });
  app.post('/scorecards/:id', (c) => scorecardSubmit(c, c.req.param('id')));
  app.post('/scorecards/:id/delete', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send('DELETE', `/qa/scorecards/${encodeURIComponent(id)}`);
    if (!result.ok) return redirectWithFlash(c, `/scorecards/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, '/scorecards', 'ok', 'Scorecard deleted.');
  });

  // ---------------------------------------------------------------- Agents
  const agentForm = (viewer: Viewer, agent?: Agent) => {
    // After a refused save, what the operator typed, not what is stored.
    const refused = viewer.flash?.values !== undefined;
    const value = (name: 'name' | 'phone' | 'sip_uri' | 'status') => (refused ? typed(viewer, name) : (agent?.[name] ?? ''));
    const languages = ticked(viewer, 'languages') ?? agent?.languages ?? [];
    return (
      <form method="post" action={agent ? `/agents/${agent.id}` : '/agents'} class="card">
        <h2>{agent ? 'Edit agent' : 'Add an agent'}</h2>
        <CsrfField viewer={viewer} />
        <div class="field"><label for="a-name">Name</label><input id="a-name" name="name" required value={value('name')} /></div>
        <fieldset class="field"><legend>Languages</legend>{SUPPORTED_LANGUAGES.map((language) => <label><input type="checkbox" name="languages" value={language} checked={languages.includes(language)} /> {language} </label>)}</fieldset>
        <div class="field"><label for="a-phone">Phone (E.164)</label><input id="a-phone" name="phone" value={value('phone')} placeholder="+919812345678" /></div>
        <div class="field"><label for="a-sip">or SIP URI</label><input id="a-sip" name="sip_uri" value={value('sip_uri')} placeholder="sip:asha@pbx.example.com" /></div>
        <div class="field"><label for="a-status">Status</label><select id="a-status" name="status">{AGENT_STATUSES.map((status) => <option value={status} selected={(value('status') || 'available') === status}>{status}</option>)}</select></div>
        <button type="submit">{agent ? 'Save' : 'Add agent'}</button>
      </form>
    );
  };
  /** The agent form's fields as typed, for the page after a refusal. */
  const agentTyped = (form: Record<string, unknown>) => ({
    name: String(form.name ?? ''),
    languages: ([] as unknown[]).concat(form.languages ?? []).map(String),
    phone: String(form.phone ?? ''),
    sip_uri: String(form.sip_uri ?? ''),
    status: String(form.status ?? 'available'),
  });
  const agentBody = (form: Record<string, unknown>) => ({
    name: String(form.name ?? ''),
    languages: ([] as unknown[]).concat(form.languages ?? []).map(String),
    phone: form.phone ? String(form.phone) : null,
    sip_uri: form.sip_uri ? String(form.sip_uri) : null,
    status: String(form.status ?? 'available'),
  });
  app.get('/agents', async (c) => {
    const viewer = c.get('viewer');
    const status = c.req.query('status');
    const page = unwrap(await c.get('api').get<ListPage<Agent>>('/agents', { status, offset: offsetOf(c), limit: 20 }));
    return c.html(
      <Layout title="Agents" viewer={viewer} path="/agents">
        <form class="filters" method="get" action="/agents">
          <div><label for="ag-status">Status</label><select id="ag-status" name="status"><option value="">Any</option>{AGENT_STATUSES.map((value) => <option value={value} selected={status === value}>{value}</option>)}</select></div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        {page.total === 0 ? (
          <Empty><p>No human agents{status ? ` ${status}` : ''}. Add the people who take calls when a customer asks for a person.</p></Empty>
        ) : (
          <>
            <table class="responsive">
              <thead><tr><th scope="col">Name</th><th scope="col">Languages</th><th scope="col">Reach at</th><th scope="col">Status</th><th scope="col">Last assigned</th></tr></thead>
              <tbody>{page.data.map((agent) => <tr><td data-label="Name"><a href={`/agents/${agent.id}`}>{agent.name}</a></td><td data-label="Languages">{agent.languages.join(', ')}</td><td data-label="Reach at">{agent.phone ?? agent.sip_uri}</td><td data-label="Status"><Badge value={agent.status} /></td><td data-label="Last assigned"><Time at={agent.last_assigned_at} zone={viewer.timeZone} /></td></tr>)}</tbody>
            </table>
            <Pager path="/agents" query={{ status }} total={page.total} limit={page.limit} offset={page.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        )}
        {canWrite(viewer) ? agentForm(viewer) : null}
      </Layout>,
    );
  });
  app.post('/agents', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const result = await c.get('api').send<Agent>('POST', '/agents', agentBody(form));
    if (!result.ok) return redirectWithFlash(c, '/agents', 'error', result.error.message, agentTyped(form));
    return redirectWithFlash(c, '/agents', 'ok', `Agent ${result.body.name} added.`);
  });
  app.get('/agents/:id', async (c) => {
    const viewer = c.get('viewer');
    const agent = unwrap(await c.get('api').get<Agent>(`/agents/${encodeURIComponent(c.req.param('id'))}`));
    const today = localDateOf(clock.now(), viewer.timeZone);
    const stats = unwrap(await c.get('api').get<AgentStats>('/analytics/calls', { agent_id: agent.id, from: addDays(today, -29), to: today, timezone: viewer.timeZone }));
    return c.html(
      <Layout title={`Agent: ${agent.name}`} viewer={viewer} path="/agents">
        <div class="actions"><DeleteButton viewer={viewer} action={`/agents/${agent.id}/delete`} label="Delete agent" confirm="Delete this agent?" /></div>
        <dl class="facts card">
          <dt>Calls handled, last 30 days</dt><dd>{stats.total_calls} ({stats.connected_calls} connected)</dd>
          <dt>Average duration</dt><dd>{stats.avg_duration_seconds === null ? '—' : `${Math.round(stats.avg_duration_seconds)} s`}</dd>
          <dt>QA average</dt><dd>{stats.avg_qa_score === null ? '—' : `${Math.round(stats.avg_qa_score)} / 100`}</dd>
          <dt>Last assigned</dt><dd><Time at={agent.last_assigned_at} zone={viewer.timeZone} withZone /></dd>
        </dl>
        {canWrite(viewer) ? agentForm(viewer, agent) : <dl class="facts card"><dt>Languages</dt><dd>{agent.languages.join(', ')}</dd><dt>Status</dt><dd>{agent.status}</dd></dl>}
      </Layout>,
    );
  });
  app.post('/agents/:id', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody({ all: true });
    const result = await c.get('api').send<Agent>('PATCH', `/agents/${encodeURIComponent(id)}`, agentBody(form));
    if (!result.ok) return redirectWithFlash(c, `/agents/${id}`, 'error', result.error.message, agentTyped(form));
    return redirectWithFlash(c, `/agents/${id}`, 'ok', 'Saved.');
  });
  app.post('/agents/:id/delete', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send('DELETE', `/agents/${encodeURIComponent(id)}`);
    if (!result.ok) return redirectWithFlash(c, `/agents/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, '/agents', 'ok', 'Agent deleted.');
  });

  // ---------------------------------------------------------------- Do-not-call list
  app.get('/do-not-call', async (c) => {
    const viewer = c.get('viewer');
    const page = unwrap(await c.get('api').get<ListPage<Suppression>>('/suppressions', { offset: offsetOf(c), limit: 25 }));
    return c.html(
      <Layout title="Do-not-call list" viewer={viewer} path="/do-not-call">
        <p class="muted">Numbers here are never dialed. A call that ends with disposition “dnd” adds its number by itself.</p>
        {page.total === 0 ? <Empty><p>The list is empty. Add a number below when a customer asks not to be called.</p></Empty> : (
          <>
            <table class="responsive">
              <thead><tr><th scope="col">Phone</th><th scope="col">Source</th><th scope="col">Reason</th><th scope="col">Since</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
              <tbody>
                {page.data.map((entry) => (
                  <tr>
                    <td data-label="Phone">{entry.phone}</td>
                    <td data-label="Source">{entry.source === 'call_outcome' && entry.call_id ? <a href={`/calls/${entry.call_id}`}>call outcome</a> : entry.source}</td>
                    <td data-label="Reason">{entry.reason ?? '—'}</td>
                    <td data-label="Since"><Time at={entry.suppressed_at} zone={viewer.timeZone} /></td>
                    <td data-label="Action"><DeleteButton viewer={viewer} action={`/do-not-call/${encodeURIComponent(entry.phone)}/delete`} label="Remove" confirm={`Allow calls to ${entry.phone} again?`} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager path="/do-not-call" query={{}} total={page.total} limit={page.limit} offset={page.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        )}
        {canWrite(viewer) ? (
          <form method="post" action="/do-not-call" class="card">
            <h2>Add a number</h2>
            <CsrfField viewer={viewer} />
            <div class="field"><label for="dnc-phone">Phone (E.164)</label><input id="dnc-phone" name="phone" required placeholder="+919876543210" value={typed(viewer, 'phone')} /></div>
            <div class="field"><label for="dnc-reason">Reason (optional)</label><input id="dnc-reason" name="reason" maxlength={500} class="wide" value={typed(viewer, 'reason')} /></div>
            <button type="submit">Add to the list</button>
          </form>
        ) : null}
      </Layout>,
    );
  });
  app.post('/do-not-call', async (c) => {
    const form = await c.req.parseBody();
    const result = await c.get('api').send('POST', '/suppressions', { phone: String(form.phone ?? '').trim(), ...(form.reason ? { reason: String(form.reason) } : {}) });
    if (!result.ok) return redirectWithFlash(c, '/do-not-call', 'error', result.error.message, { phone: String(form.phone ?? ''), reason: String(form.reason ?? '') });
    return redirectWithFlash(c, '/do-not-call', 'ok', 'Number added: it will not be called.');
  });
  app.post('/do-not-call/:phone/delete', async (c) => {
    const result = await c.get('api').send('DELETE', `/suppressions/${encodeURIComponent(c.req.param('phone'))}`);
    if (!result.ok) return redirectWithFlash(c, '/do-not-call', 'error', result.error.message);
    return redirectWithFlash(c, '/do-not-call', 'ok', 'Number removed from the list.');
  });
}

/** A form page for a viewer who may not write: the page's title and the notice instead of the form. */
function writeNeededPage(c: DashboardContext, title: string, path: string, action: string) {
  const viewer = c.get('viewer');
  return c.html(
    <Layout title={title} viewer={viewer} path={path}>
      <WriteNeeded viewer={viewer} action={action} />
    </Layout>,
  );
}

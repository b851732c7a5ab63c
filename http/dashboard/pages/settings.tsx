import { randomUUID } from 'node:crypto';
import { unwrap } from '../api-client.ts';
import { redirectWithFlash } from '../respond.ts';
import { Badge, CsrfField, Empty, isAdmin, Layout, Pager, Time, ZoneNote, type Viewer } from '../view.tsx';
import type { DashboardContext } from '../env.ts';
import type { DashboardApp, PageDeps } from './deps.ts';
import { CompliancePacksSection, inputOfError, packsRequestOf, type ComplianceSettings, type PacksFormState } from './compliance-packs.tsx';

interface Workspace { name: string; rate_limit_per_minute: number; dialing_concurrency: number; default_qa_scorecard_id: string | null; created_at: string }
interface ApiKey { id: string; name: string; scope: string; created_at: string; last_used_at: string | null; revoked_at: string | null; key?: string | null }
interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }

const SCOPES = ['Read-Only', 'Read-Write', 'Admin'] as const;
const FORM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function settingsPages(app: DashboardApp, _deps: PageDeps) {
  const render = async (c: DashboardContext, created?: ApiKey, packsState?: PacksFormState) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const workspace = unwrap(await api.get<Workspace>('/workspace'));
    const compliance = unwrap(await api.get<ComplianceSettings>('/compliance/settings'));
    const keys = isAdmin(viewer) ? unwrap(await api.get<ListPage<ApiKey>>('/api-keys', { offset, limit: 20 })) : undefined;
    return c.html(
      <Layout title="Settings" viewer={viewer} path="/settings">
        {created ? <CreatedKey created={created} /> : null}
        <section class="card" aria-labelledby="ws-h">
          <h2 id="ws-h">Workspace: {workspace.name}</h2>
          <dl class="facts">
            <dt>API requests per minute</dt><dd>{workspace.rate_limit_per_minute}</dd>
            <dt>Calls at once</dt><dd>{workspace.dialing_concurrency}</dd>
            <dt>Default QA scorecard</dt><dd>{workspace.default_qa_scorecard_id ? <a href={`/scorecards/${workspace.default_qa_scorecard_id}`}>{workspace.default_qa_scorecard_id}</a> : 'none'}</dd>
            <dt>Created</dt><dd><Time at={workspace.created_at} zone={viewer.timeZone} withZone /></dd>
          </dl>
          <p class="muted small">The limits are set by the service's operator (npm run cli -- workspaces set-rate-limit / set-concurrency).</p>
        </section>
        <CompliancePacksSection viewer={viewer} settings={compliance} state={packsState} />
        <section class="card" aria-labelledby="keys-h">
          <h2 id="keys-h">API keys</h2>
          {!keys ? (
            <p class="muted">Only an Admin key can see and manage API keys; you are signed in with a {viewer.scope} key.</p>
          ) : (
            <>
              <KeyTable keys={keys.data} viewer={viewer} />
              <Pager path="/settings" query={{}} total={keys.total} limit={keys.limit} offset={keys.offset} />
              <ZoneNote zone={viewer.timeZone} />
              <form method="post" action="/settings/api-keys" class="card">
                <h3>Create a key</h3>
                <CsrfField viewer={viewer} />
                <input type="hidden" name="_form" value={randomUUID()} />
                <div class="field"><label for="key-name">Name (who or what uses it)</label><input id="key-name" name="name" required maxlength={255} /></div>
                <div class="field">
                  <label for="key-scope">Scope</label>
                  <select id="key-scope" name="scope">{SCOPES.map((scope) => <option value={scope} selected={scope === 'Read-Write'}>{scope}</option>)}</select>
                </div>
                <button type="submit">Create key</button>
              </form>
            </>
          )}
        </section>
      </Layout>,
    );
  };

  app.get('/settings', (c) => render(c));

  app.post('/settings/api-keys', async (c) => {
    const form = await c.req.parseBody();
    // The form's own id makes the request idempotent: this page answers the POST itself, so a reload sends the form
    // again, and it made a second key (with a new secret) until the form carried one.
    const formId = typeof form._form === 'string' && FORM_ID.test(form._form) ? form._form : randomUUID();
    const result = await c.get('api').send<ApiKey>('POST', '/api-keys', { name: String(form.name ?? ''), scope: String(form.scope ?? '') }, `dash-key-${formId}`);
    if (!result.ok) return redirectWithFlash(c, '/settings', 'error', result.error.message);
    // Answered directly (no redirect): the secret must not travel in a URL or sit in the session.
    return render(c, result.body);
  });

  // A refused form is answered with the page (200, like the other forms of the dashboard), the error at its field.
  app.post('/settings/compliance', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const current = unwrap(await c.get('api').get<ComplianceSettings>('/compliance/settings'));
    const { body, state } = packsRequestOf(form, current);
    if (!body) return render(c, undefined, state);
    const result = await c.get('api').send<ComplianceSettings>('PUT', '/compliance/settings', body);
    if (!result.ok) {
      const refused = { ...state, error: { message: result.error.message, input: inputOfError(result.error.details.field, state.enabled) } };
      return render(c, undefined, refused);
    }
    return redirectWithFlash(c, '/settings', 'ok', `Compliance packs saved: ${result.body.packs.map((pack) => pack.id).join(', ') || 'none (no compliance check runs)'}.`);
  });

  app.post('/settings/api-keys/:id/revoke', async (c) => {
    const result = await c.get('api').send<ApiKey>('DELETE', `/api-keys/${encodeURIComponent(c.req.param('id'))}`);
    if (!result.ok) return redirectWithFlash(c, '/settings', 'error', result.error.message);
    return redirectWithFlash(c, '/settings', 'ok', `Key “${result.body.name}” revoked: every request and session using it is refused from now on.`);
  });
}

/**
 * At the top of the page, where the operator looks first: the new key's secret, once. A replayed form (a reload)
 * creates nothing and gets no secret back (secrets are never stored): it says so.
 */
function CreatedKey({ created }: { created: ApiKey }) {
  if (!created.key) {
    return (
      <div class="flash flash-error" role="status" id="key-replayed">
        <p>This form was already sent: key “{created.name}” ({created.scope}) exists, and its secret was shown only once. If you did not copy it, revoke the key below and create another.</p>
      </div>
    );
  }
  return (
    <div class="flash flash-ok" role="status">
      <p>Key “{created.name}” ({created.scope}) created. Copy its secret now: it is shown only this once and stored nowhere.</p>
      <code id="new-key" class="secret">{created.key}</code>
      <button type="button" data-copy="new-key" class="secondary">Copy</button>
    </div>
  );
}

function KeyTable({ keys, viewer }: { keys: ApiKey[]; viewer: Viewer }) {
  if (keys.length === 0) return <Empty><p>No keys.</p></Empty>;
  return (
    <div class="table-wrap">
      <table class="responsive">
        <thead><tr><th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td data-label="Name">{key.name}</td>
              <td data-label="Scope">{key.scope}</td>
              <td data-label="Created"><Time at={key.created_at} zone={viewer.timeZone} /></td>
              <td data-label="Last used"><Time at={key.last_used_at} zone={viewer.timeZone} /></td>
              <td data-label="Status">{key.revoked_at ? <Badge value="revoked" /> : <Badge value="active" />}</td>
              <td data-label="Action">
                {key.revoked_at ? null : (
                  <form method="post" action={`/settings/api-keys/${key.id}/revoke`} class="inline" data-confirm={`Revoke “${key.name}”? Everything using it stops working at once.`}>
                    <CsrfField viewer={viewer} />
                    <button type="submit" class="danger" aria-label={`Revoke ${key.name}`}>Revoke</button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

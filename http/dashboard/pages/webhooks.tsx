import { DELIVERY_STATUSES } from '../../../domain/webhook-delivery.ts';
import { WEBHOOK_EVENT_NAMES } from '../../../domain/webhook.ts';
import { unwrap } from '../api-client.ts';
import { redirectWithFlash } from '../respond.ts';
import { Badge, canWrite, CsrfField, Empty, ErrorBox, Layout, Pager, ticked, Time, typed, ZoneNote } from '../view.tsx';
import type { DashboardApp, PageDeps } from './deps.ts';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  last_delivery: { event: string; status: string; http_status: number | null; attempted_at: string } | null;
  failed_deliveries: number;
  retrying_deliveries: number;
}
interface Delivery {
  id: string;
  event: string;
  status: string;
  created_at: string;
  next_attempt_at: string | null;
  attempts: { attempt: number; kind: string; attempted_at: string; http_status: number | null; error?: string | null; duration_ms: number; succeeded: boolean }[];
}
interface ListPage<T> { data: T[]; total: number; limit: number; offset: number }

/** Deliveries a replay is accepted for (the delivery aggregate refuses the others with 409). */
const REPLAYABLE = new Set(['delivered', 'failed', 'retrying']);

export function webhookPages(app: DashboardApp, _deps: PageDeps) {
  app.get('/webhooks', async (c) => {
    const viewer = c.get('viewer');
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const page = unwrap(await c.get('api').get<ListPage<Webhook>>('/webhooks', { offset, limit: 20 }));
    return c.html(
      <Layout title="Webhooks" viewer={viewer} path="/webhooks">
        {page.total === 0 ? (
          <Empty><p>No webhooks. Register an https:// URL below to receive call and campaign events as they happen.</p></Empty>
        ) : (
          <>
            <div class="table-wrap">
              <table class="responsive">
                <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Last delivery</th><th scope="col">Failed</th><th scope="col">Retrying</th></tr></thead>
                <tbody>
                  {page.data.map((hook) => (
                    <tr>
                      <td data-label="URL"><a href={`/webhooks/${hook.id}`}>{hook.url}</a></td>
                      <td data-label="Events">{hook.events.join(', ')}</td>
                      <td data-label="Last delivery">{hook.last_delivery ? <><Badge value={hook.last_delivery.status} /> {hook.last_delivery.event} <Time at={hook.last_delivery.attempted_at} zone={viewer.timeZone} /></> : <span class="muted">none yet</span>}</td>
                      <td data-label="Failed">{hook.failed_deliveries}</td>
                      <td data-label="Retrying">{hook.retrying_deliveries}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager path="/webhooks" query={{}} total={page.total} limit={page.limit} offset={page.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        )}
        {canWrite(viewer) ? (
          <form method="post" action="/webhooks" class="card">
            <h2>Register a webhook</h2>
            <CsrfField viewer={viewer} />
            <div class="field"><label for="url">URL (https://, reachable from this server)</label><input id="url" name="url" type="url" required class="wide" placeholder="https://example.com/hooks/calls" value={typed(viewer, 'url')} /></div>
            <fieldset class="field">
              <legend>Events</legend>
              <label><input type="checkbox" name="events" value="*" checked={(ticked(viewer, 'events') ?? ['*']).includes('*')} /> All events</label>
              {WEBHOOK_EVENT_NAMES.map((name) => <label><input type="checkbox" name="events" value={name} checked={(ticked(viewer, 'events') ?? []).includes(name)} /> {name}</label>)}
            </fieldset>
            <div class="field"><label for="secret">Signing secret (optional; signs every delivery)</label><input id="secret" name="secret" type="password" autocomplete="off" /></div>
            <button type="submit">Register</button>
          </form>
        ) : null}
      </Layout>,
    );
  });

  app.post('/webhooks', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const events = ([] as unknown[]).concat(form.events ?? []).map(String);
    const body = { url: String(form.url ?? ''), events: events.includes('*') ? ['*'] : events, ...(form.secret ? { secret: String(form.secret) } : {}) };
    const result = await c.get('api').send<Webhook>('POST', '/webhooks', body);
    // The URL and events come back filled in; the signing secret is never kept, even for one page.
    if (!result.ok) return redirectWithFlash(c, '/webhooks', 'error', result.error.message, { url: body.url, events });
    return redirectWithFlash(c, `/webhooks/${result.body.id}`, 'ok', 'Webhook registered.');
  });

  app.get('/webhooks/:id', async (c) => {
    const viewer = c.get('viewer');
    const api = c.get('api');
    const id = encodeURIComponent(c.req.param('id'));
    const status = c.req.query('status');
    const offset = Number(c.req.query('offset') ?? 0) || 0;
    const hook = unwrap(await api.get<Webhook>(`/webhooks/${id}`));
    const deliveries = await api.get<ListPage<Delivery>>(`/webhooks/${id}/deliveries`, { status, offset, limit: 20 });
    return c.html(
      <Layout title={`Webhook: ${hook.url}`} viewer={viewer} path="/webhooks">
        <dl class="facts card">
          <dt>Events</dt><dd>{hook.events.join(', ')}</dd>
          <dt>Registered</dt><dd><Time at={hook.created_at} zone={viewer.timeZone} withZone /></dd>
          <dt>Failed deliveries</dt><dd>{hook.failed_deliveries}</dd>
          <dt>Retrying</dt><dd>{hook.retrying_deliveries}</dd>
        </dl>
        {canWrite(viewer) ? (
          <form method="post" action={`/webhooks/${hook.id}/delete`} data-confirm="Delete this webhook? Pending retries are cancelled." class="actions">
            <CsrfField viewer={viewer} />
            <button type="submit" class="danger">Delete webhook</button>
          </form>
        ) : null}
        <h2>Delivery log</h2>
        <form class="filters" method="get" action={`/webhooks/${hook.id}`}>
          <div>
            <label for="d-status">Status</label>
            <select id="d-status" name="status"><option value="">Any</option>{DELIVERY_STATUSES.map((value) => <option value={value} selected={status === value}>{value}</option>)}</select>
          </div>
          <button type="submit" class="secondary">Filter</button>
        </form>
        <ErrorBox error={deliveries.ok ? undefined : deliveries.error} />
        {deliveries.ok && deliveries.body.total === 0 ? (
          <Empty><p>{status ? `No ${status} deliveries.` : 'Nothing delivered yet. Deliveries appear here when a subscribed event happens (for example when a call completes).'}</p></Empty>
        ) : deliveries.ok ? (
          <>
            <div class="table-wrap">
              <table class="responsive">
                <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last response</th><th scope="col">Next retry</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
                <tbody>
                  {deliveries.body.data.map((delivery) => {
                    const last = delivery.attempts.at(-1);
                    return (
                      <tr>
                        <td data-label="Event">{delivery.event} <span class="muted small"><Time at={delivery.created_at} zone={viewer.timeZone} /></span></td>
                        <td data-label="Status"><Badge value={delivery.status} /></td>
                        <td data-label="Attempts">{delivery.attempts.length}</td>
                        <td data-label="Last response">{last ? (last.http_status !== null ? `HTTP ${last.http_status}` : last.error ?? 'no response') : '—'}</td>
                        <td data-label="Next retry"><Time at={delivery.next_attempt_at} zone={viewer.timeZone} /></td>
                        <td data-label="Action">
                          {canWrite(viewer) && REPLAYABLE.has(delivery.status) ? (
                            <form method="post" action={`/webhooks/${hook.id}/deliveries/${delivery.id}/replay`} class="inline">
                              <CsrfField viewer={viewer} />
                              <button type="submit" class="secondary" aria-label={`Replay ${delivery.event} delivery`}>Replay</button>
                            </form>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pager path={`/webhooks/${hook.id}`} query={{ status }} total={deliveries.body.total} limit={deliveries.body.limit} offset={deliveries.body.offset} />
            <ZoneNote zone={viewer.timeZone} />
          </>
        ) : null}
      </Layout>,
    );
  });

  app.post('/webhooks/:id/delete', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send('DELETE', `/webhooks/${encodeURIComponent(id)}`);
    if (!result.ok) return redirectWithFlash(c, `/webhooks/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, '/webhooks', 'ok', 'Webhook deleted.');
  });

  app.post('/webhooks/:id/deliveries/:delivery/replay', async (c) => {
    const id = c.req.param('id');
    const result = await c.get('api').send('POST', `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(c.req.param('delivery'))}/replay`, {});
    if (!result.ok) return redirectWithFlash(c, `/webhooks/${id}`, 'error', result.error.message);
    return redirectWithFlash(c, `/webhooks/${id}`, 'ok', 'Replay requested: the delivery is sent again now.');
  });
}

import type { Database } from 'better-sqlite3';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBytes } from 'node:crypto';
import { isValidTimezone } from '../../domain/shared/time-zone.ts';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../../infra/crypto/api-key-secret.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Logger } from '../../infra/logger.ts';
import { findApiKey, findApiKeyBySecretHash, recordApiKeyUse } from '../../projections/api-keys.ts';
import { LAST_USED_WRITE_INTERVAL_MS } from '../middleware/auth.ts';
import { ApiCallError, ApiClient, type ApiFetch } from './api-client.ts';
import { assetRoutes } from './assets.ts';
import type { DrawChart } from './chart.ts';
import type { DashboardContext, DashboardEnv } from './env.ts';
import { isHttps, sameOrigin, securityHeaders } from './security.ts';
import { csrfTokenMatches, SESSION_IDLE_MS, SessionStore } from './sessions.ts';
import { localPath, redirectWithFlash } from './respond.ts';
import { BarePage, Layout } from './view.tsx';
import { overviewPages } from './pages/overview.tsx';
import { campaignPages } from './pages/campaigns.tsx';
import { callPages } from './pages/calls.tsx';
import { searchPages } from './pages/search.tsx';
import { webhookPages } from './pages/webhooks.tsx';
import { settingsPages } from './pages/settings.tsx';
import { catalogPages } from './pages/catalog.tsx';
import { reportPages } from './pages/reports.tsx';
import { compliancePages } from './pages/compliance.tsx';
import { livePages } from './pages/live.tsx';

export interface DashboardPorts {
  readDb: Database;
  /** Where sessions are kept across restarts (the state database); memory only without it. */
  stateDb?: Database;
  clock: Clock;
  /** The API app's fetch: pages read and write through it, in process (api-client.ts). */
  fetchApi: ApiFetch;
  logger: Logger;
  /** Draws a chart's SVG off the event loop (the report pool's threads). */
  drawChart: DrawChart;
  sessions?: SessionStore;
}

export const SESSION_COOKIE = 'dashboard_session';
const SIGN_IN_COOKIE = 'dashboard_sign_in';
/** The largest form the dashboard accepts (a CSV of 100,000 contacts with a few variables fits). */
export const MAX_FORM_BYTES = 25 * 1024 * 1024;

/**
 * The operators' web console, served by the service at `/` (the API stays under `/v1`). Server-rendered pages,
 * each a view of API operations called in process with the signed-in key's identity: the same routes, commands,
 * read models, validation and scopes as the API, and no second copy of any rule. See docs/dashboard.md.
 */
export function createDashboard({ readDb, stateDb, clock, fetchApi, logger, drawChart, sessions = new SessionStore(Date.now, stateDb) }: DashboardPorts) {
  const app = new Hono<DashboardEnv>();
  app.use('*', securityHeaders);
  app.use('*', bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.html(<BarePage title="Too large"><p>That upload is larger than {MAX_FORM_BYTES / 1024 / 1024} MB.</p></BarePage>, 413) }));
  app.route('/', assetRoutes());

  const cookieOptions = (c: DashboardContext | Parameters<typeof getCookie>[0]) => ({
    httpOnly: true,
    sameSite: 'Strict' as const,
    secure: isHttps(c.req.url, c.req.header('x-forwarded-proto')),
    path: '/',
  });

  app.get('/sign-in', (c) => {
    // One token per browser while it signs in: a second tab, or the browser's own fetch of /favicon.ico that
    // lands here, must not invalidate the form already shown.
    const existing = getCookie(c, SIGN_IN_COOKIE);
    const token = existing && /^[A-Za-z0-9_-]{32}$/.test(existing) ? existing : randomBytes(24).toString('base64url');
    setCookie(c, SIGN_IN_COOKIE, token, { ...cookieOptions(c), maxAge: 3600 });
    const ended = c.req.query('ended');
    const message =
      ended === 'revoked' ? 'Your session ended: its API key was revoked.' : ended === 'expired' ? 'Your session ended after a period without activity. Sign in again.' : ended === 'signed-out' ? 'You are signed out.' : undefined;
    return c.html(<SignInPage token={token} message={message} />);
  });

  app.post('/sign-in', async (c) => {
    const form = await c.req.parseBody();
    const expected = getCookie(c, SIGN_IN_COOKIE);
    if (!expected || form._csrf !== expected || !sameOrigin(c.req.url, c.req.header('origin'), c.req.header('host'))) {
      return c.html(<SignInPage token={expected ?? ''} error="The sign-in form expired. Reload the page and try again." />, 403);
    }
    const key = typeof form.key === 'string' ? form.key.trim() : '';
    const row = isWellFormedApiKeySecret(key) ? findApiKeyBySecretHash(readDb, hashApiKeySecret(key)) : undefined;
    if (!row || row.revoked_at !== null) {
      return c.html(<SignInPage token={expected} error="That API key is not valid (unknown or revoked)." />, 401);
    }
    const offered = typeof form.time_zone === 'string' && isValidTimezone(form.time_zone) ? form.time_zone : 'UTC';
    // Chromium reports India's zone by its old name; the picker lists the current one.
    const zone = offered === 'Asia/Calcutta' ? 'Asia/Kolkata' : offered;
    const { id } = sessions.create(row.key_id, row.workspace_id, zone);
    deleteCookie(c, SIGN_IN_COOKIE, { path: '/' });
    setCookie(c, SESSION_COOKIE, id, cookieOptions(c));
    logger.info({ key_id: row.key_id, workspace_id: row.workspace_id }, 'dashboard sign-in');
    return c.redirect('/', 303);
  });

  // Everything below needs a live session whose key is still active.
  app.use('*', async (c, next) => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = sessions.get(id);
    const away = (reason?: string) => {
      if (id) deleteCookie(c, SESSION_COOKIE, { path: '/' });
      const to = reason ? `/sign-in?ended=${reason}` : '/sign-in';
      if (c.req.header('hx-request')) {
        c.header('HX-Redirect', to);
        return c.body(null, 401);
      }
      return c.redirect(to, 303);
    };
    if (!session) return away(id ? 'expired' : undefined);
    const key = findApiKey(readDb, session.workspaceId, session.keyId);
    if (!key || key.revoked_at !== null) {
      sessions.end(id);
      return away('revoked');
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const submitted = c.req.header('x-csrf-token') ?? (await formField(c, '_csrf'));
      if (!csrfTokenMatches(session, submitted) || !sameOrigin(c.req.url, c.req.header('origin'), c.req.header('host'))) {
        return c.html(<BarePage title="Form expired"><p>This form is out of date or did not come from this site. <a href="/">Go back to the dashboard</a> and try again.</p></BarePage>, 403);
      }
    }
    const principal = { keyId: key.key_id, workspaceId: key.workspace_id, scope: key.scope };
    // "Last used" counts dashboard use too, written at most once a minute per session like the API's.
    if (session.lastSeenMs - (session.useRecordedMs ?? 0) >= LAST_USED_WRITE_INTERVAL_MS) {
      session.useRecordedMs = session.lastSeenMs;
      try {
        recordApiKeyUse(readDb, key.key_id, clock.now().toISOString());
      } catch (error) {
        // Informational, as for the API: a busy database must not fail the page.
        logger.warn({ err: error, key_id: key.key_id }, 'could not record API key use');
      }
    }
    const flash = session.flash;
    session.flash = undefined;
    c.set('session', session);
    c.set('sessionId', id!);
    c.set('principal', principal);
    c.set('api', new ApiClient(fetchApi, principal));
    c.set('viewer', { keyName: key.name, scope: key.scope, workspaceId: key.workspace_id, timeZone: session.timeZone, csrfToken: session.csrfToken, flash });
    await next();
  });

  app.post('/sign-out', (c) => {
    sessions.end(c.get('sessionId'));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/sign-in?ended=signed-out', 303);
  });

  app.post('/preferences/time-zone', async (c) => {
    const form = await c.req.parseBody();
    const back = localPath(form.return_to);
    if (typeof form.time_zone !== 'string' || !isValidTimezone(form.time_zone)) return redirectWithFlash(c, back, 'error', 'Unknown time zone.');
    sessions.setTimeZone(c.get('sessionId'), form.time_zone);
    return c.redirect(back, 303);
  });

  const deps = { clock, readDb, drawChart };
  overviewPages(app, deps);
  campaignPages(app, deps);
  callPages(app, deps);
  searchPages(app, deps);
  webhookPages(app, deps);
  reportPages(app, deps);
  compliancePages(app, deps);
  livePages(app, deps);
  settingsPages(app, deps);
  catalogPages(app, deps);

  app.notFound((c) => {
    const viewer = c.get('viewer');
    const body = <p>There is no such page. <a href="/">Back to the overview</a>.</p>;
    return c.html(viewer ? <Layout title="Not found" viewer={viewer} path={c.req.path}>{body}</Layout> : <BarePage title="Not found">{body}</BarePage>, 404);
  });

  app.onError((error, c) => {
    const viewer = c.get('viewer');
    if (error instanceof ApiCallError && viewer) {
      const status = error.status === 404 ? 404 : error.status === 403 ? 403 : error.status >= 500 ? 500 : 400;
      const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'Something went wrong';
      return c.html(
        <Layout title={title} viewer={viewer} path={c.req.path}>
          <p class="flash flash-error" role="alert">{error.message}</p>
          <p><a href="/">Back to the overview</a></p>
        </Layout>,
        status,
      );
    }
    logger.error({ err: error, path: c.req.path }, 'dashboard page failed');
    return c.html(<BarePage title="Something went wrong"><p>The page could not be shown. <a href="/">Back to the overview</a>.</p></BarePage>, 500);
  });

  return app;
}

/** A field of a urlencoded or multipart body (parsed once; Hono caches the parsed body for the handler). */
async function formField(c: DashboardContext, name: string): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return undefined;
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > MAX_FORM_BYTES) return undefined;
  const body = await c.req.parseBody();
  return body[name];
}

function SignInPage({ token, error, message }: { token: string; error?: string; message?: string }) {
  return (
    <BarePage title="Sign in">
      {message ? <p class="flash flash-ok" role="status">{message}</p> : null}
      {error ? <p class="flash flash-error" role="alert">{error}</p> : null}
      <form method="post" action="/sign-in">
        <input type="hidden" name="_csrf" value={token} />
        <input type="hidden" name="time_zone" value="UTC" data-browser-zone />
        <div class="field">
          <label for="key">API key</label>
          <input id="key" name="key" type="password" class="wide" autocomplete="off" required spellcheck={false} />
        </div>
        <button type="submit">Sign in</button>
      </form>
      <p class="muted small">
        Use any API key of your workspace: a Read-Only key can look at everything, a Read-Write key can also act, an
        Admin key can also manage keys. The first Admin key comes from <code>npm run cli -- workspaces create --name NAME</code>.
        The session ends after {SESSION_IDLE_MS / 60_000} minutes without activity, at sign-out, or when the key is revoked.
      </p>
    </BarePage>
  );
}

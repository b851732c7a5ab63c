import type { Flash } from './sessions.ts';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';

const DOCTYPE = raw('<!DOCTYPE html>');
import type { ApiKeyScope } from '../../domain/api-key.ts';

/** What every page is rendered with: who is signed in, their zone, their CSRF token. */
export interface Viewer {
  keyName: string;
  scope: ApiKeyScope;
  workspaceId: string;
  timeZone: string;
  csrfToken: string;
  flash?: Flash;
}

/** What the refused form of the last request held in `name` (after redirectWithFlash with values), or ''. */
export function typed(viewer: Viewer, name: string): string {
  const value = viewer.flash?.values?.[name];
  return typeof value === 'string' ? value : '';
}

/** The boxes of `name` the refused form had ticked, or null when no form was refused. */
export function ticked(viewer: Viewer, name: string): readonly string[] | null {
  const value = viewer.flash?.values?.[name];
  if (value === undefined) return viewer.flash?.values ? [] : null;
  return typeof value === 'string' ? [value] : value;
}

export const canWrite = (viewer: Viewer) => viewer.scope !== 'Read-Only';
export const isAdmin = (viewer: Viewer) => viewer.scope === 'Admin';

/**
 * What a Read-Only viewer is shown instead of a form that creates or edits: the server refuses the form's request
 * anyway, and an operator should not fill in a whole form (a campaign's three CSV steps) to learn that at the end.
 */
export function WriteNeeded({ viewer, action }: { viewer: Viewer; action: string }) {
  return <p class="flash flash-error" role="status">{action} needs a Read-Write or Admin key; you are signed in with a {viewer.scope} key.</p>;
}

const NAV: [href: string, label: string][] = [
  ['/', 'Overview'],
  ['/live', 'Live calls'],
  ['/campaigns', 'Campaigns'],
  ['/calls', 'Calls'],
  ['/search', 'Search'],
  ['/scripts', 'Scripts'],
  ['/scorecards', 'Scorecards'],
  ['/agents', 'Agents'],
  ['/do-not-call', 'Do-not-call list'],
  ['/webhooks', 'Webhooks'],
  ['/compliance', 'Compliance'],
  ['/reports', 'Reports'],
  ['/settings', 'Settings'],
];

/** The zones offered in the picker: India first, then UTC and a few others; the session's own is always listed. */
const ZONES = ['Asia/Kolkata', 'UTC', 'Asia/Dubai', 'Asia/Singapore', 'Europe/London', 'America/New_York'];

function Head({ title }: { title: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      {/* The CSP allows no inline style: htmx must neither inject its indicator <style> nor settle `style` attributes. */}
      <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"attributesToSettle":["class","width","height"]}' />
      <title>{title} · Voice calling</title>
      <link rel="stylesheet" href="/assets/dashboard.css" />
      <script src="/assets/htmx.min.js" defer></script>
      <script src="/assets/dashboard.js" defer></script>
    </head>
  );
}

export function Layout({ title, viewer, path, children }: { title: string; viewer: Viewer; path: string; children?: Child }) {
  const zones = ZONES.includes(viewer.timeZone) ? ZONES : [viewer.timeZone, ...ZONES];
  const current = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`));
  return (
    <>
    {DOCTYPE}
    <html lang="en">
      <Head title={title} />
      <body hx-headers={JSON.stringify({ 'X-CSRF-Token': viewer.csrfToken })}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <span class="brand">Voice calling</span>
          <span class="who">
            {viewer.keyName} <span class={`scope scope-${viewer.scope.toLowerCase()}`}>{viewer.scope}</span>
          </span>
          <form method="post" action="/preferences/time-zone" class="zone">
            <input type="hidden" name="_csrf" value={viewer.csrfToken} />
            <input type="hidden" name="return_to" value={path} />
            <label for="tz">Time zone</label>
            <select id="tz" name="time_zone" data-autosubmit>
              {zones.map((zone) => (
                <option value={zone} selected={zone === viewer.timeZone}>
                  {zone}
                </option>
              ))}
            </select>
            <button type="submit" class="js-hide">Set</button>
          </form>
          <form method="post" action="/sign-out">
            <input type="hidden" name="_csrf" value={viewer.csrfToken} />
            <button type="submit" class="link">Sign out</button>
          </form>
        </header>
        <nav class="side" aria-label="Sections">
          <ul>
            {NAV.map(([href, label]) => (
              <li>
                <a href={href} aria-current={current(href) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">
          <h1>{title}</h1>
          {viewer.flash ? (
            <p class={`flash flash-${viewer.flash.kind}`} role={viewer.flash.kind === 'error' ? 'alert' : 'status'}>
              {viewer.flash.text}
            </p>
          ) : null}
          {children}
        </main>
      </body>
    </html>
    </>
  );
}

/** Pages outside a session (sign-in, errors before sign-in). */
export function BarePage({ title, children }: { title: string; children?: Child }) {
  return (
    <>
    {DOCTYPE}
    <html lang="en">
      <Head title={title} />
      <body class="bare">
        <main id="main">
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
    </>
  );
}

/** A time in the viewer's zone, zone named (a `<time>` with the instant for machines). */
export function Time({ at, zone, withZone = false }: { at: string | null | undefined; zone: string; withZone?: boolean }) {
  if (!at) return <span class="muted">—</span>;
  return (
    <time datetime={at} title={`${formatInstant(at, 'UTC')} UTC`}>
      {formatInstant(at, zone)}
      {withZone ? ` ${zone}` : ''}
    </time>
  );
}

export function formatInstant(at: string, zone: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(date);
}

export function ZoneNote({ zone }: { zone: string }) {
  return <p class="muted small">Times are in {zone} (change it at the top of the page).</p>;
}

/**
 * A GET form (filters, search) that htmx submits in place: the page's <main> is swapped for the answer's and the
 * URL updated, so the list changes without a full reload. Without JavaScript it is an ordinary GET form.
 */
export function inPlace(path: string): Record<string, string> {
  return { 'hx-get': path, 'hx-target': 'main', 'hx-select': 'main', 'hx-swap': 'outerHTML', 'hx-push-url': 'true' };
}

export function Empty({ children }: { children?: Child }) {
  return <div class="empty">{children}</div>;
}

export function ErrorBox({ error }: { error: { code: string; message: string; details: Record<string, unknown> } | undefined }) {
  if (!error) return null;
  const field = typeof error.details.field === 'string' ? error.details.field : undefined;
  return (
    <div class="flash flash-error" role="alert">
      <strong>{error.message}</strong>
      {field ? <span> (field: {field})</span> : null}
    </div>
  );
}

export function CsrfField({ viewer }: { viewer: Viewer }) {
  return <input type="hidden" name="_csrf" value={viewer.csrfToken} />;
}

/** Previous / next links of a list page, keeping its filters. */
export function Pager({ path, query, total, limit, offset }: { path: string; query: Record<string, string | undefined>; total: number; limit: number; offset: number }) {
  if (total <= limit && offset === 0) return <p class="muted small">{total} in all.</p>;
  const link = (at: number) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
    params.set('offset', String(at));
    return `${path}?${params}`;
  };
  // Past the end (an old link, a hand-typed offset): say so and link back to the last page, not "100001–66 of 66".
  const lastPage = Math.max(0, Math.floor((total - 1) / limit) * limit);
  if (offset >= total) {
    return (
      <nav class="pager" aria-label="Pages">
        <a href={link(lastPage)}>← Last page</a>
        <span class="muted">Nothing here: {total} in all.</span>
        <span />
      </nav>
    );
  }
  return (
    <nav class="pager" aria-label="Pages">
      {offset > 0 ? <a href={link(Math.max(0, offset - limit))}>← Previous</a> : <span />}
      <span class="muted">
        {offset + 1}–{Math.min(offset + limit, total)} of {total}
      </span>
      {offset + limit < total ? <a href={link(offset + limit)}>Next →</a> : <span />}
    </nav>
  );
}

export function Badge({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">—</span>;
  return <span class={`badge badge-${value.replaceAll(/[^a-z_]/g, '')}`}>{value.replaceAll('_', ' ')}</span>;
}

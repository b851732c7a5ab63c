import type { Flash } from './sessions.ts';
import type { DashboardContext } from './env.ts';

/** A path of ours to go back to after a form (never another site: `//evil` is refused). */
export function localPath(value: unknown, fallback = '/'): string {
  return typeof value === 'string' && /^\/(?![/\\])[^\s]*$/.test(value) ? value : fallback;
}

/** For a page that answers a form: the next page (303, POST-redirect-GET), with a one-time message. */
export function redirectWithFlash(c: DashboardContext, to: string, kind: 'ok' | 'error', text: string, values?: Flash['values']) {
  c.get('session').flash = { kind, text, ...(values ? { values } : {}) };
  return c.redirect(localPath(to), 303);
}

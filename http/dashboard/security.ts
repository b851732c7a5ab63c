import { createMiddleware } from 'hono/factory';

/**
 * The dashboard's response headers. No inline script or style anywhere: every script and stylesheet is a file
 * under /assets, so the policy can be strict. Media (recordings) and SSE come from this origin only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const securityHeaders = createMiddleware(async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  c.res.headers.set('X-Frame-Options', 'DENY');
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on our own form posts.
  c.res.headers.set('Referrer-Policy', 'same-origin');
  if (!c.req.path.startsWith('/assets/')) c.res.headers.set('Cache-Control', 'no-store');
});

/** Served over HTTPS (directly, or behind a proxy that says so): the session cookie is then `Secure`. */
export function isHttps(url: string, forwardedProto: string | undefined): boolean {
  return new URL(url).protocol === 'https:' || forwardedProto?.split(',')[0]?.trim() === 'https';
}

/**
 * A state-changing request must come from one of our own pages: when the browser names an Origin it must be this
 * one (SameSite=Strict already keeps the cookie off cross-site requests; the CSRF token is checked besides).
 */
export function sameOrigin(requestUrl: string, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true;
  try {
    const from = new URL(origin);
    return from.host === (host ?? new URL(requestUrl).host);
  } catch {
    return false;
  }
}

import type { Context } from 'hono';
import type { AppEnv } from './context.ts';

/**
 * Sets a header on whatever response this request ends with (the route's, an error's, an idempotent replay).
 * Call it before `next()`. On @hono/node-server it goes straight to Node's ServerResponse, which merges it into
 * the response head: going through Hono's context instead builds undici `Headers` objects, which cost more than
 * the rest of a cached read (measured with bench/http.ts). Elsewhere (`app.request` in tests) it uses the context.
 */
export function setResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  const outgoing = c.env?.outgoing;
  if (outgoing && !outgoing.headersSent) outgoing.setHeader(name, value);
  else c.header(name, value);
}

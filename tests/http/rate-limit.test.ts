import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, setRateLimit, startServer, type TestServer } from '../support/server.ts';

const limits = suite('rate limits per workspace');
let server: TestServer;

limits.before(async () => {
  server = await startServer();
});
limits.after(async () => server.stop());

limits('every authenticated response carries X-RateLimit-*, errors included', async () => {
  const api = client(server, (await createWorkspace(server, 'Headers')).key);
  const nowSeconds = Date.now() / 1000;
  const ok = await api.get('/v1/scripts');
  const notFound = await api.get('/v1/scripts/scr_missing');
  const invalid = await api.get('/v1/scripts?limit=0');
  assert.is(ok.headers.get('x-ratelimit-limit'), '1000');
  const remaining = [ok, notFound, invalid].map((response) => Number(response.headers.get('x-ratelimit-remaining')));
  assert.equal(remaining, [999, 998, 997]);
  const reset = Number(ok.headers.get('x-ratelimit-reset'));
  assert.ok(reset > nowSeconds && reset <= nowSeconds + 61, `reset ${reset} is the end of this minute`);
  assert.is(notFound.status, 404);
  assert.is(notFound.headers.get('x-ratelimit-limit'), '1000');
  // No workspace, no count: public routes and failed authentication carry none.
  assert.is((await client(server).get('/health')).headers.get('x-ratelimit-limit'), null);
});

limits('past the limit: 429 rate_limit_exceeded with limit, reset_at and Retry-After; other workspaces unaffected', async () => {
  const workspace = await createWorkspace(server, 'Limited');
  await setRateLimit(server, workspace.workspaceId, 3);
  const api = client(server, workspace.key);
  for (let index = 0; index < 3; index++) assert.is((await api.get('/v1/scripts')).status, 200);
  const refused = await api.get('/v1/scripts');
  assert.is(refused.status, 429);
  assert.is(refused.body.error.code, 'rate_limit_exceeded');
  assert.is(refused.body.error.details.limit, 3);
  const resetAt = Date.parse(refused.body.error.details.reset_at);
  assert.is(new Date(resetAt).toISOString(), refused.body.error.details.reset_at);
  assert.is(resetAt / 1000, Number(refused.headers.get('x-ratelimit-reset')));
  const retryAfter = Number(refused.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 60);
  assert.is(refused.headers.get('x-ratelimit-remaining'), '0');
  assert.is(refused.headers.get('x-ratelimit-limit'), '3');
  assert.is((await api.post('/v1/scripts', {})).status, 429, 'every endpoint counts');

  const other = client(server, (await createWorkspace(server, 'Unaffected')).key);
  assert.is((await other.get('/v1/scripts')).status, 200);

  // Raised by the operator (the CLI in another process): applies from the very next request, without a restart.
  await setRateLimit(server, workspace.workspaceId, 100);
  const raised = await api.get('/v1/scripts');
  assert.is(raised.status, 200);
  assert.is(raised.headers.get('x-ratelimit-limit'), '100');
});

limits.run();

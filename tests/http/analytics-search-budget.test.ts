// Over the real server: a transcript search runs on a worker thread within SEARCH_BUDGET_MS. Past the budget the
// request is answered at once with 503 search_budget_exceeded (the envelope, the budget in the details), the server
// keeps answering other requests, and a later search gets a fresh thread. A budget of 1 ms cannot be met (the
// thread alone takes longer to start), which makes the refusal certain.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer } from '../support/server.ts';

const server = await startServer({ env: { SEARCH_BUDGET_MS: '1', SEARCH_THREADS: '1' } });
const api = client(server, (await createWorkspace(server, 'Budget')).key);

test('a search past its budget is 503 search_budget_exceeded, and the server goes on', async () => {
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await api.get('/v1/analytics/search?query=loan');
    assert.is(response.status, 503, response.text);
    assert.equal(response.body.error.code, 'search_budget_exceeded');
    assert.equal(response.body.error.details, { budget_ms: 1 });
    assert.not.match(response.text, /at .*\.ts/);
  }
  const other = await api.get('/v1/analytics/calls?from=2026-03-01&to=2026-03-02');
  assert.is(other.status, 200, other.text);
});

test.after(async () => server.stop());
test.run();

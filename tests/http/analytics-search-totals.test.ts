// End to end over the real server: the search thread remembers exact totals (projections/transcript-search-totals.ts)
// and keeps them current; a search asked again after new transcripts arrive, in its first and later pages, with a
// phrase and with a filter, answers the exact total; another workspace with identical text keeps its own.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient } from '../support/server.ts';

const server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z', WORKER_CONCURRENCY: '2' } });
const api: ApiClient = client(server, (await createWorkspace(server, 'Totals')).key);
const stranger: ApiClient = client(server, (await createWorkspace(server, 'Other')).key);

const ENGLISH = [
  { speaker: 'agent', text: 'Good morning, your loan is due for Renewal.', start_time: 0.5, end_time: 4 },
  { speaker: 'customer', text: 'I want to renew it, the interest is fine.', start_time: 4.5, end_time: 8 },
  { speaker: 'agent', text: 'We will send the loan papers tomorrow.', start_time: 15, end_time: 18 },
];

async function completedJob(as: ApiClient): Promise<void> {
  const submitted = await as.post('/v1/transcription', { transcript: ENGLISH, language: 'en-IN' });
  assert.is(submitted.status, 202, submitted.text);
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const job = await as.get(`/v1/transcription/${submitted.body.job_id}`);
    if (job.body.status === 'completed') return;
    assert.is.not(job.body.status, 'failed', job.text);
  }
  throw new Error('the job did not complete');
}

/** total_matches of each search, in order: one word (two pages), a phrase (5 s rule), a filter. */
async function totals(as: ApiClient): Promise<number[]> {
  const queries: Array<Record<string, string>> = [
    { query: 'renew', limit: '1' },
    { query: 'renew', limit: '1', offset: '1' },
    { query: 'loan interest' },
    { query: 'loan', speaker: 'agent' },
    { query: 'loan', speaker: 'customer' },
  ];
  const found: number[] = [];
  for (const query of queries) {
    const response = await as.get(`/v1/analytics/search?${new URLSearchParams(query)}`);
    assert.is(response.status, 200, response.text);
    found.push(response.body.total_matches);
  }
  return found;
}

test('totals asked again after new transcripts are exact, per workspace', async () => {
  await completedJob(api);
  await completedJob(stranger);
  assert.equal(await totals(api), [2, 2, 1, 2, 0]);
  assert.equal(await totals(api), [2, 2, 1, 2, 0], 'asked again: the same');
  assert.equal(await totals(stranger), [2, 2, 1, 2, 0]);
  await completedJob(api);
  await completedJob(api);
  assert.equal(await totals(api), [6, 6, 3, 6, 0]);
  assert.equal(await totals(stranger), [2, 2, 1, 2, 0], 'identical text in another workspace: its own totals');
  await completedJob(stranger);
  assert.equal(await totals(stranger), [4, 4, 2, 4, 0]);
  assert.equal(await totals(api), [6, 6, 3, 6, 0]);
});

test.after(() => server.stop());
test.run();

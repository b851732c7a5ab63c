// End to end over the real server: GET /v1/analytics/search over transcripts created through the public API
// (transcript-only jobs and a single call's automatic transcript): English and Hindi, filters, pagination,
// isolation with identical text, a Read-Only key, and the 400 envelopes of every bad parameter.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loanRenewalScript } from '../support/scripts.ts';
import { client, createWorkspace, startServer, type ApiClient } from '../support/server.ts';

const server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z', WORKER_CONCURRENCY: '2' } });
const api: ApiClient = client(server, (await createWorkspace(server, 'Search')).key);
const stranger: ApiClient = client(server, (await createWorkspace(server, 'Other')).key);

const ENGLISH = [
  { speaker: 'agent', text: 'Good morning, your loan is due for Renewal.', start_time: 0.5, end_time: 4 },
  { speaker: 'customer', text: 'I want to renew it, the interest is fine.', start_time: 4.5, end_time: 8 },
  { speaker: 'agent', text: 'We will send the papers tomorrow.', start_time: 15, end_time: 18 },
];
const HINDI = [
  { speaker: 'agent', text: 'नमस्ते, आपके ऋण का नवीनीकरण बाकी है।', start_time: 0, end_time: 3 },
  { speaker: 'customer', text: 'हाँ, मुझे क़र्ज़ बढ़ाना है।', start_time: 3.5, end_time: 6 },
];

async function completedJob(as: ApiClient, transcript: unknown[], language: string): Promise<string> {
  const submitted = await as.post('/v1/transcription', { transcript, language });
  assert.is(submitted.status, 202, submitted.text);
  const jobId: string = submitted.body.job_id;
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const job = await as.get(`/v1/transcription/${jobId}`);
    if (job.body.status === 'completed') return jobId;
    assert.is.not(job.body.status, 'failed', job.text);
  }
  throw new Error(`job ${jobId} did not complete`);
}

async function search(query: Record<string, string>, as: ApiClient = api) {
  const response = await as.get(`/v1/analytics/search?${new URLSearchParams(query)}`);
  return response;
}

const englishJob = await completedJob(api, ENGLISH, 'en-IN');
const hindiJob = await completedJob(api, HINDI, 'hi-IN');
const strangerJob = await completedJob(stranger, ENGLISH, 'en-IN');

test('English: a partial word, case-insensitive, the spec\'s fields plus job_id and other_segments', async () => {
  const response = await search({ query: 'renew' });
  assert.is(response.status, 200, response.text);
  assert.equal(Object.keys(response.body), ['query', 'total_matches', 'limit', 'offset', 'results']);
  assert.equal([response.body.query, response.body.total_matches, response.body.limit, response.body.offset], ['renew', 2, 20, 0]);
  const [first, second] = response.body.results;
  assert.equal(first, {
    speaker: 'agent',
    text: 'Good morning, your loan is due for **Renew**al.',
    start_time: 0.5,
    end_time: 4,
    call_id: null,
    job_id: englishJob,
    campaign_id: null,
    contact_name: null,
    timestamp: '2026-03-01T10:00:00.500Z',
    other_segments: [],
  });
  assert.is(second.text, 'I want to **renew** it, the interest is fine.');
});

test('Hindi: a substring of a word, nukta-insensitive, and a two-character query', async () => {
  const renewal = await search({ query: 'नवीनी' });
  assert.equal(renewal.body.results.map((r: any) => [r.job_id, r.text]), [[hindiJob, 'नमस्ते, आपके ऋण का **नवीनी**करण बाकी है।']]);
  const loan = await search({ query: 'कर्ज' });
  assert.equal(loan.body.results.map((r: any) => r.text), ['हाँ, मुझे **क़र्ज़** बढ़ाना है।']);
  const short = await search({ query: 'ऋ' });
  assert.is(short.body.total_matches, 1);
});

test('a phrase: every word within 5 seconds of the first word\'s segment', async () => {
  const near = await search({ query: 'loan interest' });
  assert.is(near.body.total_matches, 1);
  assert.equal(near.body.results[0].other_segments, [{ speaker: 'customer', text: 'I want to renew it, the **interest** is fine.', start_time: 4.5, end_time: 8 }]);
  assert.is((await search({ query: 'loan papers' })).body.total_matches, 0, 'papers is 11 s after loan');
});

test('filters: language, speaker, dates of the transcripts, job versus call ids', async () => {
  assert.is((await search({ query: 'a', language: 'hi-IN' })).body.total_matches, 0);
  assert.is((await search({ query: 'ा', language: 'hi-IN' })).body.total_matches, 2);
  assert.is((await search({ query: 'renew', speaker: 'customer' })).body.total_matches, 1);
  assert.is((await search({ query: 'renew', from: '2026-03-01', to: '2026-03-01' })).body.total_matches, 2);
  assert.is((await search({ query: 'renew', from: '2026-03-02' })).body.total_matches, 0);
  assert.is((await search({ query: 'renew', to: '2026-02-28T23:59:59Z' })).body.total_matches, 0);
  assert.is((await search({ query: 'renew', campaign_id: 'cmp_none' })).body.total_matches, 0);
});

test('pagination: limit and offset over an exact total', async () => {
  const all = await search({ query: 'e' });
  assert.ok(all.body.total_matches >= 3);
  const page = await search({ query: 'e', limit: '1', offset: '1' });
  assert.equal([page.body.total_matches, page.body.limit, page.body.offset], [all.body.total_matches, 1, 1]);
  assert.equal(page.body.results, all.body.results.slice(1, 2));
  const beyond = await search({ query: 'e', offset: '500' });
  assert.equal([beyond.body.total_matches, beyond.body.results], [all.body.total_matches, []]);
});

test('isolation: the same text in another workspace never appears, either way', async () => {
  const mine = await search({ query: 'papers tomorrow' });
  assert.equal(mine.body.results.map((r: any) => r.job_id), [englishJob]);
  const theirs = await search({ query: 'papers tomorrow' }, stranger);
  assert.equal(theirs.body.results.map((r: any) => r.job_id), [strangerJob]);
  assert.is((await search({ query: 'नवीनी' }, stranger)).body.total_matches, 0);
});

test('a single call\'s transcript is searchable with its call id and the call\'s timeline', async () => {
  const scriptId = (await api.post('/v1/scripts', loanRenewalScript())).body.id;
  const placed = await api.post('/v1/calls', { phone: '+919876500003', name: 'Meera', script_id: scriptId, language: 'en-IN', metadata: { amount: 50_000, lender: 'Sahay Finance' }, recording_enabled: false });
  assert.is(placed.status, 201, placed.text);
  let call: any;
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if ((await api.get(`/v1/calls/${placed.body.id}/transcript`)).body.status === 'completed') break;
  }
  call = (await api.get(`/v1/calls/${placed.body.id}`)).body;
  const found = await search({ query: 'meera', call_id: placed.body.id });
  assert.ok(found.body.total_matches >= 1, found.text);
  const result = found.body.results[0];
  assert.equal([result.call_id, result.campaign_id, result.job_id], [placed.body.id, null, call.transcript_job_id]);
  // Beyond the spec: the contact's name, so that hits of many calls can be told apart.
  assert.is(result.contact_name, 'Meera');
  assert.match(result.text, '**Meera**');
  assert.is(result.timestamp, new Date(Date.parse(call.started_at) + Math.round(result.start_time * 1000)).toISOString());
});

test('a Read-Only key may search', async () => {
  const key = await api.post('/v1/api-keys', { name: 'reader', scope: 'Read-Only' });
  const reader = client(server, key.body.key);
  assert.is((await search({ query: 'renew' }, reader)).status, 200);
});

test('bad parameters: 400 invalid_parameter with field, provided and expected', async () => {
  const queryExpected = 'a search text of 1 to 200 characters with at most 10 words';
  const cases: Array<[Record<string, string>, Record<string, unknown>]> = [
    [{}, { field: 'query', provided: null, expected: queryExpected }],
    [{ query: '' }, { field: 'query', provided: '', expected: queryExpected }],
    [{ query: '   ' }, { field: 'query', provided: '   ', expected: 'a search text with at least one character that is not white space' }],
    [{ query: '\u200D' }, { field: 'query', provided: '\u200D', expected: 'a search text with at least one character that is not white space' }],
    [{ query: 'x'.repeat(201) }, { field: 'query', provided: `${'x'.repeat(201).slice(0, 256)}`, expected: queryExpected }],
    [{ query: 'a b c d e f g h i j k' }, { field: 'query', provided: 'a b c d e f g h i j k', expected: queryExpected }],
    [{ query: 'x', limit: '0' }, { field: 'limit', provided: '0', expected: 'an integer from 1 to 100' }],
    [{ query: 'x', limit: '101' }, { field: 'limit', provided: '101', expected: 'an integer from 1 to 100' }],
    [{ query: 'x', offset: '-1' }, { field: 'offset', provided: '-1', expected: 'an integer from 0 to 1000000000' }],
    [{ query: 'x', from: 'yesterday' }, { field: 'from', provided: 'yesterday', expected: 'an ISO 8601 date-time such as 2026-03-01T10:00:00Z, or a date such as 2026-03-01' }],
    [{ query: 'x', from: '2026-03-02', to: '2026-03-01' }, { field: 'to', provided: '2026-03-01', expected: 'a time not before from' }],
    [{ query: 'x', language: 'Hindi' }, { field: 'language', provided: 'Hindi', expected: 'BCP-47 language code <language>-<REGION>, e.g. hi-IN' }],
    // Shaped like BCP-47 but no call can have it: refused as by every other language filter (it answered 200, empty).
    [{ query: 'x', language: 'fr-FR' }, { field: 'language', provided: 'fr-FR', expected: 'one of hi-IN, ta-IN, en-IN, te-IN, mr-IN, en-US, en-GB' }],
    [{ query: 'x', speaker: '' }, { field: 'speaker', provided: '', expected: 'a string of at least 1 character' }],
  ];
  for (const [query, details] of cases) {
    const response = await search(query);
    assert.is(response.status, 400, `${JSON.stringify(query)}: ${response.text}`);
    assert.is(response.body.error.code, 'invalid_parameter');
    assert.equal(response.body.error.details, details, JSON.stringify(query));
  }
});

test('FTS5 syntax and odd input are literal text: never a 500', async () => {
  const queries = ['"', '"renew', '*', 'renew*', 'NEAR(', 'NEAR(loan interest, 2)', '-', '-loan', 'text:loan', ':', '(', ')', '((loan', 'loan OR papers', 'AND', '^', '%', '_', '\\', "'; DROP TABLE search_segments; --", '\u0000', 'x'.repeat(200), '🙂'];
  for (const query of queries) {
    const response = await search({ query });
    assert.is(response.status, 200, `${JSON.stringify(query)}: ${response.text}`);
  }
  assert.is((await search({ query: 'renew*' })).body.total_matches, 0, 'no prefix operator');
  const intact = await search({ query: 'renew' });
  assert.ok(intact.body.results.some((result: any) => result.job_id === englishJob), 'the index is intact');
});

test('the OpenAPI document describes the route and its read scope', async () => {
  const document = (await client(server).get('/v1/openapi.json')).body;
  const operation = document.paths['/analytics/search']?.get ?? document.paths['/v1/analytics/search']?.get;
  assert.ok(operation, 'documented');
  assert.is(operation['x-required-scope'], 'Read-Only');
  assert.ok(operation.parameters.some((parameter: any) => parameter.name === 'query' && parameter.required));
});

test.after(async () => server.stop());
test.run();

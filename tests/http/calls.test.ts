import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callDecider, callStream, type CallCommand } from '../../domain/call.ts';
import { BCP47_DESCRIPTION, SUPPORTED_LANGUAGES_DESCRIPTION } from '../../domain/shared/language.ts';
import { E164_DESCRIPTION } from '../../domain/shared/phone.ts';
import { inProcessApp, type InProcessApp } from '../support/app.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { placeableFacts } from '../support/call-facts.ts';

const FULL_CALL_FIELDS = [
  'agent_id', 'answered_at', 'answered_by', 'attempt', 'caller_id', 'campaign_id', 'contact', 'disposition', 'duration_seconds', 'ended_at', 'escalation', 'failure_reason', 'id',
  'language', 'recording_url', 'script_id', 'script_version', 'started_at', 'status', 'transcript_job_id', 'transfer',
];
const LIST_FIELDS = ['campaign_id', 'contact', 'disposition', 'duration_seconds', 'ended_at', 'id', 'language', 'started_at', 'status'];

/** Single calls over the real server (a call runner, when present, runs them; these tests do not depend on it). */
const calls = suite('calls resource: single calls');
let server: TestServer;
let api: ApiClient;
let scriptId: string;

const metadata = { amount: 50_000, lender: 'Sahay Finance' };

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', metadata, recording_enabled: false, ...overrides };
}

async function invalid(overrides: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await api.post('/v1/calls', body(overrides));
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter');
  return response.body.error.details;
}

calls.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z' } });
  api = client(server, (await createWorkspace(server, 'Calls')).key);
  scriptId = (await api.post('/v1/scripts', loanRenewalScript())).body.id;
});
calls.after(async () => server.stop());

calls('POST: 201 in_progress with every field but duration_seconds; GET and the list see it', async () => {
  const created = await api.post('/v1/calls', body());
  assert.is(created.status, 201, created.text);
  assert.match(created.body.id, /^cal_/);
  assert.equal(created.body, {
    id: created.body.id,
    campaign_id: null,
    contact: { phone: '+919876500003', name: 'Asha' },
    status: 'in_progress',
    disposition: null,
    language: 'hi-IN',
    started_at: '2026-03-01T10:00:00.000Z',
    ended_at: null,
    transcript_job_id: null,
    recording_url: null,
    script_id: scriptId,
    script_version: 1,
    attempt: null,
    answered_at: null,
    caller_id: null,
    answered_by: null,
    agent_id: null,
    escalation: null,
    transfer: null,
    failure_reason: null,
  });
  const read = await api.get(`/v1/calls/${created.body.id}`);
  assert.is(read.status, 200);
  assert.equal(Object.keys(read.body).sort(), FULL_CALL_FIELDS);
  assert.equal([read.body.id, read.body.campaign_id, read.body.contact], [created.body.id, null, created.body.contact]);
  const listed = await api.get('/v1/calls');
  const item = listed.body.data.find((call: { id: string }) => call.id === created.body.id);
  assert.equal(Object.keys(item).sort(), LIST_FIELDS, 'list items carry exactly the spec\'s list fields');
});

calls('a single call says the contact\'s name: {name} in the script is the name it was placed for', async () => {
  const placed = await api.post('/v1/calls', body({ name: 'Meera', language: 'en-IN' }));
  assert.is(placed.status, 201, placed.text);
  let transcript: any;
  for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((resolve) => setTimeout(resolve, 100))) {
    transcript = (await api.get(`/v1/calls/${placed.body.id}/transcript`)).body;
    if (transcript.status === 'completed') break;
  }
  assert.is(transcript.status, 'completed', JSON.stringify(transcript));
  assert.match(transcript.transcript[0].text, 'Namaste Meera, this is Asha from Sahay Finance.');
});

calls('POST validation: phone, name, language, metadata, unknown fields', async () => {
  assert.equal(await invalid({ phone: '09876500003' }), { field: 'phone', provided: '09876500003', expected: E164_DESCRIPTION });
  assert.equal(await invalid({ name: ' ' }), { field: 'name', provided: ' ', expected: 'a non-empty string' });
  assert.equal(await invalid({ language: 'Hindi' }), { field: 'language', provided: 'Hindi', expected: BCP47_DESCRIPTION });
  assert.equal(await invalid({ language: 'de-DE' }), { field: 'language', provided: 'de-DE', expected: SUPPORTED_LANGUAGES_DESCRIPTION });
  assert.equal(await invalid({ metadata: { lender: 'X' } }), { field: 'metadata.amount', provided: null, expected: `a value for {amount}, which script ${scriptId} uses` });
  assert.equal(await invalid({ metadata: { ...metadata, nested: { a: 1 } } }), { field: 'metadata.nested', provided: { a: 1 }, expected: 'a string of at most 1000 characters, a number, a boolean or null (no nested object or list)' });
  assert.equal(await invalid({ metadata: undefined }), { field: 'metadata.amount', provided: null, expected: `a value for {amount}, which script ${scriptId} uses` });
  assert.equal(await invalid({ campaign_id: 'cmp_x' }), { field: 'campaign_id', provided: 'cmp_x', expected: 'only the documented fields' });
  assert.equal(await invalid({ phone: undefined }), { field: 'phone', provided: null, expected: 'a string' });
});

calls('caller_id: an E.164 number the call is placed with, shown on the call; anything else is refused', async () => {
  const placed = await api.post('/v1/calls', body({ phone: '+919876544444', caller_id: '+9116001234567' }));
  assert.is(placed.status, 201, placed.text);
  assert.is(placed.body.caller_id, '+9116001234567');
  assert.is((await api.get(`/v1/calls/${placed.body.id}`)).body.caller_id, '+9116001234567');
  assert.equal(await invalid({ caller_id: '01140000000' }), { field: 'caller_id', provided: '01140000000', expected: E164_DESCRIPTION });
  assert.is((await invalid({ caller_id: 911140000000 })).field, 'caller_id');
});

calls('POST: the script must exist in the workspace and be enabled for single calls', async () => {
  const unknown = await api.post('/v1/calls', body({ script_id: 'scr_nope' }));
  assert.is(unknown.status, 404);
  assert.equal(unknown.body.error.details, { resource_type: 'script', id: 'scr_nope' });
  const campaignOnly = await api.post('/v1/scripts', { ...loanRenewalScript(), single_call_enabled: false });
  assert.equal(await invalid({ script_id: campaignOnly.body.id }), { field: 'script_id', provided: campaignOnly.body.id, expected: 'a script with single_call_enabled: true' });
});

calls('POST: a number on the do-not-call list is 409 number_suppressed; off the list, it may be called again', async () => {
  const phone = '+919876511111';
  assert.is((await api.post('/v1/suppressions', { phone, reason: 'asked' })).status, 201);
  const refused = await api.post('/v1/calls', body({ phone }));
  assert.is(refused.status, 409, refused.text);
  assert.is(refused.body.error.code, 'number_suppressed');
  assert.equal(refused.body.error.details, { phone });
  assert.is((await api.delete(`/v1/suppressions/${encodeURIComponent(phone)}`)).status, 200);
  assert.is((await api.post('/v1/calls', body({ phone }))).status, 201);
});

calls('Idempotency-Key: a retried single call is placed once', async () => {
  const headers = { 'Idempotency-Key': 'single-call-1' };
  const first = await api.post('/v1/calls', body({ phone: '+919876522222' }), { headers });
  const second = await api.post('/v1/calls', body({ phone: '+919876522222' }), { headers });
  assert.equal(second.body, first.body);
  assert.is(second.headers.get('idempotent-replayed'), 'true');
  const listed = await api.get('/v1/calls?limit=100');
  assert.is(listed.body.data.filter((call: { contact: { phone: string } }) => call.contact.phone === '+919876522222').length, 1);
});

calls('workspace isolation: another workspace\'s call is a 404 and its lists are empty', async () => {
  const created = await api.post('/v1/calls', body({ phone: '+919876533333' }));
  const stranger = client(server, (await createWorkspace(server, 'Call stranger')).key);
  const read = await stranger.get(`/v1/calls/${created.body.id}`);
  assert.is(read.status, 404);
  assert.equal(read.body.error, { code: 'resource_not_found', message: read.body.error.message, details: { resource_type: 'call', id: created.body.id } });
  assert.is((await stranger.get('/v1/calls')).body.total, 0);
  const foreignScript = await stranger.post('/v1/calls', body());
  assert.equal([foreignScript.status, foreignScript.body.error.details], [404, { resource_type: 'script', id: scriptId }]);
});

calls.run();

// ---------------------------------------------------------------------------------------------------------------
// List filters need calls with known dispositions, languages, campaigns and start times: their events are written
// directly (as the dialer would), in-process, and the list is read over HTTP.

const lists = suite('calls resource: list filters and pagination');
let harness: InProcessApp;
let key: string;

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await harness.app.request(path, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: await response.json() };
}

lists.before(async () => {
  harness = await inProcessApp();
  const workspace = await harness.workspace('Read-Only');
  key = workspace.key;
  const calls: Array<[string, string | null, 'hi-IN' | 'ta-IN', string, 'interested' | 'not_reachable' | null]> = [
    ['cal_a', 'cmp_1', 'hi-IN', '2026-03-01T09:00:00.000Z', 'interested'],
    ['cal_b', 'cmp_1', 'ta-IN', '2026-03-01T10:00:00.000Z', 'not_reachable'],
    ['cal_c', 'cmp_2', 'hi-IN', '2026-03-02T09:00:00.000Z', 'interested'],
    ['cal_d', null, 'hi-IN', '2026-03-03T09:00:00.000Z', null],
  ];
  let position = 0;
  for (const [callId, campaignId, language, startedAt, disposition] of calls) {
    const commands: CallCommand[] = [
      {
        type: 'PlaceCall',
        facts: placeableFacts(),
        data: {
          call_id: callId,
          workspace_id: workspace.workspaceId,
          campaign_id: campaignId,
          contact_index: campaignId ? 0 : null,
          attempt: campaignId ? 1 : null,
          contact: { phone: '+919876500003', name: 'Asha' },
          language,
          script_id: 'scr_x',
          script_version: 1,
          variables: {},
          recording_enabled: false,
          started_at: startedAt,
        },
      },
    ];
    if (disposition === 'interested') {
      commands.push({ type: 'RecordCallResult', data: { answered_at: startedAt, turns: [], escalation: null, disposition, duration_seconds: 42, ended_at: startedAt } });
    } else if (disposition === 'not_reachable') {
      commands.push({ type: 'EndCall', data: { disposition, duration_seconds: 0, ended_at: startedAt } });
    }
    for (const command of commands) {
      position = (await harness.runtime.commands.handle(callDecider, callStream(callId), command, { workspaceId: workspace.workspaceId, actor: 'dialer', now: new Date() })).position;
    }
  }
  await harness.runtime.projections.waitForPosition(position);
});
lists.after(async () => harness.close());

const ids = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((call) => call.id);

lists('newest first, paginated, with the total', async () => {
  const first = await get('/v1/calls?limit=3');
  assert.equal(ids(first), ['cal_d', 'cal_c', 'cal_b']);
  assert.equal([first.body.total, first.body.limit, first.body.offset], [4, 3, 0]);
  assert.equal(ids(await get('/v1/calls?limit=3&offset=3')), ['cal_a']);
  assert.equal(first.body.data[1], {
    id: 'cal_c',
    campaign_id: 'cmp_2',
    contact: { phone: '+919876500003', name: 'Asha' },
    status: 'completed',
    disposition: 'interested',
    duration_seconds: 42,
    language: 'hi-IN',
    started_at: '2026-03-02T09:00:00.000Z',
    ended_at: '2026-03-02T09:00:00.000Z',
  });
});

lists('filters: campaign_id, disposition, language, from/to on started_at, and combined', async () => {
  assert.equal(ids(await get('/v1/calls?campaign_id=cmp_1')), ['cal_b', 'cal_a']);
  assert.equal(ids(await get('/v1/calls?disposition=interested')), ['cal_c', 'cal_a']);
  assert.equal(ids(await get('/v1/calls?disposition=not_reachable')), ['cal_b']);
  assert.equal(ids(await get('/v1/calls?language=ta-IN')), ['cal_b']);
  assert.equal(ids(await get('/v1/calls?from=2026-03-01T10:00:00Z&to=2026-03-02T09:00:00Z')), ['cal_c', 'cal_b'], 'both bounds inclusive');
  assert.equal(ids(await get('/v1/calls?from=2026-03-02')), ['cal_d', 'cal_c']);
  assert.equal(ids(await get('/v1/calls?to=2026-03-01')), ['cal_b', 'cal_a'], 'a date as `to` is the end of that day');
  const combined = await get('/v1/calls?campaign_id=cmp_1&disposition=interested&language=hi-IN&from=2026-03-01&to=2026-03-01');
  assert.equal(ids(combined), ['cal_a']);
  assert.is(combined.body.total, 1);
  assert.is((await get('/v1/calls?campaign_id=cmp_nope')).body.total, 0);
});

lists('filter validation: the parameter, the value and what was expected', async () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['disposition=happy', { field: 'disposition', provided: 'happy', expected: 'one of "interested", "not_interested", "callback", "not_reachable", "dnd", "escalated"' }],
    ['language=hindi', { field: 'language', provided: 'hindi', expected: BCP47_DESCRIPTION }],
    ['from=yesterday', { field: 'from', provided: 'yesterday', expected: 'an ISO 8601 date-time such as 2026-03-01T10:00:00Z, or a date such as 2026-03-01' }],
    ['from=2026-03-02&to=2026-03-01T23:00:00Z', { field: 'to', provided: '2026-03-01T23:00:00Z', expected: 'a time not before from' }],
    ['limit=101', { field: 'limit', provided: '101', expected: 'an integer from 1 to 100' }],
  ];
  for (const [query, details] of cases) {
    const response = await get(`/v1/calls?${query}`);
    assert.is(response.status, 400, query);
    assert.equal(response.body.error.details, details);
  }
});

lists.run();

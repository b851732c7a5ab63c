import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { campaignDecider, campaignStream } from '../../domain/campaign.ts';
import { BCP47_DESCRIPTION, SUPPORTED_LANGUAGES_DESCRIPTION } from '../../domain/shared/language.ts';
import { E164_DESCRIPTION } from '../../domain/shared/phone.ts';
import { deterministicId } from '../../domain/shared/deterministic-id.ts';
import { inProcessApp } from '../support/app.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';

/**
 * Campaigns over the real server on a manual clock (10:00 UTC). Campaigns that are started here have calling
 * hours 22:00-23:00, so a dialer never places a call while a test looks at their states.
 */
const campaigns = suite('campaigns resource');
let server: TestServer;
let api: ApiClient;
let scriptId: string;

const CLOSED_HOURS = { start: '22:00', end: '23:00' };

function contacts(count: number, first = 0): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => ({
    phone: `+9198765${String(first + index).padStart(5, '0')}`,
    name: `Customer ${first + index}`,
    amount: 1000 * (index + 1),
    lender: 'Sahay Finance',
  }));
}

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'March renewals', script_id: scriptId, language: 'hi-IN', contacts: contacts(3), calling_hours: CLOSED_HOURS, ...overrides };
}

async function create(overrides: Record<string, unknown> = {}, as: ApiClient = api) {
  const response = await as.post('/v1/campaigns', body(overrides));
  assert.is(response.status, 201, response.text);
  return response.body;
}

async function invalid(overrides: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await api.post('/v1/campaigns', body(overrides));
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter');
  return response.body.error.details;
}

async function advance(seconds: number): Promise<string> {
  const response = await api.post('/v1/sandbox/clock', { advance_seconds: seconds });
  assert.is(response.status, 200, response.text);
  return response.body.now;
}

campaigns.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-01T10:00:00Z' } });
  api = client(server, (await createWorkspace(server, 'Campaigns')).key);
  const script = await api.post('/v1/scripts', loanRenewalScript());
  scriptId = script.body.id;
});
campaigns.after(async () => server.stop());

campaigns('create: 201 scheduled, the create and detail fields, defaults, the pinned script version; GET sees it', async () => {
  const created = await create({ schedule: { start_time: '2026-03-05T09:00:00', end_time: '2026-03-05T18:00:00', timezone: 'Asia/Kolkata' } });
  assert.match(created.id, /^cmp_/);
  assert.equal(created, {
    id: created.id,
    name: 'March renewals',
    status: 'scheduled',
    script_id: scriptId,
    script_version: 1,
    language: 'hi-IN',
    total_contacts: 3,
    max_attempts: 1,
    retry_interval_minutes: 240,
    schedule: { start_time: '2026-03-05T09:00:00', end_time: '2026-03-05T18:00:00', timezone: 'Asia/Kolkata' },
    calling_hours: CLOSED_HOURS,
    recording_enabled: true,
    purpose: 'service',
    caller_id: null,
    voicemail: 'hang_up',
    created_at: '2026-03-01T10:00:00.000Z',
    started_at: null,
    ended_at: null,
    completion_reason: null,
    calls_made: 0,
    calls_connected: 0,
    disposition_summary: { interested: 0, not_interested: 0, callback: 0, not_reachable: 0, dnd: 0, escalated: 0 },
  });
  const read = await api.get(`/v1/campaigns/${created.id}`);
  assert.is(read.status, 200);
  assert.equal(read.body, created);

  // A new script version does not change the campaign; a later campaign pins the new one.
  const changed = loanRenewalScript();
  changed.steps[3]!.say = 'Goodbye {name}.';
  assert.is((await api.put(`/v1/scripts/${scriptId}`, changed)).body.version, 2);
  assert.is((await api.get(`/v1/campaigns/${created.id}`)).body.script_version, 1);
  assert.is((await create()).script_version, 2);
});

campaigns('create: the optional settings as given', async () => {
  const created = await create({ max_attempts: 3, retry_interval_minutes: 30, recording_enabled: false, calling_hours: null, caller_id: '+911600123456' });
  assert.equal([created.max_attempts, created.retry_interval_minutes, created.recording_enabled, created.calling_hours, created.schedule, created.caller_id], [3, 30, false, null, null, '+911600123456']);
  assert.is((await api.get(`/v1/campaigns/${created.id}`)).body.caller_id, '+911600123456');
  // A name's 255 characters are code points, as the spec and the document's maxLength count them: 128 emoji are 128
  // (in a workspace of its own: the validation test checks every campaign here is named as its valid body).
  const emoji = client(server, (await createWorkspace(server, 'Emoji names')).key);
  const scriptOfEmoji = (await emoji.post('/v1/scripts', loanRenewalScript())).body.id as string;
  assert.is((await emoji.post('/v1/campaigns', body({ name: '😀'.repeat(128), script_id: scriptOfEmoji }))).status, 201);
});

campaigns('validation: every rule of the body, with the field, the value and what was expected', async () => {
  assert.equal(await invalid({ name: 'x'.repeat(256) }), { field: 'name', provided: 'x'.repeat(256), expected: 'a non-empty string of at most 255 characters' });
  assert.equal(await invalid({ name: '   ' }), { field: 'name', provided: '   ', expected: 'a non-empty string of at most 255 characters' });
  const tooLong = await invalid({ name: '😀'.repeat(256) });
  assert.equal([tooLong.field, tooLong.expected], ['name', 'a non-empty string of at most 255 characters']);
  assert.equal(await invalid({ language: 'hindi' }), { field: 'language', provided: 'hindi', expected: BCP47_DESCRIPTION });
  assert.equal(await invalid({ voicemail: 'beep' }), { field: 'voicemail', provided: 'beep', expected: 'hang_up or leave_message' });
  assert.equal(await invalid({ voicemail: 'leave_message' }), { field: 'voicemail', provided: 'leave_message', expected: 'hang_up, or a script with a step whose id is "voicemail"' });
  assert.equal(await invalid({ caller_id: '1600123456' }), { field: 'caller_id', provided: '1600123456', expected: E164_DESCRIPTION });
  assert.equal(await invalid({ language: 'fr-FR' }), { field: 'language', provided: 'fr-FR', expected: SUPPORTED_LANGUAGES_DESCRIPTION });
  const badPhone = contacts(5);
  badPhone[3]!.phone = '98765 43210';
  assert.equal(await invalid({ contacts: badPhone }), { field: 'contacts[3].phone', provided: '98765 43210', expected: E164_DESCRIPTION });
  assert.equal(await invalid({ contacts: [] }), { field: 'contacts', provided: [], expected: 'a non-empty array of at most 100000 contacts' });
  assert.equal(await invalid({ max_attempts: 0 }), { field: 'max_attempts', provided: 0, expected: 'an integer from 1 to 5' });
  assert.equal(await invalid({ max_attempts: 6 }), { field: 'max_attempts', provided: 6, expected: 'an integer from 1 to 5' });
  assert.equal(await invalid({ max_attempts: 1.5 }), { field: 'max_attempts', provided: 1.5, expected: 'an integer from 1 to 5' });
  assert.equal(await invalid({ retry_interval_minutes: 0 }), { field: 'retry_interval_minutes', provided: 0, expected: 'an integer from 1 to 43200' });
  assert.equal(await invalid({ schedule: { start_time: '2026-03-05T18:00:00', end_time: '2026-03-05T09:00:00' } }), {
    field: 'schedule.end_time',
    provided: '2026-03-05T09:00:00',
    expected: 'a time after start_time',
  });
  assert.equal(await invalid({ schedule: { start_time: 'tomorrow' } }), { field: 'schedule.start_time', provided: 'tomorrow', expected: 'an ISO 8601 date-time' });
  // Days that do not exist are refused, not rolled over to the next month (2027-02-30 was dialed on March 2).
  assert.equal(await invalid({ schedule: { start_time: '2027-02-30T10:00:00Z' } }), { field: 'schedule.start_time', provided: '2027-02-30T10:00:00Z', expected: 'an ISO 8601 date-time' });
  assert.equal(await invalid({ schedule: { start_time: '2027-06-31T10:00:00' } }), { field: 'schedule.start_time', provided: '2027-06-31T10:00:00', expected: 'an ISO 8601 date-time' });
  assert.equal(await invalid({ schedule: { start_time: '2027-03-05T09:00:00', end_time: '2027-02-29T18:00:00+05:30' } }), {
    field: 'schedule.end_time',
    provided: '2027-02-29T18:00:00+05:30',
    expected: 'an ISO 8601 date-time',
  });
  assert.equal(await invalid({ schedule: { start_time: '2026-03-05T09:00:00', timezone: 'Mars/Olympus' } }), {
    field: 'schedule.timezone',
    provided: 'Mars/Olympus',
    expected: 'an IANA timezone name, e.g. Asia/Kolkata',
  });
  assert.equal(await invalid({ calling_hours: { start: '9am', end: '21:00' } }), {
    field: 'calling_hours',
    provided: { start: '9am', end: '21:00' },
    expected: 'an object {start: "HH:MM", end: "HH:MM"} with start different from end',
  });
  const missingVariable = contacts(20);
  delete missingVariable[17]!.amount;
  delete missingVariable[19]!.amount;
  assert.equal(await invalid({ contacts: missingVariable }), { field: 'contacts[17].amount', provided: null, expected: `a value for {amount}, which script ${scriptId} uses` });
  const nullVariable = contacts(2);
  nullVariable[1]!.lender = null;
  assert.equal(await invalid({ contacts: nullVariable }), { field: 'contacts[1].lender', provided: null, expected: `a value for {lender}, which script ${scriptId} uses` });
  const duplicate = contacts(3);
  duplicate[2]!.phone = duplicate[0]!.phone;
  assert.equal(await invalid({ contacts: duplicate }), {
    field: 'contacts[2].phone',
    provided: duplicate[0]!.phone,
    expected: 'a phone not already in the campaign (same as contacts[0].phone)',
  });
  const noName = contacts(2);
  delete noName[1]!.name;
  assert.equal(await invalid({ contacts: noName }), { field: 'contacts[1].name', provided: null, expected: 'a non-empty string' });
  // The schema only asks for an object (zod's loose objects cost the event loop 15 times more); the domain checks the rest.
  assert.equal(await invalid({ contacts: [contacts(1)[0], 'Asha'] }), { field: 'contacts[1]', provided: 'Asha', expected: 'an object with phone and name' });
  assert.equal(await invalid({ contacts: [contacts(1)[0], [1]] }), { field: 'contacts[1]', provided: [1], expected: 'an object with phone and name' });
  assert.equal(await invalid({ schedul: { start_time: '2026-03-05T09:00:00' } }), { field: 'schedul', provided: { start_time: '2026-03-05T09:00:00' }, expected: 'only the documented fields' });
  assert.equal(await invalid({ script_id: undefined }), { field: 'script_id', provided: null, expected: 'a string' });

  const unknownScript = await api.post('/v1/campaigns', body({ script_id: 'scr_nope' }));
  assert.is(unknownScript.status, 404);
  assert.equal(unknownScript.body.error.details, { resource_type: 'script', id: 'scr_nope' });
  const listed = await api.get('/v1/campaigns?limit=100');
  assert.ok(listed.body.data.every((campaign: { name: string }) => campaign.name === 'March renewals'), 'nothing invalid was created');
});

campaigns('limit: 100,000 contacts in one request are accepted (and projected); 100,001 are refused', async () => {
  const many = Array.from({ length: 100_000 }, (_, index) => ({ phone: `+91700${String(index).padStart(7, '0')}`, name: 'C', amount: index, lender: 'L' }));
  const started = performance.now();
  const created = await api.post('/v1/campaigns', body({ contacts: many }));
  const seconds = (performance.now() - started) / 1000;
  assert.is(created.status, 201, created.text);
  assert.is(created.body.total_contacts, 100_000);
  assert.is((await api.get(`/v1/campaigns/${created.body.id}`)).body.total_contacts, 100_000);
  console.log(`    create with 100,000 contacts over HTTP: ${seconds.toFixed(2)} s`);
  // The target is 5 s (bench:dialer measures it); on a loaded two-core test machine only a gross regression fails.
  assert.ok(seconds < 15, `create took ${seconds.toFixed(2)} s`);
  many.push({ phone: '+919999999999', name: 'C', amount: 1, lender: 'L' });
  const refused = await api.post('/v1/campaigns', body({ contacts: many }));
  assert.is(refused.status, 400);
  assert.equal(refused.body.error.details, { field: 'contacts', provided: '[an array of 100001 items]', expected: 'a non-empty array of at most 100000 contacts' });
});

campaigns('PATCH: start, pause, resume, stop, and every refused move is 409 invalid_state naming the campaign', async () => {
  const { id } = await create();
  const act = (action: string) => api.patch(`/v1/campaigns/${id}`, { action });
  const refused = async (action: string, status: string) => {
    const response = await act(action);
    assert.is(response.status, 409, `${action} from ${status}: ${response.text}`);
    assert.is(response.body.error.code, 'invalid_state');
    assert.equal(response.body.error.details, { resource_type: 'campaign', id, status, action });
  };
  await refused('pause', 'scheduled');
  await refused('resume', 'scheduled');
  const started = await act('start');
  assert.is(started.status, 200, started.text);
  assert.is(started.body.status, 'running');
  assert.is(started.body.started_at, '2026-03-01T10:00:00.000Z');
  assert.is((await api.get(`/v1/campaigns/${id}`)).body.status, 'running', 'read-your-writes');
  await refused('start', 'running');
  await refused('resume', 'running');
  assert.is((await act('pause')).body.status, 'paused');
  await refused('pause', 'paused');
  await refused('start', 'paused');
  assert.is((await act('resume')).body.status, 'running');
  const stopped = await act('stop');
  assert.is(stopped.body.status, 'stopped');
  assert.is(stopped.body.ended_at, '2026-03-01T10:00:00.000Z');
  await refused('resume', 'stopped');
  await refused('pause', 'stopped');
  await refused('stop', 'stopped');
  await refused('start', 'stopped');

  // Stop from scheduled cancels a campaign before it begins.
  const other = await create();
  assert.is((await api.patch(`/v1/campaigns/${other.id}`, { action: 'stop' })).body.status, 'stopped');

  const badAction = await act('restart');
  assert.is(badAction.status, 400);
  assert.equal(badAction.body.error.details, { field: 'action', provided: 'restart', expected: 'one of "start", "pause", "resume", "stop"' });
});

campaigns('remove contacts: pending ones are removed, unknown ones not found; total_contacts keeps counting; refused when stopped', async () => {
  const campaign = await create({ contacts: contacts(4, 100) });
  const phones = contacts(4, 100).map((contact) => contact.phone as string);
  const response = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { body: { phones: [phones[0], phones[1], phones[1], '+919000000001'] } });
  assert.is(response.status, 200, response.text);
  assert.equal(response.body, { removed: 2, not_found: 1, already_called: 0 }, 'a phone repeated in one request counts once');
  const again = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { body: { phones: [phones[0]] } });
  assert.equal(again.body, { removed: 1, not_found: 0, already_called: 0 }, 'repeating a removal reports the same');
  assert.is((await api.get(`/v1/campaigns/${campaign.id}`)).body.total_contacts, 4);

  const badPhone = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { body: { phones: [phones[2], '12345'] } });
  assert.is(badPhone.status, 400);
  assert.equal(badPhone.body.error.details, { field: 'phones[1]', provided: '12345', expected: E164_DESCRIPTION });
  const empty = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { body: { phones: [] } });
  assert.equal(empty.body.error.details, { field: 'phones', provided: [], expected: 'a non-empty array of at most 100000 phones' });
  const noBody = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`);
  assert.is(noBody.status, 400);
  assert.is(noBody.body.error.details.field, 'body');

  await api.patch(`/v1/campaigns/${campaign.id}`, { action: 'stop' });
  const afterStop = await api.request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { body: { phones: [phones[2]] } });
  assert.is(afterStop.status, 409);
  assert.equal(afterStop.body.error.details, { resource_type: 'campaign', id: campaign.id, status: 'stopped', action: 'remove_contacts' });
});

campaigns('list: newest first, status and created_at filters, pagination, and their validation', async () => {
  const lister = client(server, (await createWorkspace(server, 'Campaign lists')).key);
  const listerScript = (await lister.post('/v1/scripts', loanRenewalScript())).body.id;
  const ids: string[] = [];
  const times: string[] = [];
  for (let index = 0; index < 4; index++) {
    times.push(await advance(3600));
    ids.push((await create({ name: `List ${index}`, script_id: listerScript }, lister)).id);
  }
  await lister.patch(`/v1/campaigns/${ids[1]}`, { action: 'stop' });
  const page = (query: string) => lister.get(`/v1/campaigns${query}`);
  const idsOf = (response: { body: { data: Array<{ id: string }> } }) => response.body.data.map((campaign) => campaign.id);

  const first = await page('?limit=3');
  assert.equal(idsOf(first), [ids[3], ids[2], ids[1]]);
  assert.equal([first.body.total, first.body.limit, first.body.offset], [4, 3, 0]);
  assert.equal(Object.keys(first.body.data[0]).sort(), Object.keys((await lister.get(`/v1/campaigns/${ids[3]}`)).body).sort(), 'list items are the detail document');
  assert.equal(idsOf(await page('?limit=3&offset=3')), [ids[0]]);
  assert.equal((await page('?offset=10')).body.data, []);
  assert.equal(idsOf(await page('?status=stopped')), [ids[1]]);
  assert.equal(idsOf(await page('?status=scheduled')), [ids[3], ids[2], ids[0]]);
  assert.equal(idsOf(await page(`?from=${times[1]}&to=${times[2]}`)), [ids[2], ids[1]], 'both bounds inclusive');
  assert.equal(idsOf(await page(`?from=${encodeURIComponent('2026-03-01T17:30:00+05:30')}`)), [ids[3], ids[2], ids[1]], 'an offset is an instant (12:00Z)');
  assert.equal(idsOf(await page('?from=2026-03-01&to=2026-03-01&status=scheduled')), [ids[3], ids[2], ids[0]], 'a date is its whole UTC day');
  assert.is((await page('?to=2026-02-28')).body.total, 0);

  const badStatus = await page('?status=done');
  assert.is(badStatus.status, 400);
  assert.equal(badStatus.body.error.details, { field: 'status', provided: 'done', expected: 'one of "scheduled", "running", "paused", "completed", "stopped"' });
  const badFrom = await page('?from=2026-02-30');
  assert.equal(badFrom.body.error.details, { field: 'from', provided: '2026-02-30', expected: 'an ISO 8601 date-time such as 2026-03-01T10:00:00Z, or a date such as 2026-03-01' });
  // The end of 9999-12-31 is past a four-digit year: refused, as every date after LATEST_YEAR.
  const farTo = await page('?to=9999-12-31');
  assert.equal(farTo.body.error.details, { field: 'to', provided: '9999-12-31', expected: 'an ISO 8601 date-time such as 2026-03-01T10:00:00Z, or a date such as 2026-03-01' });
  const reversed = await page('?from=2026-03-02&to=2026-03-01');
  assert.equal(reversed.body.error.details, { field: 'to', provided: '2026-03-01', expected: 'a time not before from' });
  assert.equal((await page('?limit=0')).body.error.details, { field: 'limit', provided: '0', expected: 'an integer from 1 to 100' });
});

campaigns('workspace isolation: another workspace\'s campaign is a 404 everywhere and absent from lists', async () => {
  const mine = await create();
  const stranger = client(server, (await createWorkspace(server, 'Stranger')).key);
  const notFound = { resource_type: 'campaign', id: mine.id };
  for (const response of [
    await stranger.get(`/v1/campaigns/${mine.id}`),
    await stranger.patch(`/v1/campaigns/${mine.id}`, { action: 'stop' }),
    await stranger.request('DELETE', `/v1/campaigns/${mine.id}/contacts`, { body: { phones: ['+919876500000'] } }),
  ]) {
    assert.is(response.status, 404, response.text);
    assert.is(response.body.error.code, 'resource_not_found');
    assert.equal(response.body.error.details, notFound);
  }
  assert.is((await stranger.get('/v1/campaigns')).body.total, 0);
  assert.is((await api.get(`/v1/campaigns/${mine.id}`)).body.status, 'scheduled', 'the stranger\'s stop did nothing');
  // The script of another workspace does not exist for the stranger either.
  const foreignScript = await stranger.post('/v1/campaigns', body());
  assert.equal([foreignScript.status, foreignScript.body.error.details], [404, { resource_type: 'script', id: scriptId }]);
});

campaigns('Idempotency-Key: a retried create answers the same campaign and creates nothing new', async () => {
  const keyed = client(server, (await createWorkspace(server, 'Idempotent')).key);
  const headers = { 'Idempotency-Key': 'b0f5c1d2-campaign-1' };
  const script = await keyed.post('/v1/scripts', loanRenewalScript());
  const request = { ...body({ script_id: script.body.id }) };
  const first = await keyed.post('/v1/campaigns', request, { headers });
  const second = await keyed.post('/v1/campaigns', request, { headers });
  assert.is(first.status, 201);
  assert.is(second.status, 201);
  assert.is(second.headers.get('idempotent-replayed'), 'true');
  assert.equal(second.body, first.body);
  assert.is((await keyed.get('/v1/campaigns')).body.total, 1);
  const reused = await keyed.post('/v1/campaigns', { ...request, name: 'Other' }, { headers });
  assert.is(reused.status, 409);
  assert.is(reused.body.error.code, 'idempotency_key_reused');
});

campaigns('a script used by an unfinished campaign cannot be deleted; once the campaign is stopped it can', async () => {
  const script = await api.post('/v1/scripts', loanRenewalScript());
  const campaign = await create({ script_id: script.body.id });
  const refused = await api.delete(`/v1/scripts/${script.body.id}`);
  assert.is(refused.status, 409, refused.text);
  assert.is(refused.body.error.code, 'invalid_state');
  assert.is(refused.body.error.details.active_campaigns, 1);
  await api.patch(`/v1/campaigns/${campaign.id}`, { action: 'stop' });
  assert.is((await api.delete(`/v1/scripts/${script.body.id}`)).status, 200);
  const deletedScript = await api.post('/v1/campaigns', body({ script_id: script.body.id }));
  assert.equal([deletedScript.status, deletedScript.body.error.details], [404, { resource_type: 'script', id: script.body.id }]);
});

campaigns.run();

// ---------------------------------------------------------------------------------------------------------------
// Removing a contact already called needs a dialed contact. Without waiting for a dialer, the attempt is reserved
// directly on the campaign aggregate (what the dialer does before it dials), in-process, then removal is asked
// over HTTP.

const dialed = suite('campaigns resource: contacts already called');

dialed('a contact whose attempt has started counts as already_called and stays', async () => {
  const harness = await inProcessApp();
  try {
    const { key, workspaceId } = await harness.workspace('Read-Write');
    const request = (method: string, path: string, payload?: unknown) =>
      harness.app.request(path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      });
    const script = (await (await request('POST', '/v1/scripts', loanRenewalScript())).json()) as { id: string };
    const created = await request('POST', '/v1/campaigns', { name: 'Dialed', script_id: script.id, language: 'en-IN', contacts: contacts(3, 200), calling_hours: CLOSED_HOURS });
    assert.is(created.status, 201);
    const campaign = (await created.json()) as { id: string };
    assert.is((await request('PATCH', `/v1/campaigns/${campaign.id}`, { action: 'start' })).status, 200);
    await harness.runtime.commands.handle(
      campaignDecider,
      campaignStream(campaign.id),
      { type: 'StartContactAttempt', data: { contact_index: 1, attempt: 1, call_id: deterministicId('cal', campaign.id, 1, 1), at: new Date().toISOString() } },
      { workspaceId, actor: 'dialer', now: new Date() },
    );
    const phones = contacts(3, 200).map((contact) => contact.phone);
    const removed = await request('DELETE', `/v1/campaigns/${campaign.id}/contacts`, { phones: [phones[0], phones[1], '+911234567890'] });
    assert.is(removed.status, 200);
    assert.equal(await removed.json(), { removed: 1, not_found: 1, already_called: 1 });
    await harness.runtime.projections.catchUp();
    const detail = (await (await request('GET', `/v1/campaigns/${campaign.id}`)).json()) as { total_contacts: number; calls_made: number; status: string };
    assert.equal([detail.total_contacts, detail.calls_made, detail.status], [3, 1, 'running']);
  } finally {
    await harness.close();
  }
});

dialed.run();

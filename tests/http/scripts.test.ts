import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { inProcessApp } from '../support/app.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';

const scripts = suite('scripts resource');
let server: TestServer;
let api: ApiClient;

function script(): ReturnType<typeof loanRenewalScript> {
  return loanRenewalScript();
}

async function invalid(body: unknown): Promise<Record<string, unknown>> {
  const response = await api.post('/v1/scripts', body);
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter');
  return response.body.error.details;
}

scripts.before(async () => {
  server = await startServer();
  api = client(server, (await createWorkspace(server, 'Scripts')).key);
});
scripts.after(async () => server.stop());

scripts('create: 201 with version 1, sorted variables, and an immediate GET sees it', async () => {
  const created = await api.post('/v1/scripts', script());
  assert.is(created.status, 201);
  assert.match(created.body.id, /^scr_/);
  assert.equal(Object.keys(created.body).sort(), ['created_at', 'id', 'name', 'single_call_enabled', 'steps', 'updated_at', 'variables', 'version']);
  assert.is(created.body.version, 1);
  assert.equal(created.body.variables, ['amount', 'lender', 'name']);
  assert.equal(created.body.steps, script().steps);
  assert.is(created.body.created_at, created.body.updated_at);
  const read = await api.get(`/v1/scripts/${created.body.id}`);
  assert.is(read.status, 200);
  assert.equal(read.body, created.body);
});

scripts('single_call_enabled defaults to false', async () => {
  const { single_call_enabled: _omitted, ...body } = script();
  const created = await api.post('/v1/scripts', body);
  assert.is(created.body.single_call_enabled, false);
});

scripts('versions: PUT publishes version 2, version 1 stays readable; the same content again changes nothing', async () => {
  const created = await api.post('/v1/scripts', script());
  const id = created.body.id;
  const changed = script();
  changed.steps[3]!.say = 'Goodbye {name}, thank you.';
  const updated = await api.put(`/v1/scripts/${id}`, changed);
  assert.is(updated.status, 200);
  assert.is(updated.body.version, 2);
  assert.is(updated.body.created_at, created.body.created_at);
  assert.ok(updated.body.updated_at >= created.body.updated_at);
  assert.is((await api.get(`/v1/scripts/${id}`)).body.version, 2);
  const first = await api.get(`/v1/scripts/${id}?version=1`);
  assert.is(first.body.version, 1);
  assert.is(first.body.steps[3].say, 'Thank you for your time.');
  const repeated = await api.put(`/v1/scripts/${id}`, changed);
  assert.is(repeated.body.version, 2, 'an identical PUT is not a new version');
  const missing = await api.get(`/v1/scripts/${id}?version=3`);
  assert.is(missing.status, 404);
  assert.equal(missing.body.error.details, { resource_type: 'script_version', id, version: 3 });
  const badVersion = await api.get(`/v1/scripts/${id}?version=0`);
  assert.equal(badVersion.body.error.details, { field: 'version', provided: '0', expected: 'an integer from 1 to 1000000' });
});

scripts('list: summaries (no steps) in the list envelope, newest first', async () => {
  const listed = await api.get('/v1/scripts?limit=2');
  assert.is(listed.status, 200);
  assert.is(listed.body.limit, 2);
  assert.is(listed.body.data.length, 2);
  assert.ok(listed.body.total >= 3);
  assert.equal(Object.keys(listed.body.data[0]).sort(), ['created_at', 'id', 'name', 'single_call_enabled', 'updated_at', 'variables', 'version']);
  assert.ok(listed.body.data[0].created_at >= listed.body.data[1].created_at);
});

scripts('list pages are never stale: a create, a new version and a delete show on the very next list', async () => {
  const own = client(server, (await createWorkspace(server, 'Fresh lists')).key);
  const page = async () => (await own.get('/v1/scripts?limit=5')).body;
  assert.is((await page()).total, 0, 'read once: the empty page is now held in memory');
  const created = await own.post('/v1/scripts', { ...script(), name: 'First' });
  let listed = await page();
  assert.is(listed.total, 1);
  assert.equal(listed.data.map((item: { name: string; version: number }) => [item.name, item.version]), [['First', 1]]);
  await own.put(`/v1/scripts/${created.body.id}`, { ...script(), name: 'Renamed' });
  listed = await page();
  assert.equal(listed.data.map((item: { name: string; version: number }) => [item.name, item.version]), [['Renamed', 2]]);
  await own.delete(`/v1/scripts/${created.body.id}`);
  listed = await page();
  assert.is(listed.total, 0);
  assert.equal(listed.data, []);
});

scripts('validation: shape errors name the field path, the value and what was expected', async () => {
  const badKey = script();
  (badKey.steps[1]!.listen!.routes[0] as { dtmf: string }).dtmf = '1#';
  const keys = 'one keypad key (0-9, * or #) or 2 to 8 keys of 0-9 and * (# ends an entry)';
  assert.equal(await invalid(badKey), { field: 'steps[1].listen.routes[0].dtmf', provided: '1#', expected: keys });
  (badKey.steps[1]!.listen!.routes[0] as { dtmf: string }).dtmf = '123456789';
  assert.equal(await invalid(badKey), { field: 'steps[1].listen.routes[0].dtmf', provided: '123456789', expected: keys });

  const badIntent = script();
  (badIntent.steps[1]!.listen!.routes[2] as { intent: string }).intent = 'maybe';
  assert.equal(await invalid(badIntent), {
    field: 'steps[1].listen.routes[2].intent',
    provided: 'maybe',
    expected: 'one of "affirm", "deny", "callback_later", "request_human", "stop_calling", "wrong_person"',
  });

  const badDisposition = script();
  (badDisposition.steps[1]!.listen!.routes[1] as { disposition: string }).disposition = 'happy';
  assert.is((await invalid(badDisposition)).field, 'steps[1].listen.routes[1].disposition');

  const typo = script() as unknown as { steps: Array<Record<string, unknown>> };
  typo.steps[0]!.sya = 'Hello';
  assert.equal(await invalid(typo), { field: 'steps[0].sya', provided: 'Hello', expected: 'only the documented fields' });

  const noName = { ...script(), name: undefined };
  assert.equal(await invalid(noName), { field: 'name', provided: null, expected: 'a string' });
  // A name's limit counts characters (code points), as the document's maxLength does: 128 emoji are 128.
  assert.is((await api.post('/v1/scripts', { ...script(), name: '😀'.repeat(128) })).status, 201);
  const tooLong = await invalid({ ...script(), name: 'x'.repeat(256) });
  assert.equal([tooLong.field, tooLong.expected], ['name', 'a string of at most 255 characters']);

  const noSay = script() as unknown as { steps: Array<Record<string, unknown>> };
  delete noSay.steps[2]!.say;
  assert.equal(await invalid(noSay), { field: 'steps[2].say', provided: null, expected: 'a string' });

  assert.equal(await invalid({ ...script(), steps: [] }), { field: 'steps', provided: [], expected: 'at least 1 item' });
});

scripts('validation: graph errors name the field path too', async () => {
  const unknownNext = script();
  unknownNext.steps[1]!.listen!.routes[2]!.next = 'later';
  assert.equal(await invalid(unknownNext), { field: 'steps[1].listen.routes[2].next', provided: 'later', expected: 'the id of a step: greet, offer, thanks, bye' });

  const duplicate = script();
  duplicate.steps[3]!.id = 'thanks';
  // The first problem is reported; `other_problems` counts the rest (here: four routes still name the lost `bye`).
  assert.equal(await invalid(duplicate), { field: 'steps[3].id', provided: 'thanks', expected: 'a step id used by no other step', other_problems: 4 });

  const sameKey = script();
  sameKey.steps[1]!.listen!.routes[4]!.dtmf = '1';
  assert.equal(await invalid(sameKey), { field: 'steps[1].listen.routes[4].dtmf', provided: '1', expected: 'a key no other route of this step uses' });

  const unreachable = script();
  unreachable.steps.push({ id: 'orphan', say: 'Nobody hears this.', end: true });
  assert.equal(await invalid(unreachable), { field: 'steps[4].id', provided: 'orphan', expected: 'a step reachable from the first step' });

  const neverEnds = { name: 'Loop', steps: [{ id: 'a', say: 'A', next: 'b' }, { id: 'b', say: 'B', next: 'a' }] };
  assert.equal(await invalid(neverEnds), { field: 'steps', provided: null, expected: 'at least one step with end: true' });

  const deadEnd = { name: 'Dead end', steps: [{ id: 'a', say: 'A' }, { id: 'b', say: 'B', end: true }] };
  assert.equal(await invalid(deadEnd), { field: 'steps[0].next', provided: null, expected: 'the id of the next step, or end: true' });
});

scripts('delete: 200, then the script is gone; deleting again is 404', async () => {
  const created = await api.post('/v1/scripts', script());
  const deleted = await api.delete(`/v1/scripts/${created.body.id}`);
  assert.is(deleted.status, 200);
  assert.equal(deleted.body, { id: created.body.id, deleted: true });
  assert.is((await api.get(`/v1/scripts/${created.body.id}`)).status, 404);
  assert.is((await api.put(`/v1/scripts/${created.body.id}`, script())).status, 404);
  assert.is((await api.delete(`/v1/scripts/${created.body.id}`)).status, 404);
  const listed = await api.get('/v1/scripts?limit=100');
  assert.not.ok(listed.body.data.some((item: { id: string }) => item.id === created.body.id));
});

scripts('workspace isolation: another workspace\'s script is 404 with resource_type and id, like one that never existed', async () => {
  const created = await api.post('/v1/scripts', script());
  const id = created.body.id;
  const other = client(server, (await createWorkspace(server, 'Other')).key);
  const expected = { error: { code: 'resource_not_found', message: `No script with id ${id}.`, details: { resource_type: 'script', id } } };
  for (const response of [await other.get(`/v1/scripts/${id}`), await other.get(`/v1/scripts/${id}?version=1`), await other.put(`/v1/scripts/${id}`, script()), await other.delete(`/v1/scripts/${id}`)]) {
    assert.is(response.status, 404);
    assert.equal(response.body, expected);
  }
  const never = await api.get('/v1/scripts/scr_neverexisted');
  assert.equal(never.body.error.details, { resource_type: 'script', id: 'scr_neverexisted' });
  assert.is((await other.get('/v1/scripts')).body.total, 0);
  assert.is((await api.get(`/v1/scripts/${id}`)).status, 200, 'untouched');
});

scripts.run();

const inUse = suite('scripts used by campaigns (in-process, injected campaign count)');

inUse('a script used by a campaign that has not finished cannot be deleted: 409 invalid_state', async () => {
  let activeCampaigns = 1;
  const harness = await inProcessApp({ countActiveCampaignsUsingScript: () => activeCampaigns });
  try {
    const { key } = await harness.workspace();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await harness.app.request('/v1/scripts', { method: 'POST', headers, body: JSON.stringify(loanRenewalScript()) });
    const { id } = (await created.json()) as { id: string };
    const refused = await harness.app.request(`/v1/scripts/${id}`, { method: 'DELETE', headers });
    assert.is(refused.status, 409);
    const body = (await refused.json()) as { error: { code: string; details: unknown } };
    assert.is(body.error.code, 'invalid_state');
    assert.equal(body.error.details, { resource_type: 'script', id, active_campaigns: 1 });
    activeCampaigns = 0;
    assert.is((await harness.app.request(`/v1/scripts/${id}`, { method: 'DELETE', headers })).status, 200);
  } finally {
    await harness.close();
  }
});

inUse.run();

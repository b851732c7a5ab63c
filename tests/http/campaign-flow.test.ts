import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, client, createWorkspace, startServer, type ApiClient, type TestServer, type Workspace } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Campaigns end to end over the real server: the real dialer, call runner, sandbox carrier, recordings and read
 * models, on a manual clock. One server for the suite; each case leaves its campaigns in a final state before the
 * next one moves the clock. Waits poll with generous timeouts (the machine is shared), never fixed sleeps.
 */
const flow = suite('campaign flow end to end');
let server: TestServer;
let owner: Workspace;
let api: ApiClient;
let scriptId: string;

const DISPOSITIONS = ['interested', 'not_interested', 'callback', 'not_reachable', 'dnd', 'escalated'];


function contact(phone: string, index: number): Record<string, unknown> {
  return { phone, name: `Customer ${index}`, amount: 50_000 + index, lender: 'Sahay Finance' };
}

async function createCampaign(as: ApiClient, overrides: Record<string, unknown>): Promise<any> {
  const response = await as.post('/v1/campaigns', { name: 'Flow', script_id: scriptId, language: 'hi-IN', ...overrides });
  assert.is(response.status, 201, response.text);
  return response.body;
}

async function act(as: ApiClient, id: string, action: string): Promise<any> {
  const response = await as.patch(`/v1/campaigns/${id}`, { action });
  assert.is(response.status, 200, response.text);
  return response.body;
}

async function campaign(as: ApiClient, id: string): Promise<any> {
  const response = await as.get(`/v1/campaigns/${id}`);
  assert.is(response.status, 200, response.text);
  return response.body;
}

async function waitForStatus(as: ApiClient, id: string, status: string): Promise<any> {
  return waitFor(`campaign ${id} ${status}`, () => campaign(as, id), (c) => c.status === status);
}

/** Every call of a campaign, all pages. */
async function callsOf(as: ApiClient, campaignId: string): Promise<any[]> {
  const calls: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await as.get(`/v1/calls?campaign_id=${campaignId}&limit=100&offset=${offset}`);
    assert.is(page.status, 200, page.text);
    calls.push(...page.body.data);
    if (offset + 100 >= page.body.total) return calls;
  }
}

async function advance(seconds: number): Promise<string> {
  const response = await api.post('/v1/sandbox/clock', { advance_seconds: seconds });
  assert.is(response.status, 200, response.text);
  return response.body.now;
}

const final = (c: any) => Object.values(c.disposition_summary as Record<string, number>).reduce((sum, n) => sum + n, 0);

/**
 * Waits until every reserved attempt is placed and ended: `calls_made` counts reservations, the calls list
 * placements, so the two agree and no listed call is in progress.
 */
async function waitUntilQuiet(as: ApiClient, id: string): Promise<{ campaign: any; calls: any[] }> {
  return waitFor(
    `no call of ${id} in progress`,
    async () => ({ campaign: await campaign(as, id), calls: await callsOf(as, id) }),
    (s) => s.calls.length === s.campaign.calls_made && s.calls.every((call) => call.status !== 'in_progress'),
  );
}

/** A few polls over about a second that must all see the same counts: nothing is dialed any more. */
async function assertNothingMoves(as: ApiClient, id: string, calls: number): Promise<void> {
  for (let poll = 0; poll < 5; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await campaign(as, id);
    assert.is(now.calls_made, calls, 'no new reservation');
    assert.is((await callsOf(as, id)).length, calls, 'no new call placed');
  }
}

/** An instant written with the +05:30 offset (the schedule's timezone is Asia/Kolkata). */
function kolkata(instant: Date): string {
  return new Date(instant.getTime() + 5.5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+05:30');
}

flow.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-02T05:00:00Z' } });
  owner = await createWorkspace(server, 'Flow');
  api = client(server, owner.key);
  const script = await api.post('/v1/scripts', loanRenewalScript());
  assert.is(script.status, 201, script.text);
  scriptId = script.body.id;
});
flow.after(async () => server.stop());

let tableCampaignId = '';
let connectedCallId = '';

flow('every row of the sandbox table with max_attempts 2: dispositions, retries, counters, calls, suppression', async () => {
  const endings = ['00', '01', '02', '03', '04', '05', '06', '07', '08', '09'];
  const phones = [...endings.map((ending) => `+9198100000${ending}`), '+919810000042'];
  const created = await createCampaign(api, { contacts: phones.map(contact), max_attempts: 2, retry_interval_minutes: 5 });
  tableCampaignId = created.id;
  assert.is((await act(api, created.id, 'start')).status, 'running');

  // First round: every contact dialed once; 00, 01 and 08 wait for their retry, the others are final.
  const firstRound = await waitFor('the first round', () => campaign(api, created.id), (c) => c.calls_made === phones.length && final(c) === phones.length - 3);
  assert.is(firstRound.status, 'running');
  await waitUntilQuiet(api, created.id);

  // Before the retry interval nothing is dialed again; past it the three retries run.
  await advance(4 * 60);
  await assertNothingMoves(api, created.id, phones.length);
  await advance(61);
  const done = await waitForStatus(api, created.id, 'completed');
  assert.is(done.completion_reason, 'all_contacts_final');
  assert.is(done.calls_made, phones.length + 3);

  const calls = await callsOf(api, created.id);
  assert.is(calls.length, phones.length + 3);
  assert.is(new Set(calls.map((call) => call.id)).size, calls.length, 'no call id twice');
  const byPhone = new Map<string, any[]>();
  for (const call of [...calls].sort((a, b) => a.started_at.localeCompare(b.started_at))) {
    byPhone.set(call.contact.phone, [...(byPhone.get(call.contact.phone) ?? []), call]);
  }
  const attempts = (ending: string) => byPhone.get(`+9198100000${ending}`) ?? [];
  const last = (ending: string) => attempts(ending).at(-1);
  for (const ending of endings) assert.is(attempts(ending).length, ['00', '01', '08'].includes(ending) ? 2 : 1, `calls of ${ending}`);
  assert.is(attempts('00').every((call) => call.status === 'completed' && call.disposition === 'not_reachable'), true);
  assert.is(attempts('01').every((call) => call.status === 'completed' && call.disposition === 'not_reachable'), true);
  assert.is(last('02').status, 'failed');
  assert.is(last('02').disposition, 'not_reachable');
  assert.is(attempts('08')[0].disposition, 'not_reachable');
  const expected: Record<string, string> = { '03': 'interested', '04': 'not_interested', '05': 'callback', '06': 'escalated', '07': 'dnd', '08': 'interested', '09': 'callback' };
  for (const [ending, disposition] of Object.entries(expected)) {
    assert.is(last(ending).status, 'completed', ending);
    assert.is(last(ending).disposition, disposition, ending);
  }
  const other = byPhone.get('+919810000042')!;
  assert.is(other.length, 1);
  assert.ok(['interested', 'not_interested', 'callback', 'escalated', 'dnd'].includes(other[0].disposition), other[0].disposition);

  const summary: Record<string, number> = Object.fromEntries(DISPOSITIONS.map((d) => [d, 0]));
  for (const disposition of ['not_reachable', 'not_reachable', 'not_reachable', ...Object.values(expected), other[0].disposition]) summary[disposition]! += 1;
  assert.equal(done.disposition_summary, summary);
  assert.is(done.calls_connected, 8);

  const suppressions = await api.get('/v1/suppressions?limit=100');
  assert.is(suppressions.status, 200, suppressions.text);
  const listed = suppressions.body.data.find((entry: any) => entry.phone === '+919810000007');
  assert.ok(listed, suppressions.text);
  assert.is(listed.source, 'call_outcome');
  assert.is(listed.call_id, last('07').id);

  connectedCallId = last('03').id;
});

flow('recording: a signed URL serves a stereo WAV without a key, expires after an hour, refuses a tampered signature', async () => {
  const call = await api.get(`/v1/calls/${connectedCallId}`);
  assert.is(call.status, 200, call.text);
  const url: string = call.body.recording_url;
  assert.type(url, 'string');
  assert.ok(url.startsWith(`${server.baseUrl}/v1/recordings/${connectedCallId}?`), url);

  const download = await fetch(url);
  assert.is(download.status, 200);
  assert.is(download.headers.get('content-type'), 'audio/wav');
  const wav = Buffer.from(await download.arrayBuffer());
  assert.is(wav.toString('ascii', 0, 4), 'RIFF');
  assert.is(wav.toString('ascii', 8, 12), 'WAVE');
  let offset = 12;
  while (offset + 8 <= wav.length && wav.toString('ascii', offset, offset + 4) !== 'fmt ') offset += 8 + wav.readUInt32LE(offset + 4);
  assert.is(wav.toString('ascii', offset, offset + 4), 'fmt ');
  assert.is(wav.readUInt16LE(offset + 10), 2, 'two channels');
  assert.ok(wav.length > 16_000, `a real recording, ${wav.length} bytes`);

  const tampered = new URL(url);
  const signature = tampered.searchParams.get('signature')!;
  tampered.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
  const forged = await fetch(tampered);
  assert.is(forged.status, 403);
  const forgedBody = (await forged.json()) as any;
  assert.is(forgedBody.error.code, 'forbidden');
  assert.is(forgedBody.error.details.reason, 'invalid_signature');

  await advance(3601);
  const expired = await fetch(url);
  assert.is(expired.status, 403);
  const expiredBody = (await expired.json()) as any;
  assert.is(expiredBody.error.code, 'forbidden');
  assert.is(expiredBody.error.details.reason, 'expired');
});

flow('pause while calls are in progress, remove contacts while paused, resume, stop: states, nothing dialed while paused or stopped', async () => {
  // Its own workspace with one call at a time, so the campaign is surely mid-way when paused.
  const slow = await createWorkspace(server, 'One line');
  const set = await cli(server.dataDir, ['workspaces', 'set-concurrency', slow.workspaceId, '1', '--json']);
  assert.is(set.code, 0, set.stderr);
  const as = client(server, slow.key);
  const script = await as.post('/v1/scripts', loanRenewalScript());
  assert.is(script.status, 201, script.text);
  const phones = Array.from({ length: 400 }, (_, index) => `+91982${String(index).padStart(7, '0')}`);
  const created = await createCampaign(as, { script_id: script.body.id, contacts: phones.map(contact), recording_enabled: false });
  await act(as, created.id, 'start');

  await waitFor('a few calls', () => campaign(as, created.id), (c) => c.calls_made >= 3);
  const paused = await act(as, created.id, 'pause');
  assert.is(paused.status, 'paused');
  const quietWhilePaused = await waitUntilQuiet(as, created.id);
  assert.is(quietWhilePaused.campaign.status, 'paused');
  assert.ok(quietWhilePaused.campaign.calls_made < phones.length, 'paused mid-way');
  await assertNothingMoves(as, created.id, quietWhilePaused.campaign.calls_made);

  // While paused: remove a contact already called, the next one in line, and a phone not in the campaign.
  const nextInLine = phones[quietWhilePaused.campaign.calls_made + 1]!;
  const removal = await as.delete(`/v1/campaigns/${created.id}/contacts`, {
    body: { phones: [quietWhilePaused.calls[0].contact.phone, nextInLine, '+919999999999'] },
  });
  assert.is(removal.status, 200, removal.text);
  assert.equal(removal.body, { removed: 1, not_found: 1, already_called: 1 });

  assert.is((await act(as, created.id, 'resume')).status, 'running');
  await waitFor('dialing again', () => campaign(as, created.id), (c) => c.calls_made >= quietWhilePaused.campaign.calls_made + 3);
  const stopped = await act(as, created.id, 'stop');
  assert.is(stopped.status, 'stopped');
  assert.ok(stopped.ended_at, 'a stopped campaign has ended_at');
  const quietWhileStopped = await waitUntilQuiet(as, created.id);
  assert.is(quietWhileStopped.campaign.status, 'stopped');
  assert.ok(quietWhileStopped.campaign.calls_made < phones.length, 'stopped mid-way');
  await assertNothingMoves(as, created.id, quietWhileStopped.campaign.calls_made);
  assert.not.ok(quietWhileStopped.calls.some((call) => call.contact.phone === nextInLine), 'a removed contact is never dialed');
  assert.is(new Set(quietWhileStopped.calls.map((call) => call.contact.phone)).size, quietWhileStopped.calls.length, 'nobody dialed twice');

  const resumeStopped = await as.patch(`/v1/campaigns/${created.id}`, { action: 'resume' });
  assert.is(resumeStopped.status, 409, resumeStopped.text);
  assert.is(resumeStopped.body.error.code, 'invalid_state');
});

flow('a crash (SIGKILL) mid-campaign: after the restart the campaign completes, nobody dialed twice, nothing lost', async () => {
  // Endings cycle through 00..99: the retried rows (00, 01, 08), the failed one (02) and answered ones. Recording
  // stays on: synthesis keeps calls on the line long enough that the kill finds some mid-call (claimed, not ended).
  const phones = Array.from({ length: 60 }, (_, index) => `+91983${String(index).padStart(7, '0')}`);
  const created = await createCampaign(api, { contacts: phones.map(contact), max_attempts: 2, retry_interval_minutes: 1 });
  await act(api, created.id, 'start');
  const before = await waitFor('calls under way', () => campaign(api, created.id), (c) => c.calls_made >= 15);
  assert.ok(before.calls_made < phones.length + 9, `still running when killed (${before.calls_made} calls made)`);

  await server.restart({ signal: 'SIGKILL' });
  api = client(server, owner.key);

  // Retries (and attempts interrupted by the crash) fall due a minute after their end: move the clock while waiting.
  const done = await waitFor(
    'completed after the restart',
    async () => {
      const current = await campaign(api, created.id);
      if (current.status !== 'completed') await advance(61);
      return current;
    },
    (c) => c.status === 'completed',
  );
  assert.is(done.completion_reason, 'all_contacts_final');
  assert.is(final(done), phones.length, 'every contact final');

  const calls = await callsOf(api, created.id);
  assert.is(new Set(calls.map((call) => call.id)).size, calls.length, 'no call id twice');
  assert.is(done.calls_made, calls.length, 'calls_made counts the distinct calls');
  assert.ok(calls.every((call) => call.status !== 'in_progress'), 'no call left on the line');
  const perPhone = new Map<string, number>();
  for (const call of calls) perPhone.set(call.contact.phone, (perPhone.get(call.contact.phone) ?? 0) + 1);
  assert.is(perPhone.size, phones.length, 'every contact was dialed');
  for (const [phone, count] of perPhone) assert.ok(count <= 2, `${phone} dialed ${count} times (max_attempts 2)`);
  // A number ending in 02 does not exist: one failed call, never retried, even across the crash.
  assert.is(perPhone.get('+919830000002'), 1);
  // Each call is one attempt of its contact; a call the crash cut off is failed as interrupted, never redialed
  // (its contact got a new attempt with a new call id, or ran out of attempts).
  const attemptsSeen = new Set<string>();
  let interrupted = 0;
  for (const call of calls) {
    const full = await api.get(`/v1/calls/${call.id}`);
    assert.is(full.status, 200, full.text);
    assert.ok(full.body.attempt === 1 || full.body.attempt === 2, full.text);
    const attempt = `${call.contact.phone}#${full.body.attempt}`;
    assert.not.ok(attemptsSeen.has(attempt), `${attempt} placed twice`);
    attemptsSeen.add(attempt);
    if (full.body.failure_reason === 'interrupted') {
      interrupted += 1;
      assert.is(full.body.status, 'failed');
      assert.is(full.body.disposition, 'not_reachable');
    }
  }
  if (process.env.FLOW_VERBOSE) console.log(`killed at ${before.calls_made} calls made; ${interrupted} calls interrupted; ${calls.length} calls`);
});

flow('schedule in Asia/Kolkata: waits for start_time, then runs; end_time passing completes it with end_time_reached', async () => {
  const now = new Date(await advance(0));
  const scheduled = await createCampaign(api, {
    contacts: ['+919840000003', '+919840000004'].map(contact),
    recording_enabled: false,
    schedule: { start_time: kolkata(new Date(now.getTime() + 10 * 60_000)), end_time: kolkata(new Date(now.getTime() + 120 * 60_000)), timezone: 'Asia/Kolkata' },
  });
  const ending = await createCampaign(api, {
    contacts: ['+919840000100', '+919840000200', '+919840000300'].map(contact),
    max_attempts: 2,
    retry_interval_minutes: 60,
    recording_enabled: false,
    schedule: { start_time: kolkata(now), end_time: kolkata(new Date(now.getTime() + 30 * 60_000)), timezone: 'Asia/Kolkata' },
  });

  // The second one's start_time is now: its timer fires at the next clock move.
  await advance(1);
  await waitFor('the ending campaign dialed its first round', () => campaign(api, ending.id), (c) => c.calls_made === 3);
  await waitUntilQuiet(api, ending.id);
  assert.is((await campaign(api, scheduled.id)).status, 'scheduled');
  assert.is((await campaign(api, ending.id)).status, 'running', 'three contacts wait for their retry');

  await advance(9 * 60);
  assert.is((await campaign(api, scheduled.id)).status, 'scheduled', 'before start_time');
  assert.is((await campaign(api, scheduled.id)).calls_made, 0);
  await advance(60);
  const started = await waitForStatus(api, scheduled.id, 'completed');
  assert.ok(started.started_at, started);
  assert.is(started.calls_made, 2);
  assert.is(started.disposition_summary.interested, 1);
  assert.is(started.disposition_summary.not_interested, 1);

  await advance(20 * 60 + 1);
  const ended = await waitForStatus(api, ending.id, 'completed');
  assert.is(ended.completion_reason, 'end_time_reached');
  assert.is(ended.calls_made, 3, 'the retries never ran');
  assert.is(final(ended), 0, 'contacts awaiting a retry stay open');
});

flow('workspace isolation: another workspace sees none of the campaign or its calls', async () => {
  const stranger = client(server, (await createWorkspace(server, 'Stranger')).key);
  const ownCalls = await callsOf(api, tableCampaignId);
  assert.ok(ownCalls.length > 0);

  const detail = await stranger.get(`/v1/campaigns/${tableCampaignId}`);
  assert.is(detail.status, 404, detail.text);
  assert.is(detail.body.error.code, 'resource_not_found');
  const action = await stranger.patch(`/v1/campaigns/${tableCampaignId}`, { action: 'pause' });
  assert.is(action.status, 404, action.text);
  const call = await stranger.get(`/v1/calls/${ownCalls[0].id}`);
  assert.is(call.status, 404, call.text);
  assert.is(call.body.error.code, 'resource_not_found');
  assert.is(call.body.error.details.resource_type, 'call');
  const recording = await stranger.get(`/v1/calls/${connectedCallId}`);
  assert.is(recording.status, 404, recording.text);

  for (const path of ['/v1/campaigns', `/v1/calls?campaign_id=${tableCampaignId}`, '/v1/calls', '/v1/suppressions']) {
    const list = await stranger.get(path);
    assert.is(list.status, 200, list.text);
    assert.is(list.body.total, 0, path);
    assert.equal(list.body.data, [], path);
  }
});

flow.run();

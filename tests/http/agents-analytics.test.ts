import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Human agents, scored calls and call/QA analytics end to end over the real server: the sandbox carrier's callee
 * `...06` asks for a human, `...03` says yes to everything. The manual clock starts at 23:30 UTC on 29 March 2026,
 * which is already 30 March in London (BST began that morning) and in Kolkata: the same call falls on a different
 * local day by time zone.
 */
const flow = suite('agents, scored calls and analytics');
let server: TestServer;
let api: ApiClient;
let other: ApiClient;
let scriptId: string;

const START = '2026-03-29T23:30:00.000Z';


/** Places a single call and waits until it has ended (the sandbox call's end is due a moment later on the clock). */
async function completedCall(phone: string, extra: Record<string, unknown> = {}): Promise<any> {
  const placed = await api.post('/v1/calls', { phone, name: 'Meera', script_id: scriptId, language: 'hi-IN', metadata: { amount: 5000, lender: 'Sahay' }, recording_enabled: false, ...extra });
  assert.is(placed.status, 201, placed.text);
  return waitFor(`call ${placed.body.id} to end`, async () => {
    await api.post('/v1/sandbox/clock', { advance_seconds: 0.001 });
    return (await api.get(`/v1/calls/${placed.body.id}`)).body;
  }, (call) => call.status !== 'in_progress');
}

async function analysed(call: any): Promise<any> {
  return waitFor(`the transcript job of ${call.id}`, async () => (await api.get(`/v1/transcription/${call.transcript_job_id}`)).body, (job) => job.status === 'completed');
}

function invalidDetails(response: { status: number; body: any; text: string }, field: string): any {
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter', response.text);
  assert.is(response.body.error.details.field, field, response.text);
  return response.body.error.details;
}

flow.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: START } });
  api = client(server, (await createWorkspace(server, 'Agents')).key);
  other = client(server, (await createWorkspace(server, 'Other')).key);
  scriptId = (await api.post('/v1/scripts', loanRenewalScript())).body.id;
});
flow.after(async () => server.stop());

flow('agents: create, read, list, update, remove, with precise errors and workspace isolation', async () => {
  const created = await api.post('/v1/agents', { name: 'Asha Patil', languages: ['hi-IN', 'mr-IN'], phone: '+919812345678' });
  assert.is(created.status, 201, created.text);
  assert.match(created.body.id, /^agt_/);
  assert.equal(
    { ...created.body, id: undefined, created_at: undefined, updated_at: undefined },
    { id: undefined, name: 'Asha Patil', languages: ['hi-IN', 'mr-IN'], phone: '+919812345678', sip_uri: null, status: 'available', created_at: undefined, updated_at: undefined, last_assigned_at: null },
  );
  assert.is((await api.get(`/v1/agents/${created.body.id}`)).body.name, 'Asha Patil');
  assert.is((await other.get(`/v1/agents/${created.body.id}`)).status, 404, "another workspace's agent does not exist for it");
  assert.is((await other.patch(`/v1/agents/${created.body.id}`, { status: 'offline' })).status, 404);

  invalidDetails(await api.post('/v1/agents', { name: 'X', languages: ['fr-FR'], phone: '+919812345678' }), 'languages[0]');
  invalidDetails(await api.post('/v1/agents', { name: 'X', languages: ['hi-IN'] }), 'phone');
  invalidDetails(await api.post('/v1/agents', { name: 'X', languages: ['hi-IN'], sip_uri: 'not a uri' }), 'sip_uri');
  invalidDetails(await api.post('/v1/agents', { name: '', languages: ['hi-IN'], phone: '+919812345678' }), 'name');
  invalidDetails(await api.patch(`/v1/agents/${created.body.id}`, { phone: null }), 'phone');

  const sip = await api.post('/v1/agents', { name: 'Ravi', languages: ['ta-IN'], sip_uri: 'sip:ravi@pbx.example.com', status: 'offline' });
  assert.is(sip.status, 201, sip.text);
  const offline = await api.get('/v1/agents?status=offline');
  assert.equal(offline.body.data.map((agent: any) => agent.id), [sip.body.id]);
  const removed = await api.delete(`/v1/agents/${sip.body.id}`);
  assert.equal(removed.body, { id: sip.body.id, deleted: true });
  assert.is((await api.get(`/v1/agents/${sip.body.id}`)).status, 404);
  assert.is((await api.get('/v1/agents')).body.total, 1);
});

flow('an escalated call goes to an available agent who speaks its language; with nobody available the reason is recorded', async () => {
  const agents = (await api.get('/v1/agents')).body.data;
  const asha = agents[0];
  const escalated = await completedCall('+919876500106');
  assert.is(escalated.disposition, 'escalated');
  assert.is(escalated.agent_id, asha.id);
  assert.is(escalated.escalation.agent_id, asha.id);
  assert.is(escalated.escalation.unassigned_reason, null);
  await waitFor('the assignment to show', async () => (await api.get(`/v1/agents/${asha.id}`)).body, (agent) => agent.last_assigned_at !== null);

  assert.is((await api.patch(`/v1/agents/${asha.id}`, { status: 'offline' })).body.status, 'offline');
  const unassigned = await completedCall('+919876500206');
  assert.is(unassigned.disposition, 'escalated');
  assert.is(unassigned.agent_id, null);
  assert.equal(unassigned.escalation.unassigned_reason, 'no_available_agent');
  await api.patch(`/v1/agents/${asha.id}`, { status: 'available' });

  // A manually dialed call counts for the agent who placed it; an unknown agent is 404.
  const manual = await completedCall('+919876500103', { agent_id: asha.id });
  assert.is(manual.agent_id, asha.id);
  const unknown = await api.post('/v1/calls', { phone: '+919876500103', name: 'M', script_id: scriptId, language: 'hi-IN', metadata: { amount: 1, lender: 'S' }, agent_id: 'agt_missing' });
  assert.is(unknown.status, 404, unknown.text);

  // GET /v1/calls?agent_id: the calls handed to the agent and those the agent placed, nothing else.
  await waitFor('both calls under the agent', async () => (await api.get(`/v1/calls?agent_id=${asha.id}`)).body, (page) => page.total === 2);
  const byAgent = (await api.get(`/v1/calls?agent_id=${asha.id}`)).body.data.map((call: any) => call.id).sort();
  assert.equal(byAgent, [escalated.id, manual.id].sort());
  assert.is((await api.get('/v1/calls?agent_id=agt_nobody')).body.total, 0);
});

flow("connected calls are scored against the workspace's default scorecard; GET /analytics/qa shows a call's results", async () => {
  const scorecard = await api.post('/v1/qa/scorecards', {
    name: 'Basics',
    pass_threshold: 50,
    parameters: [
      { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['namaste'], hi: ['नमस्ते', 'namaste'] } } },
      { name: 'no_threats', max_score: 10, check: { type: 'agent_avoids', phrases: { en: ['police'] } } },
    ],
  });
  assert.is(scorecard.status, 201, scorecard.text);
  assert.is((await api.patch('/v1/workspace', { default_qa_scorecard_id: 'qsc_missing' })).status, 404);
  const workspace = await api.patch('/v1/workspace', { default_qa_scorecard_id: scorecard.body.id });
  assert.is(workspace.status, 200, workspace.text);
  assert.is(workspace.body.default_qa_scorecard_id, scorecard.body.id);

  const call = await completedCall('+919876500303');
  const job = await analysed(call);
  assert.ok(job.qa_score, 'the call job ran qa_scoring');
  const qa = await api.get(`/v1/analytics/qa?call_id=${call.id}`);
  assert.is(qa.status, 200, qa.text);
  assert.is(qa.body.call_id, call.id);
  assert.is(qa.body.results.length, 1);
  assert.is(qa.body.results[0].scorecard_id, scorecard.body.id);
  assert.is(qa.body.results[0].overall_score, job.qa_score.overall_score);
  assert.equal(qa.body.results[0].parameter_scores.map((parameter: any) => parameter.parameter_name), ['greeting', 'no_threats']);

  const unscored = (await api.get('/v1/calls?limit=100')).body.data.find((listed: any) => listed.disposition === 'escalated');
  assert.equal((await api.get(`/v1/analytics/qa?call_id=${unscored.id}`)).body.results, [], 'a call scored before the default was set has no results');
  assert.is((await api.get('/v1/analytics/qa?call_id=cal_missing')).status, 404);
  assert.is((await other.get(`/v1/analytics/qa?call_id=${call.id}`)).status, 404, "another workspace's call");

  const aggregate = await waitFor('the aggregate', async () => (await api.get('/v1/analytics/qa?from=2026-03-29&to=2026-03-29')).body, (body) => body.calls_evaluated === 1);
  assert.is(aggregate.overall_score, job.qa_score.overall_score);
  assert.equal(aggregate.parameter_scores.map((parameter: any) => parameter.name), ['greeting', 'no_threats']);
  assert.is((await api.get('/v1/analytics/qa?from=2026-03-30&to=2026-03-30')).body.calls_evaluated, 0, 'a UTC day later: nothing');
  assert.is((await api.get('/v1/analytics/qa?from=2026-03-30&to=2026-03-30&timezone=Asia/Kolkata')).body.calls_evaluated, 1, 'in Kolkata it was the 30th');
  invalidDetails(await api.get('/v1/analytics/qa?to=2026-03-30'), 'from');
});

flow('GET /analytics/calls: totals, breakdowns, zero-filled days in every zone (DST included), groups, filters', async () => {
  const calls = (await api.get('/v1/calls?limit=100')).body.data;
  const total = calls.length;
  const connected = calls.filter((call: any) => call.duration_seconds > 0).length;
  await waitFor('every call analysed', async () => (await api.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29')).body, (body) => Object.values(body.intent_breakdown).length > 0);

  const utc = (await api.get('/v1/analytics/calls?from=2026-03-28&to=2026-03-30&group_by=day')).body;
  assert.is(utc.total_calls, total);
  assert.is(utc.connected_calls, connected);
  assert.is(utc.connection_rate, Math.round((connected / total) * 10_000) / 10_000);
  assert.ok(utc.avg_duration_seconds > 0);
  const fractions = utc.sentiment_breakdown.positive + utc.sentiment_breakdown.neutral + utc.sentiment_breakdown.negative;
  assert.ok(Math.abs(fractions - 1) < 0.001, JSON.stringify(utc.sentiment_breakdown));
  assert.equal(utc.grouped_data.map((group: any) => [group.group, group.total_calls]), [['2026-03-28', 0], ['2026-03-29', total], ['2026-03-30', 0]]);
  assert.equal(utc.grouped_data[0], { group: '2026-03-28', total_calls: 0, connected_calls: 0, avg_duration_seconds: 0, avg_qa_score: 0 });

  // Whole days in a zone without rollups (London, which moved to BST on the 29th) and in one with (Kolkata).
  for (const timezone of ['Europe/London', 'Asia/Kolkata']) {
    const local = (await api.get(`/v1/analytics/calls?from=2026-03-28&to=2026-03-30&group_by=day&timezone=${timezone}`)).body;
    assert.equal(local.grouped_data.map((group: any) => [group.group, group.total_calls]), [['2026-03-28', 0], ['2026-03-29', 0], ['2026-03-30', total]], timezone);
    assert.is(local.timezone, timezone);
  }
  const weeks = (await api.get('/v1/analytics/calls?from=2026-03-20&to=2026-04-02&group_by=week')).body;
  assert.equal(weeks.grouped_data.map((group: any) => [group.group, group.total_calls]), [['2026-03-16', 0], ['2026-03-23', total], ['2026-03-30', 0]]);
  // Datetime bounds take the per-call path and must agree with the rollups.
  const instants = (await api.get('/v1/analytics/calls?from=2026-03-29T23:00:00Z&to=2026-03-29T23:59:59Z')).body;
  assert.is(instants.total_calls, total);
  assert.equal(instants.intent_breakdown, utc.intent_breakdown);

  const agentId = (await api.get('/v1/agents')).body.data[0].id;
  const byAgent = (await api.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29&group_by=agent')).body;
  assert.equal(byAgent.grouped_data.map((group: any) => [group.group, group.total_calls]), [[null, total - 2], [agentId, 2]]);
  assert.is((await api.get(`/v1/analytics/calls?from=2026-03-29&to=2026-03-29&agent_id=${agentId}`)).body.total_calls, 2);
  const byLanguage = (await api.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29&group_by=language')).body;
  assert.equal(byLanguage.grouped_data.map((group: any) => group.group), ['hi-IN']);
  assert.is((await api.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29&language=ta-IN')).body.total_calls, 0);
  assert.is((await other.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29')).body.total_calls, 0, 'another workspace sees none of them');
});

flow('GET /analytics/calls and /qa in zones with DST and odd offsets, and with date-time bounds inside a 15-minute bucket', async () => {
  const calls = (await api.get('/v1/calls?limit=100')).body.data;
  const total = calls.length;
  const periods = (body: any) => body.grouped_data.map((group: any) => [group.group, group.total_calls]);
  const zero = (group: string) => ({ group, total_calls: 0, connected_calls: 0, avg_duration_seconds: 0, avg_qa_score: 0 });

  // London: the calls of 23:30 UTC on Sunday 29 March fall on Monday 30 March (BST since that morning), so in the
  // week of the 30th, while in UTC they are in the week of the 23rd.
  const londonWeeks = (await api.get('/v1/analytics/calls?from=2026-03-20&to=2026-04-08&group_by=week&timezone=Europe/London')).body;
  assert.equal(periods(londonWeeks), [['2026-03-16', 0], ['2026-03-23', 0], ['2026-03-30', total], ['2026-04-06', 0]]);
  assert.equal(londonWeeks.grouped_data[0], zero('2026-03-16'));
  const londonDays = (await api.get('/v1/analytics/calls?from=2026-03-27&to=2026-04-01&group_by=day&timezone=Europe/London')).body;
  assert.equal(periods(londonDays), [['2026-03-27', 0], ['2026-03-28', 0], ['2026-03-29', 0], ['2026-03-30', total], ['2026-03-31', 0], ['2026-04-01', 0]]);

  // New York (EDT since 8 March): 19:30 on Sunday the 29th, the week of the 23rd; every day and week zero-filled.
  const newYorkWeeks = (await api.get('/v1/analytics/calls?from=2026-03-01&to=2026-03-31&group_by=week&timezone=America/New_York')).body;
  assert.equal(periods(newYorkWeeks), [['2026-02-23', 0], ['2026-03-02', 0], ['2026-03-09', 0], ['2026-03-16', 0], ['2026-03-23', total], ['2026-03-30', 0]]);
  const newYorkDays = (await api.get('/v1/analytics/calls?from=2026-03-07&to=2026-03-30&group_by=day&timezone=America/New_York')).body;
  assert.is(newYorkDays.grouped_data.length, 24);
  assert.equal(newYorkDays.grouped_data.filter((group: any) => group.total_calls > 0).map((group: any) => [group.group, group.total_calls]), [['2026-03-29', total]]);
  assert.equal(newYorkDays.grouped_data[1], zero('2026-03-08'), 'the day DST began');
  const utcDay = (await api.get('/v1/analytics/calls?from=2026-03-29&to=2026-03-29')).body;
  for (const figure of ['connected_calls', 'connection_rate', 'avg_duration_seconds', 'sentiment_breakdown', 'intent_breakdown', 'avg_qa_score']) {
    assert.equal(newYorkDays[figure], utcDay[figure], figure);
  }

  // Date-time bounds not on a 15-minute edge, in UTC and in a +05:45 zone: the calls that started between them.
  const between = (from: string, to: string) => calls.filter((call: any) => call.started_at >= new Date(from).toISOString() && call.started_at <= new Date(to).toISOString()).length;
  const starts = calls.map((call: any) => Date.parse(call.started_at)).sort((a: number, b: number) => a - b);
  const middle = new Date(starts[Math.floor(starts.length / 2)]!).toISOString();
  const bounds: Array<[string, string, string]> = [
    ['2026-03-29T23:20:00Z', '2026-03-29T23:35:00Z', 'UTC'],
    ['2026-03-30T05:07:00+05:45', '2026-03-30T05:31:30+05:45', 'Asia/Kathmandu'],
    ['2026-03-30T05:07:00', '2026-03-30T05:31:30', 'Asia/Kathmandu'],
    [middle, '2026-03-29T23:59:59.999Z', 'UTC'],
    ['2026-03-29T23:00:00Z', middle, 'Europe/London'],
  ];
  for (const [from, to, timezone] of bounds) {
    const body = (await api.get(`/v1/analytics/calls?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&timezone=${timezone}&group_by=day`)).body;
    const expected = timezone === 'Asia/Kathmandu' && !from.includes('+') ? between(`${from}+05:45`, `${to}+05:45`) : between(from, to);
    assert.is(body.total_calls, expected, `${from} .. ${to} ${timezone}`);
    assert.is(body.grouped_data.reduce((sum: number, group: any) => sum + group.total_calls, 0), expected, 'the days add up');
  }
  assert.ok(between(middle, '2026-03-29T23:59:59.999Z') > 0 && between('2026-03-29T23:00:00Z', middle) > 0, 'bounds that cut the calls in two');

  // QA in a zone with DST and with date-time bounds: the one scored call, on its local day.
  assert.is((await api.get('/v1/analytics/qa?from=2026-03-30&to=2026-03-30&timezone=Europe/London')).body.calls_evaluated, 1);
  assert.is((await api.get('/v1/analytics/qa?from=2026-03-29&to=2026-03-29&timezone=America/New_York')).body.calls_evaluated, 1);
  assert.is((await api.get('/v1/analytics/qa?from=2026-03-29&to=2026-03-29&timezone=Europe/London')).body.calls_evaluated, 0);
  assert.is((await api.get(`/v1/analytics/qa?from=2026-03-29T23:07:00Z&to=${encodeURIComponent('2026-03-30T05:44:00+05:30')}`)).body.calls_evaluated, 1);
});

flow('GET /analytics/calls: every validation case is a 400 with the field', async () => {
  const missing = await api.get('/v1/analytics/calls?to=2026-03-01');
  assert.is(missing.status, 400, missing.text);
  invalidDetails(await api.get('/v1/analytics/calls?from=2026-02-30&to=2026-03-01'), 'from');
  // A range ending on 9999-12-31 answered 500 (its end ran past four-digit years); every date after 9998 is refused.
  invalidDetails(await api.get('/v1/analytics/calls?from=9999-12-31&to=9999-12-31'), 'from');
  invalidDetails(await api.get('/v1/analytics/qa?from=2026-11-28&to=9999-12-31'), 'to');
  invalidDetails(await api.get('/v1/analytics/calls?from=2026-11-28&to=9999-12-31&timezone=Pacific/Kiritimati'), 'to');
  invalidDetails(await api.get('/v1/analytics/calls?from=yesterday&to=2026-03-01'), 'from');
  invalidDetails(await api.get('/v1/analytics/calls?from=2026-03-02&to=2026-03-01'), 'to');
  const long = invalidDetails(await api.get('/v1/analytics/calls?from=2025-01-01&to=2026-01-02'), 'to');
  assert.match(long.expected, /366 days/);
  assert.is((await api.get('/v1/analytics/calls?from=2025-01-02&to=2026-01-02')).status, 200, 'exactly 366 days');
  invalidDetails(await api.get('/v1/analytics/calls?from=2026-03-01&to=2026-03-02&timezone=Mars/Olympus'), 'timezone');
  invalidDetails(await api.get('/v1/analytics/calls?from=2026-03-01&to=2026-03-02&language=xx'), 'language');
  const groupBy = await api.get('/v1/analytics/calls?from=2026-03-01&to=2026-03-02&group_by=hour');
  assert.is(groupBy.status, 400, groupBy.text);
});

flow.run();

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REPORT_AGENTS, seedReportFacts } from '../../bench/report-facts.ts';
import { WEBHOOK_PAYLOAD_DATA } from '../../processes/webhooks/payload-schemas.ts';
import { testRuntime } from '../support/runtime.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Reports end to end over the real server: 200 seeded calls over March 2026 (bench/report-facts.ts: 3 agents with
 * Devanagari, Tamil and Telugu names, 4 campaigns, a fifth single calls, 60% connected), then every format of the
 * report types, validation with precise details, list filters, schedules and isolation.
 */
const reports = suite('reports');
const CALLS = 200;
let server: TestServer;
let api: ApiClient;
let other: ApiClient;
let dataDir: string;
let apiKey: string;
let otherKey: string;

reports.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'e2e-reports-'));
  const workspace = await createWorkspace({ dataDir }, 'Reports');
  const otherWorkspace = await createWorkspace({ dataDir }, 'Other');
  const { runtime } = testRuntime({ dataDir, environment: { CLOCK_START: '2026-04-01T10:00:00Z' } });
  await runtime.start();
  await seedReportFacts(runtime, { workspaceId: workspace.workspaceId, calls: CALLS, days: 30, firstDay: '2026-03-01' });
  await runtime.close();
  server = await startServer({ dataDir, env: { CLOCK: 'manual', CLOCK_START: '2026-04-01T10:00:00Z' } });
  apiKey = workspace.key;
  otherKey = otherWorkspace.key;
  api = client(server, apiKey);
  other = client(server, otherKey);
});
reports.after(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function finished(reportId: string): Promise<any> {
  return waitFor(`report ${reportId}`, async () => (await api.get(`/v1/reports/${reportId}`)).body, (report) => report.status !== 'generating');
}

async function generated(body: Record<string, unknown>): Promise<any> {
  const created = await api.post('/v1/reports', body);
  assert.is(created.status, 202, created.text);
  assert.match(created.body.report_id, /^rpt_/);
  assert.is(created.body.status, 'generating');
  const report = await finished(created.body.report_id);
  assert.is(report.status, 'completed', JSON.stringify(report));
  return report;
}

function invalid(response: { status: number; body: any; text: string }, field: string): any {
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter', response.text);
  assert.is(response.body.error.details.field, field, response.text);
  return response.body.error;
}

const MARCH = { from: '2026-03-01', to: '2026-03-31' };

reports('call_summary as JSON: totals, dispositions, by campaign and by day, from the read models', async () => {
  const report = await generated({ type: 'call_summary', ...MARCH });
  assert.equal([report.format, report.period, report.timezone, report.download_url, report.error], ['json', MARCH, 'UTC', null, null]);
  const totals = report.data.totals;
  assert.is(totals.total_calls, CALLS);
  assert.is(totals.connected_calls, CALLS * 0.6);
  assert.is(totals.connection_rate, 0.6);
  assert.is(totals.dispositions.not_reachable, CALLS * 0.4);
  assert.is(totals.dispositions.interested + totals.dispositions.callback, CALLS * 0.6);
  assert.is(report.data.by_day.length, 31);
  assert.is(report.data.by_day.reduce((sum: number, day: any) => sum + day.total_calls, 0), CALLS);
  const single = report.data.by_campaign.find((row: any) => row.campaign_id === null);
  assert.is(single.total_calls, CALLS / 5, 'single calls are their own row');
  assert.ok(report.completed_at);
});

reports('filters narrow the figures; qa_performance, agent_coaching and campaign_performance as JSON', async () => {
  const asha = await generated({ type: 'call_summary', ...MARCH, filters: { agent_id: 'agt_asha' } });
  assert.is(asha.data.totals.total_calls, Math.ceil(CALLS / 3));
  assert.equal(asha.filters, { agent_id: 'agt_asha' });

  const qa = await generated({ type: 'qa_performance', ...MARCH });
  assert.is(qa.data.totals.calls_evaluated, CALLS * 0.6);
  assert.equal(qa.data.by_parameter.map((row: any) => row.parameter), ['courtesy', 'greeting']);
  assert.equal(qa.data.by_agent.map((row: any) => row.agent_name).sort(), REPORT_AGENTS.map((agent) => agent.name).sort());
  assert.ok(qa.data.weekly_trend.length >= 5);
  assert.is(qa.data.by_campaign.reduce((sum: number, row: any) => sum + row.calls_evaluated, 0), CALLS * 0.6);

  const coaching = await generated({ type: 'agent_coaching', ...MARCH });
  const venkat = coaching.data.agents.find((agent: any) => agent.agent_id === 'agt_venkat');
  assert.is(venkat.agent_name, 'వెంకట్ రావు');
  assert.is(venkat.lowest_parameters[0].parameter, 'courtesy', 'courtesy 3 of 10 is his weakest');
  assert.is(venkat.recommended_focus.parameter, 'courtesy');
  assert.ok(venkat.lowest_parameters[0].example_calls.length > 0);
  assert.match(venkat.lowest_parameters[0].example_calls[0].url, /\/v1\/calls\/cal_seed\d+$/);
  const asha2 = coaching.data.agents.find((agent: any) => agent.agent_id === 'agt_asha');
  assert.is(asha2.calls_handled, Math.ceil(CALLS / 3));

  const campaigns = await generated({ type: 'campaign_performance', ...MARCH, timezone: 'Asia/Kolkata' });
  assert.is(campaigns.data.campaigns.length, 4);
  assert.ok(campaigns.data.totals.attempts_per_contact >= 1);
  assert.ok(campaigns.data.totals.reach_rate > 0 && campaigns.data.totals.reach_rate <= 1);
  assert.equal(campaigns.data.intent_mix.map((row: any) => row.intent).sort(), ['complaint', 'loan_renewal_interest', 'payment_query']);
  assert.is(campaigns.data.sentiment_trend.length, 31);
});

reports('CSV: a signed download with content type and file name, BOM, RFC 4180, a section column; the link is checked', async () => {
  const report = await generated({ type: 'qa_performance', ...MARCH, format: 'csv' });
  assert.match(report.download_url, /\/v1\/report-files\/rrn_[^?]+\?expires=\d+&signature=[0-9a-f]{64}$/);
  const response = await fetch(report.download_url);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.is(response.headers.get('content-disposition'), 'attachment; filename="qa_performance_2026-03-01_2026-03-31.csv"');
  const bytes = new Uint8Array(await response.arrayBuffer());
  assert.equal([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
  const text = new TextDecoder().decode(bytes.slice(3));
  assert.match(text, /^section,label,value,/);
  assert.match(text, /\r\nsummary,Calls evaluated,120,/);
  assert.match(text, /\r\nby_agent,,,agt_venkat,వెంకట్ రావు,/);
  const again = (await api.get(`/v1/reports/${report.report_id}`)).body;
  assert.ok(again.download_url, 'a fresh URL on each GET');
  // Another first hex digit of the signature (not always '0': the signature may start with one).
  const tampered = await fetch(report.download_url.replace(/signature=(.)/, (_match: string, digit: string) => `signature=${digit === '0' ? '1' : '0'}`));
  assert.is(tampered.status, 403);
  assert.is(((await tampered.json()) as any).error.details.reason, 'invalid_signature');
});

reports('PDF: pdftotext finds the figures and an Indic name; page 1 renders with ink', async () => {
  const report = await generated({ type: 'agent_coaching', ...MARCH, format: 'pdf' });
  const response = await fetch(report.download_url);
  assert.is(response.headers.get('content-type'), 'application/pdf');
  const pdf = Buffer.from(await response.arrayBuffer());
  assert.is(pdf.subarray(0, 5).toString(), '%PDF-');
  const path = join(dataDir, 'coaching.pdf');
  writeFileSync(path, pdf);
  const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  assert.match(text, /Agent coaching/);
  assert.match(text, /Period: 2026-03-01 to 2026-03-31 \(UTC\)/);
  assert.match(text, /Page 1 of \d+/);
  assert.ok(text.includes('आशा पाटील'), `the Devanagari name is extractable:\n${text.slice(0, 2000)}`);
  assert.match(text, /courtesy/);
  const gray = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '30', '-gray', path], { maxBuffer: 16 * 1024 * 1024 });
  // A PGM: the header, then one byte per pixel; a blank page is all white (255).
  const pixels = gray.subarray(gray.length - 248 * 350);
  const ink = pixels.filter((value) => value < 200).length;
  assert.ok(ink > 500, `page 1 has ink (${ink} dark pixels)`);
});

reports('validation: precise 400s for type, dates, filters, format, zone, schedule and e-mail', async () => {
  const compliance = invalid(await api.post('/v1/reports', { type: 'compliance_audit', ...MARCH, filters: { scorecard_id: 'scd_x' } }), 'filters.scorecard_id');
  assert.match(compliance.details.expected, /campaign_id, language/);
  invalid(await api.post('/v1/reports', { type: 'call_sumary', ...MARCH }), 'type');
  invalid(await api.post('/v1/reports', { type: 'call_summary', from: '2026-02-30', to: '2026-03-01' }), 'from');
  // Accepted before, then failed in generation with an internal message.
  invalid(await api.post('/v1/reports', { type: 'call_summary', from: '9999-12-31', to: '9999-12-31' }), 'from');
  invalid(await api.post('/v1/reports', { type: 'call_summary', from: '2026-03-01T00:00', to: '2026-03-02' }), 'from');
  invalid(await api.post('/v1/reports', { type: 'call_summary', from: '2026-03-05', to: '2026-03-01' }), 'to');
  const long = invalid(await api.post('/v1/reports', { type: 'call_summary', from: '2025-01-01', to: '2026-03-01' }), 'to');
  assert.match(long.details.expected, /at most 366 days/);
  invalid(await api.post('/v1/reports', { type: 'call_summary', to: '2026-03-01' }), 'from');
  assert.is(invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, filters: { campaign: 'x' } }), 'filters.campaign').message, 'Unknown field filters.campaign.');
  const inapplicable = invalid(await api.post('/v1/reports', { type: 'qa_performance', ...MARCH, filters: { language: 'hi-IN' } }), 'filters.language');
  assert.match(inapplicable.details.expected, /agent_id, scorecard_id/);
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, filters: { language: 'xx-YY' } }), 'filters.language');
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, format: 'xlsx' }), 'format');
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, timezone: 'Mars/Olympus' }), 'timezone');
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, schedule: { cron: 'every monday', timezone: 'UTC' } }), 'schedule.cron');
  const hourly = invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, schedule: { cron: '0 * * * *', timezone: 'UTC' } }), 'schedule.cron');
  assert.match(hourly.details.expected, /at most once a day/);
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, schedule: { cron: '0 8 * * 1', timezone: 'Asia/Bombay2' } }), 'schedule.timezone');
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, schedule: { cron: '0 8 * * 1' } }), 'schedule.timezone');
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, email: { to: ['not-an-address'] } }), 'email.to[0]');
  const smtp = invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, email: { to: ['ops@example.com'] } }), 'email');
  assert.match(smtp.message, /SMTP_URL/);
  invalid(await api.post('/v1/reports', { type: 'call_summary', ...MARCH, extra: 1 }), 'extra');
});

reports('a filter naming a campaign, agent or scorecard this workspace does not have is a 404 naming the field', async () => {
  const cases = [
    { type: 'call_summary', filters: { campaign_id: 'cmp_nope' }, resource: 'campaign' },
    { type: 'call_summary', filters: { agent_id: 'agt_nope' }, resource: 'agent' },
    { type: 'qa_performance', filters: { scorecard_id: 'scd_nope' }, resource: 'qa_scorecard' },
  ];
  for (const { type, filters, resource } of cases) {
    const response = await api.post('/v1/reports', { type, ...MARCH, filters });
    assert.is(response.status, 404, response.text);
    const [field, id] = Object.entries(filters)[0]!;
    assert.equal(response.body.error.details, { resource_type: resource, id, field: `filters.${field}` });
  }
  // Another workspace's agent is no more this workspace's than a made-up one.
  const theirs = await other.post('/v1/agents', { name: 'Ravi', languages: ['hi-IN'], phone: '+919800000001' });
  assert.is(theirs.status, 201, theirs.text);
  assert.is((await api.post('/v1/reports', { type: 'call_summary', ...MARCH, filters: { agent_id: theirs.body.id } })).status, 404);
  // The workspace's own agent is accepted.
  assert.is((await api.post('/v1/reports', { type: 'call_summary', ...MARCH, filters: { agent_id: 'agt_asha' } })).status, 202);
});

reports('schedules: next_run_at, a run per occurrence for the period that just ended, cancel keeps runs readable', async () => {
  const created = await api.post('/v1/reports', { type: 'call_summary', ...MARCH, schedule: { cron: '0 8 * * 1', timezone: 'Asia/Kolkata' } });
  assert.is(created.status, 202, created.text);
  const id = created.body.report_id;
  let report = await finished(id);
  // 2026-04-01 is a Wednesday: the next Monday 08:00 IST is 6 April, 02:30 UTC.
  assert.equal([report.next_run_at, report.schedule], ['2026-04-06T02:30:00.000Z', { cron: '0 8 * * 1', timezone: 'Asia/Kolkata', active: true }]);
  assert.is(report.runs.length, 1);
  await api.post('/v1/sandbox/clock', { advance_seconds: 5 * 86_400 });
  report = await waitFor('the scheduled run', async () => (await api.get(`/v1/reports/${id}`)).body, (body) => body.runs.length === 2 && body.status === 'completed');
  assert.equal(report.runs[0].period, { from: '2026-03-30', to: '2026-04-05' });
  assert.is(report.runs[0].trigger, 'schedule');
  assert.is(report.next_run_at, '2026-04-13T02:30:00.000Z');
  const listed = await api.get('/v1/reports?scheduled=true');
  assert.equal(listed.body.data.map((item: any) => item.report_id), [id]);

  const cancelled = await api.delete(`/v1/reports/${id}/schedule`);
  assert.is(cancelled.status, 200, cancelled.text);
  assert.equal([cancelled.body.schedule.active, cancelled.body.next_run_at, cancelled.body.runs.length], [false, null, 2]);
  assert.is((await api.delete(`/v1/reports/${id}/schedule`)).status, 200, 'cancelling again is harmless');
  await api.post('/v1/sandbox/clock', { advance_seconds: 8 * 86_400 });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.is((await api.get(`/v1/reports/${id}`)).body.runs.length, 2, 'no run after the cancellation');

  const oneTime = await generated({ type: 'call_summary', ...MARCH });
  const conflict = await api.delete(`/v1/reports/${oneTime.report_id}/schedule`);
  assert.equal([conflict.status, conflict.body.error.code], [409, 'invalid_state']);
});

reports('list: newest first, filters, pagination; isolation; Idempotency-Key', async () => {
  const all = await api.get('/v1/reports?limit=2');
  assert.equal([all.status, all.body.limit, all.body.data.length], [200, 2, 2]);
  assert.ok(all.body.total >= 8);
  assert.ok(all.body.data[0].created_at >= all.body.data[1].created_at);
  assert.is(all.body.data[0].data, undefined, 'lists carry no data');
  const qa = await api.get('/v1/reports?type=qa_performance&status=completed&scheduled=false');
  assert.ok(qa.body.data.length >= 2 && qa.body.data.every((item: any) => item.type === 'qa_performance'));
  invalid(await api.get('/v1/reports?scheduled=yes'), 'scheduled');
  invalid(await api.get('/v1/reports?status=done'), 'status');

  const first = all.body.data[0].report_id;
  const hidden = await other.get(`/v1/reports/${first}`);
  assert.equal([hidden.status, hidden.body.error.details], [404, { resource_type: 'report', id: first }]);
  assert.is((await other.delete(`/v1/reports/${first}/schedule`)).status, 404);
  assert.is((await other.get('/v1/reports')).body.total, 0);

  const body = { type: 'call_summary', from: '2026-03-01', to: '2026-03-07' };
  const once = await api.post('/v1/reports', body, { headers: { 'Idempotency-Key': 'report-once-1' } });
  const twice = await api.post('/v1/reports', body, { headers: { 'Idempotency-Key': 'report-once-1' } });
  assert.equal([once.status, twice.status, twice.body.report_id], [202, 202, once.body.report_id]);
});

reports('catch-up: occurrences missed while the server was down give one run, for the latest period, at start', async () => {
  const created = await api.post('/v1/reports', { type: 'call_summary', from: '2026-03-01', to: '2026-03-07', schedule: { cron: '0 6 * * *', timezone: 'UTC' } });
  const id = created.body.report_id;
  const before = await finished(id);
  assert.is(before.runs.length, 1);
  const clock = JSON.parse(readFileSync(join(dataDir, 'manual-clock.json'), 'utf8')) as { now: string };
  await server.stop({ keepData: true });
  // Down for three days and a bit: three daily occurrences missed.
  const later = new Date(Date.parse(clock.now) + 3 * 86_400_000 + 3_600_000);
  writeFileSync(join(dataDir, 'manual-clock.json'), JSON.stringify({ now: later.toISOString() }));
  await server.restart();
  api = client(server, apiKey);
  other = client(server, otherKey);
  const after = await waitFor('the catch-up run', async () => (await api.get(`/v1/reports/${id}`)).body, (report) => report.runs.length >= 2 && report.status === 'completed');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const runs = (await api.get(`/v1/reports/${id}`)).body.runs;
  assert.is(runs.length, 2, 'one run for the missed occurrences');
  const latestOccurrenceDay = later.toISOString().slice(0, 10);
  const expectedDay = Date.parse(`${latestOccurrenceDay}T06:00:00Z`) <= later.getTime() ? latestOccurrenceDay : new Date(Date.parse(latestOccurrenceDay) - 86_400_000).toISOString().slice(0, 10);
  const previous = new Date(Date.parse(expectedDay) - 86_400_000).toISOString().slice(0, 10);
  assert.equal(runs[0].period, { from: previous, to: previous }, 'the latest period: the day before the latest occurrence');
  assert.ok(Date.parse(after.next_run_at) > later.getTime());
});

reports('retention: files older than REPORT_RETENTION_DAYS are deleted at start; the report stays readable', async () => {
  const kept = await generated({ type: 'call_summary', ...MARCH, format: 'csv' });
  const json = await generated({ type: 'call_summary', ...MARCH });
  assert.ok(json.data);
  await api.post('/v1/sandbox/clock', { advance_seconds: 31 * 86_400 });
  await server.restart();
  api = client(server, apiKey);
  other = client(server, otherKey);
  const expired = await waitFor('the retention sweep', async () => (await api.get(`/v1/reports/${json.report_id}`)).body, (report) => report.data === null);
  assert.equal([expired.status, expired.data, expired.download_url], ['completed', null, null]);
  const csv = (await api.get(`/v1/reports/${kept.report_id}`)).body;
  assert.equal([csv.status, csv.download_url], ['completed', null]);
});

reports('report.completed has a payload schema', () => {
  assert.ok(WEBHOOK_PAYLOAD_DATA['report.completed'].safeParse({
    report_id: 'rpt_1', run_id: 'rrn_1', type: 'call_summary', format: 'pdf', period: MARCH, trigger: 'request', status: 'completed', size_bytes: 10, completed_at: '2026-04-01T10:00:00.000Z',
  }).success);
});

reports.run();

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';
import { loanRenewalScript, threateningRecoveryScript as threateningScript } from '../support/scripts.ts';

/**
 * The compliance_audit report end to end over the real server, with results the real rules produced: an English
 * recovery call whose agent says "police will arrest you today" (no_false_claims, critical, with evidence), a clean
 * service call, and a promotional campaign whose contact without consent is blocked before dialling
 * (in-trai.consent_and_dnd) while the consented one is called. The report's figures must be the ones
 * GET /v1/analytics/compliance gives for the same day (the same aggregate), in JSON, CSV and PDF.
 */
const audit = suite('reports: compliance_audit');
const DAY = { from: '2026-03-02', to: '2026-03-02' };
let server: TestServer;
let api: ApiClient;
let threatCallId: string;
let campaignId: string;

const cleanScript = {
  name: 'Service',
  single_call_enabled: true,
  steps: [{ id: 'greet', say: 'Hello {name}, this is Ravi from Sahay Finance calling about your account. This call is recorded. Thank you.', end: true }],
};

async function advance(): Promise<void> {
  await api.post('/v1/sandbox/clock', { advance_seconds: 0.001 });
}

async function completedCall(body: Record<string, unknown>): Promise<any> {
  const placed = await api.post('/v1/calls', { name: 'Meera', language: 'en-IN', recording_enabled: true, ...body });
  assert.is(placed.status, 201, placed.text);
  return waitFor(`call ${placed.body.id} to end`, async () => {
    await advance();
    return (await api.get(`/v1/calls/${placed.body.id}`)).body;
  }, (call) => call.status !== 'in_progress');
}

async function generated(body: Record<string, unknown>): Promise<any> {
  const created = await api.post('/v1/reports', body);
  assert.is(created.status, 202, created.text);
  const report = await waitFor(`report ${created.body.report_id}`, async () => (await api.get(`/v1/reports/${created.body.report_id}`)).body, (report) => report.status !== 'generating');
  assert.is(report.status, 'completed', JSON.stringify(report));
  return report;
}

audit.before(async () => {
  // 06:00 UTC is 11:30 in India: inside every calling window.
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-02T06:00:00Z' } });
  api = client(server, (await createWorkspace(server, 'Audit')).key);
  const settings = await api.put('/v1/compliance/settings', { packs: [{ id: 'in-rbi-recovery' }, { id: 'in-trai' }, { id: 'in-dpdp' }, { id: 'general' }] });
  assert.is(settings.status, 200, settings.text);

  const threat = await completedCall({ phone: '+919876500003', script_id: (await api.post('/v1/scripts', threateningScript)).body.id, metadata: { amount: 5000 }, purpose: 'recovery' });
  threatCallId = threat.id;
  await completedCall({ phone: '+919876500004', script_id: (await api.post('/v1/scripts', cleanScript)).body.id });

  const campaign = await api.post('/v1/campaigns', {
    name: 'Promo',
    script_id: (await api.post('/v1/scripts', loanRenewalScript())).body.id,
    language: 'hi-IN',
    purpose: 'promotional',
    contacts: [
      { phone: '+919876500005', name: 'A', amount: 1, lender: 'L', consent: { given_at: '2026-01-15T10:00:00Z', purpose: 'promotional' } },
      { phone: '+919876500006', name: 'B', amount: 1, lender: 'L' },
    ],
  });
  assert.is(campaign.status, 201, campaign.text);
  campaignId = campaign.body.id;
  assert.is((await api.patch(`/v1/campaigns/${campaignId}`, { action: 'start' })).status, 200);
  await waitFor('the campaign to complete', async () => {
    await advance();
    return (await api.get(`/v1/campaigns/${campaignId}`)).body;
  }, (body) => body.status === 'completed');
  await waitFor('three evaluated calls and the blocked attempt', async () => {
    await advance();
    return (await api.get(`/v1/analytics/compliance?from=${DAY.from}&to=${DAY.to}`)).body;
  }, (body) => body.calls_evaluated === 3 && body.blocked_attempts_by_rule.length === 1);
});
audit.after(async () => server.stop());

audit('JSON: the figures of GET /v1/analytics/compliance, check results with pass rates, the violation log with evidence', async () => {
  const report = await generated({ type: 'compliance_audit', ...DAY });
  const analytics = (await api.get(`/v1/analytics/compliance?from=${DAY.from}&to=${DAY.to}`)).body;
  const data = report.data;
  assert.is(data.totals.calls_evaluated, 3);
  assert.equal(
    [data.totals.pass_rate, data.totals.avg_compliance_score, data.severity_breakdown],
    [analytics.pass_rate, analytics.avg_compliance_score, analytics.violations_by_severity],
  );
  assert.ok(data.totals.passed_calls < 3, 'the threatening call fails');
  assert.is(data.totals.violations, data.severity_breakdown.critical + data.severity_breakdown.warning);
  assert.equal(data.blocked_attempts_by_rule, [{ rule_id: 'in-trai.consent_and_dnd', severity: 'critical', count: 1, final: 1 }]);
  assert.is(data.totals.blocked_attempts, 1);

  const falseClaims = data.check_results.find((row: any) => row.check === 'no_false_claims');
  assert.ok(falseClaims, JSON.stringify(data.check_results));
  assert.equal([falseClaims.severity, falseClaims.failed_calls], ['critical', 1]);
  assert.ok(falseClaims.calls_evaluated >= 1);
  assert.is(falseClaims.pass_rate, Math.round(((falseClaims.calls_evaluated - 1) / falseClaims.calls_evaluated) * 10_000) / 10_000);
  // The per-check failures are the aggregate's violations_by_check, which lists only the failed checks.
  for (const failed of analytics.violations_by_check) {
    const row = data.check_results.find((candidate: any) => candidate.check === failed.check && candidate.severity === failed.severity);
    assert.equal([row.failed_calls, row.violations], [failed.calls, failed.count], failed.check);
  }
  const recording = data.check_results.find((row: any) => row.check === 'recording_disclosure');
  assert.ok(recording && recording.calls_evaluated >= 2 && recording.pass_rate > 0, 'a check that passed is listed with its calls');

  assert.is(data.violation_log_total, data.totals.violations);
  assert.is(data.violation_log.length, data.violation_log_total);
  assert.is(data.violation_log_truncated, false);
  const entry = data.violation_log.find((row: any) => row.check === 'no_false_claims');
  assert.equal([entry.call_id, entry.severity, entry.rule_id, entry.evidence_speaker, entry.campaign_id], [threatCallId, 'critical', 'in-rbi-recovery.no_false_claims', 'agent', null]);
  assert.type(entry.evidence_time_seconds, 'number');
  assert.match(entry.excerpt, /Police will arrest you today/);
  assert.match(entry.occurred_at, /^2026-03-02T/);
});

audit('filters: campaign_id and language narrow every section; agent_id does not apply (400)', async () => {
  const campaign = (await generated({ type: 'compliance_audit', ...DAY, filters: { campaign_id: campaignId } })).data;
  assert.is(campaign.totals.calls_evaluated, 1, 'the consented contact\'s call');
  assert.is(campaign.totals.blocked_attempts, 1);
  assert.ok(campaign.violation_log.every((row: any) => row.campaign_id === campaignId));
  assert.ok(campaign.violation_log.every((row: any) => row.campaign_name === 'Promo'));

  const tamil = (await generated({ type: 'compliance_audit', ...DAY, filters: { language: 'ta-IN' } })).data;
  assert.equal([tamil.totals.calls_evaluated, tamil.check_results, tamil.violation_log, tamil.violation_log_total, tamil.blocked_attempts_by_rule], [0, [], [], 0, []]);
  assert.is(tamil.totals.avg_compliance_score, null);

  const english = (await generated({ type: 'compliance_audit', ...DAY, filters: { language: 'en-IN' } })).data;
  assert.is(english.totals.calls_evaluated, 2);
  assert.equal(english.blocked_attempts_by_rule, [], 'the blocked attempt belongs to a Hindi campaign');

  const agent = await api.post('/v1/reports', { type: 'compliance_audit', ...DAY, filters: { agent_id: 'agt_x' } });
  assert.is(agent.status, 400, agent.text);
  assert.equal([agent.body.error.code, agent.body.error.details.field], ['invalid_parameter', 'filters.agent_id']);
  assert.match(agent.body.error.details.expected, /campaign_id, language/);
});

audit('CSV: one row per check, finding and blocking rule, under their section', async () => {
  const report = await generated({ type: 'compliance_audit', ...DAY, format: 'csv' });
  const response = await fetch(report.download_url);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-disposition'), 'attachment; filename="compliance_audit_2026-03-02_2026-03-02.csv"');
  const text = (await response.text()).replace(/^\uFEFF/, '');
  const rows: Array<Record<string, string>> = parse(text, { columns: true });
  const json = (await generated({ type: 'compliance_audit', ...DAY })).data;
  const section = (name: string) => rows.filter((row) => row.section === name);
  assert.is(section('summary').find((row) => row.label === 'Calls evaluated')!.value, '3');
  assert.is(section('check_results').length, json.check_results.length);
  const falseClaims = section('check_results').find((row) => row.check === 'no_false_claims')!;
  assert.equal([falseClaims.severity, falseClaims.failed_calls], ['critical', '1']);
  assert.equal(section('severity_breakdown').map((row) => [row.severity, row.violations]), [['critical', String(json.severity_breakdown.critical)], ['warning', String(json.severity_breakdown.warning)]]);
  assert.equal(section('blocked_attempts_by_rule').map((row) => [row.rule_id, row.severity, row.count, row.final]), [['in-trai.consent_and_dnd', 'critical', '1', '1']]);
  assert.is(section('violation_log').length, json.violation_log_total);
  const logged = section('violation_log').find((row) => row.check === 'no_false_claims')!;
  assert.equal([logged.call, logged.campaign_name], [threatCallId, 'Single call']);
  assert.match(logged.excerpt!, /Police will arrest you today/);
});

audit('PDF: title, figures, the tables and the evidence; page 1 has a chart', async () => {
  const report = await generated({ type: 'compliance_audit', ...DAY, format: 'pdf' });
  const response = await fetch(report.download_url);
  assert.is(response.headers.get('content-type'), 'application/pdf');
  const dir = mkdtempSync(join(tmpdir(), 'e2e-audit-pdf-'));
  try {
    const path = join(dir, 'audit.pdf');
    writeFileSync(path, Buffer.from(await response.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    assert.match(text, /Compliance audit/);
    assert.match(text, /Period: 2026-03-02 to 2026-03-02 \(UTC\)/);
    // The summary figures are boxes of four: labels on one line, their values on the next.
    assert.match(text, /Calls evaluated\s+Passed \(no critical finding\)\s+Pass rate\s+Average compliance score\s+3\s+2\s+66\.7%/);
    assert.match(text, /Blocked dial attempts\s+Violation log\s+\d+\s+\d+\s+1\s+\d+ findings/);
    for (const heading of ['Check results', 'Findings by severity', 'Blocked dial attempts by rule', 'Violation log', 'Failed calls by check']) assert.ok(text.includes(heading), heading);
    assert.match(text, /in-trai\.consent_and_dnd/);
    assert.match(text, /no_false_claims/);
    assert.match(text, /Your EMI of 5000 rupees/);
    const gray = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '30', '-gray', path], { maxBuffer: 16 * 1024 * 1024 });
    const pixels = gray.subarray(gray.length - 248 * 350);
    assert.ok(pixels.filter((value) => value < 200).length > 500, 'page 1 has ink');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

audit.run();

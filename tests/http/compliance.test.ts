import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadComplianceClassifier } from '../../infra/analysis/compliance-classifier/compliance-classifier-model.ts';
import { cli, client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Compliance over the real server (issue 14): the settings, a single call refused by a pre-dial rule, the result of
 * an evaluated call and of a standalone job, and the aggregate with the pre-dial side. The manual clock starts at
 * 10:00 UTC (15:30 in India).
 */
const flow = suite('compliance');
let server: TestServer;
/** The committed compliance model's id (its file's hash), which results and audits name. */
const committedModel = loadComplianceClassifier().id;
let api: ApiClient;
let other: ApiClient;
let workspaceId: string;
let scriptId: string;

flow.before(async () => {
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-02T10:00:00Z' } });
  const workspace = await createWorkspace(server, 'Compliance');
  workspaceId = workspace.workspaceId;
  api = client(server, workspace.key);
  other = client(server, (await createWorkspace(server, 'Other')).key);
  scriptId = (await api.post('/v1/scripts', loanRenewalScript())).body.id;
});
flow.after(async () => server.stop());

function invalid(response: { status: number; body: any; text: string }, field: string): any {
  assert.is(response.status, 400, response.text);
  assert.is(response.body.error.code, 'invalid_parameter', response.text);
  assert.is(response.body.error.details.field, field, response.text);
  return response.body.error.details;
}

async function completedCall(phone: string, extra: Record<string, unknown> = {}): Promise<any> {
  const placed = await api.post('/v1/calls', { phone, name: 'Meera', script_id: scriptId, language: 'hi-IN', metadata: { amount: 5000, lender: 'Sahay' }, recording_enabled: false, ...extra });
  assert.is(placed.status, 201, placed.text);
  return waitFor(`call ${placed.body.id} to end`, async () => {
    await api.post('/v1/sandbox/clock', { advance_seconds: 0.001 });
    return (await api.get(`/v1/calls/${placed.body.id}`)).body;
  }, (call) => call.status !== 'in_progress');
}

flow('settings: the defaults, a valid PUT with its defaults filled in, precise 400s, the other workspace untouched', async () => {
  const initial = await api.get('/v1/compliance/settings');
  assert.is(initial.status, 200, initial.text);
  assert.equal(initial.body.packs.map((pack: any) => pack.id), ['general']);
  assert.equal([initial.body.revision, initial.body.updated_at], [0, null]);
  assert.equal(initial.body.available_packs.map((pack: any) => pack.id), ['in-rbi-recovery', 'in-trai', 'in-dpdp', 'general']);
  const rbi = initial.body.available_packs[0];
  assert.equal(rbi.purposes, ['recovery']);
  assert.ok(rbi.rules.some((rule: any) => rule.id === 'in-rbi-recovery.calling_window' && rule.kind === 'pre-dial' && rule.severity === 'critical'));

  invalid(await api.put('/v1/compliance/settings', { packs: [{ id: 'in-fcc' }] }), 'packs[0].id');
  invalid(await api.put('/v1/compliance/settings', { packs: [{ id: 'in-trai' }, { id: 'in-trai' }] }), 'packs[1].id');
  const range = invalid(await api.put('/v1/compliance/settings', { packs: [{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 100 } }] }), 'packs[0].parameters.max_attempts_per_day');
  assert.is(range.provided, 100);
  invalid(await api.put('/v1/compliance/settings', { packs: [{ id: 'in-dpdp', parameters: { sector: 'bank' } }] }), 'packs[0].parameters.sector');
  invalid(await api.put('/v1/compliance/settings', { packs: [{ id: 'in-dpdp', parameters: { nonsense: 1 } }] }), 'packs[0].parameters.nonsense');
  assert.is((await api.put('/v1/compliance/settings', {})).status, 400);

  const put = await api.put('/v1/compliance/settings', { packs: [{ id: 'in-trai' }, { id: 'in-dpdp', parameters: { sector: 'insurer' } }, { id: 'general' }] });
  assert.is(put.status, 200, put.text);
  assert.equal(put.body.packs.map((pack: any) => [pack.id, pack.version]), [['in-trai', '1.0.0'], ['in-dpdp', '1.0.0'], ['general', '1.0.0']]);
  assert.equal(put.body.packs[1].parameters, { sector: 'insurer', disclosure_window_seconds: 30 });
  assert.is(put.body.revision, 1);
  const read = await api.get('/v1/compliance/settings');
  assert.equal(read.body, put.body);
  assert.equal((await other.get('/v1/compliance/settings')).body.packs.map((pack: any) => pack.id), ['general']);

  // Scopes: a Read-Only key reads the settings; only Admin changes them or starts an audit.
  const readOnly = client(server, (await api.post('/v1/api-keys', { name: 'auditor', scope: 'Read-Only' })).body.key);
  const readWrite = client(server, (await api.post('/v1/api-keys', { name: 'crm', scope: 'Read-Write' })).body.key);
  assert.is((await readOnly.get('/v1/compliance/settings')).status, 200);
  assert.is((await readOnly.get('/v1/analytics/compliance')).status, 200);
  assert.is((await readWrite.put('/v1/compliance/settings', { packs: [] })).status, 403);
  assert.is((await readWrite.post('/v1/compliance/audits', { from: '2026-03-01', to: '2026-03-02', settings: { packs: [] } })).status, 403);
});

flow('POST /v1/calls: 409 compliance_blocked naming the rule; reserved fields validated', async () => {
  // in-trai is enabled (previous test). A promotional call without consent:
  const noConsent = await api.post('/v1/calls', { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', metadata: { amount: 1, lender: 'L' }, purpose: 'promotional' });
  assert.is(noConsent.status, 409, noConsent.text);
  assert.is(noConsent.body.error.code, 'compliance_blocked');
  assert.equal(noConsent.body.error.details, {
    rule_id: 'in-trai.consent_and_dnd',
    check: 'consent_and_dnd',
    severity: 'critical',
    rule_pack: { id: 'in-trai', version: '1.0.0' },
    reason: 'no consent recorded for promotional calls',
    retry_after: null,
  });
  // 10:00 UTC is 05:00 in New York: outside TRAI's 09:00-21:00 in the person's zone.
  const early = await api.post('/v1/calls', { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', metadata: { amount: 1, lender: 'L' }, timezone: 'America/New_York' });
  assert.is(early.status, 409, early.text);
  assert.equal([early.body.error.details.rule_id, early.body.error.details.retry_after], ['in-trai.calling_window', '2026-03-02T14:00:00.000Z']);
  invalid(await api.post('/v1/calls', { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', timezone: 'Mars/Base' }), 'timezone');
  invalid(await api.post('/v1/calls', { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', consent: { given_at: 'soon', purpose: 'promotional' } }), 'consent.given_at');
  invalid(await api.post('/v1/calls', { phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', purpose: 'sales' }), 'purpose');
  // With consent, the promotional call goes ahead.
  const consented = await api.post('/v1/calls', {
    phone: '+919876500003', name: 'Asha', script_id: scriptId, language: 'hi-IN', metadata: { amount: 1, lender: 'L' }, purpose: 'promotional',
    consent: { given_at: '2026-01-15T10:00:00+05:30', purpose: 'promotional' }, recording_enabled: false,
  });
  assert.is(consented.status, 201, consented.text);
});

flow('campaigns: purpose in the document, reserved contact fields validated (400 naming the contact)', async () => {
  const base = { name: 'Promo', script_id: scriptId, language: 'hi-IN', purpose: 'promotional' };
  invalid(await api.post('/v1/campaigns', { ...base, contacts: [{ phone: '+919876500001', name: 'A', amount: 1, lender: 'L', timezone: 'Nowhere' }] }), 'contacts[0].timezone');
  invalid(await api.post('/v1/campaigns', { ...base, purpose: 'sales', contacts: [{ phone: '+919876500001', name: 'A', amount: 1, lender: 'L' }] }), 'purpose');
  const created = await api.post('/v1/campaigns', {
    ...base,
    contacts: [
      { phone: '+919876500003', name: 'A', amount: 1, lender: 'L', consent: { given_at: '2026-01-15T10:00:00Z', purpose: 'promotional' } },
      { phone: '+919876500004', name: 'B', amount: 1, lender: 'L' },
    ],
  });
  assert.is(created.status, 201, created.text);
  assert.is(created.body.purpose, 'promotional');
  assert.is((await api.patch(`/v1/campaigns/${created.body.id}`, { action: 'start' })).status, 200);
  const done = await waitFor('the campaign to complete', async () => {
    await api.post('/v1/sandbox/clock', { advance_seconds: 0.001 });
    return (await api.get(`/v1/campaigns/${created.body.id}`)).body;
  }, (campaign) => campaign.status === 'completed');
  assert.equal([done.calls_made, done.disposition_summary.dnd, done.purpose], [1, 1, 'promotional']);
  const aggregate = await waitFor('the blocked attempt in the aggregate', async () => (await api.get(`/v1/analytics/compliance?campaign_id=${created.body.id}`)).body, (body) => body.blocked_attempts_by_rule?.length === 1);
  assert.equal(aggregate.blocked_attempts_by_rule, [{ rule_id: 'in-trai.consent_and_dnd', severity: 'critical', count: 1, final: 1 }]);
  assert.equal((await api.get(`/v1/analytics/compliance?campaign_id=${created.body.id}&language=ta-IN`)).body.blocked_attempts_by_rule, []);
});

flow('a call\'s result: 404 unknown, processing, then the result; a standalone job with the compliance feature; the aggregate', async () => {
  const unknown = await api.get('/v1/analytics/compliance?call_id=cal_nope');
  assert.equal([unknown.status, unknown.body.error.code], [404, 'resource_not_found']);
  const call = await completedCall('+919876500003', { consent: { given_at: '2026-01-15T10:00:00Z', purpose: 'promotional' } });
  assert.ok(call.transcript_job_id);
  const result = await waitFor('the compliance result', async () => (await api.get(`/v1/analytics/compliance?call_id=${call.id}`)).body, (body) => body.status === undefined);
  assert.is(result.call_id, call.id);
  assert.is(result.job_id, call.transcript_job_id);
  assert.type(result.compliance_score, 'number');
  assert.ok(Array.isArray(result.passed_checks) && Array.isArray(result.violations));
  assert.equal(result.rule_packs, [{ id: 'in-trai', version: '1.0.0' }, { id: 'in-dpdp', version: '1.0.0' }, { id: 'general', version: '1.0.0' }]);
  // Judged by the committed model on top of the rules (COMPLIANCE_CLASSIFIER=on by default), named by its file's hash.
  assert.is(result.classifier, committedModel);
  assert.match(result.classifier, /^compliance-classifier\/1@[0-9a-f]{12}$/);
  assert.is((await other.get(`/v1/analytics/compliance?call_id=${call.id}`)).status, 404, "another workspace's call does not exist for it");

  const unanswered = await completedCall('+919876500000');
  assert.equal((await api.get(`/v1/analytics/compliance?call_id=${unanswered.id}`)).body, { call_id: unanswered.id, job_id: null, status: 'not_applicable' });

  const job = await api.post('/v1/transcription', {
    transcript: [
      { speaker: 'agent', text: 'Hello, this is Ravi from Sahay Finance. This call is recorded.', start_time: 0, end_time: 4 },
      { speaker: 'customer', text: 'Yes, tell me.', start_time: 4.5, end_time: 6 },
    ],
    language: 'en-IN',
    features: ['transcription', 'compliance'],
  });
  assert.is(job.status, 202, job.text);
  const jobResult = await waitFor('the job\'s compliance result', async () => (await api.get(`/v1/analytics/compliance?job_id=${job.body.job_id}`)).body, (body) => body.status === undefined);
  assert.equal([jobResult.call_id, jobResult.job_id], [null, job.body.job_id]);
  assert.is((await api.get('/v1/analytics/compliance?job_id=job_nope')).status, 404);

  const aggregate = await api.get('/v1/analytics/compliance');
  assert.is(aggregate.status, 200, aggregate.text);
  assert.equal([aggregate.body.from, aggregate.body.to, aggregate.body.timezone], ['2026-02-01', '2026-03-02', 'UTC']);
  // Answered calls (the consented single call of the test before, the campaign's, this one) and the job; not the unanswered call.
  assert.is(aggregate.body.calls_evaluated, 4);
  assert.ok(aggregate.body.pass_rate >= 0 && aggregate.body.pass_rate <= 1);
  assert.equal(Object.keys(aggregate.body.violations_by_severity), ['critical', 'warning']);
  assert.is((await api.get('/v1/analytics/compliance?language=hi-IN')).body.calls_evaluated, 3);
  assert.is((await api.get('/v1/analytics/compliance?from=2026-02-01&to=2026-02-28')).body.calls_evaluated, 0);
  invalid(await api.get('/v1/analytics/compliance?from=2026-02-30'), 'from');
  invalid(await api.get('/v1/analytics/compliance?from=9999-12-31&to=9999-12-31'), 'from');
  invalid(await api.get('/v1/analytics/compliance?language=xx'), 'language');
  assert.is((await other.get('/v1/analytics/compliance')).body.calls_evaluated, 0);
});

flow('re-audit: 400s, 202 running, progress to completed without touching results; the CLI does the same in one command', async () => {
  const window = { from: '2026-03-01', to: '2026-03-03' };
  invalid(await api.post('/v1/compliance/audits', window), 'settings');
  invalid(await api.post('/v1/compliance/audits', { ...window, settings: { packs: [] }, rule_pack_version: { id: 'general', version: '1.0.0' } }), 'settings');
  invalid(await api.post('/v1/compliance/audits', { ...window, rule_pack_version: { id: 'general', version: '0.9.0' } }), 'rule_pack_version.version');
  invalid(await api.post('/v1/compliance/audits', { ...window, settings: { packs: [{ id: 'in-xx' }] } }), 'packs[0].id');
  invalid(await api.post('/v1/compliance/audits', { ...window, from: '2026-03-04', settings: { packs: [] } }), 'to');
  invalid(await api.post('/v1/compliance/audits', { ...window, from: '9999-12-31', to: '9999-12-31', settings: { packs: [] } }), 'from');
  assert.is((await api.post('/v1/compliance/audits', { ...window, settings: { packs: [] }, campaign_id: 'cmp_nope' })).status, 404);

  const before = (await api.get('/v1/analytics/compliance')).body;
  const requested = await api.post('/v1/compliance/audits', { ...window, settings: { packs: [{ id: 'in-rbi-recovery' }, { id: 'in-dpdp' }, { id: 'general' }] } });
  assert.is(requested.status, 202, requested.text);
  assert.match(requested.body.id, /^aud_/);
  assert.equal([requested.body.basis, requested.body.progress.total, requested.body.from, requested.body.to], ['settings', 4, '2026-03-01T00:00:00.000Z', '2026-03-03T23:59:59.999Z']);
  const done = await waitFor('the audit to complete', async () => (await api.get(`/v1/compliance/audits/${requested.body.id}`)).body, (audit) => audit.status === 'completed');
  assert.equal(done.progress, { processed: 4, total: 4 });
  assert.ok(done.completed_at);
  // The same model judged the current results and the audit: nothing it reports comes from a change of model.
  assert.equal([done.classifiers, done.calls_judged_by_other_model], [[committedModel], 0]);
  assert.equal((await api.get('/v1/analytics/compliance')).body, before, 'current results untouched');
  assert.is((await other.get(`/v1/compliance/audits/${requested.body.id}`)).status, 404);

  const byVersion = await api.post('/v1/compliance/audits', { ...window, rule_pack_version: { id: 'in-rbi-recovery', version: '1.0.0' } });
  assert.is(byVersion.status, 202, byVersion.text);
  assert.equal(byVersion.body.rule_packs.map((pack: any) => pack.id), ['in-trai', 'in-dpdp', 'general', 'in-rbi-recovery']);

  const command = await cli(server.dataDir, ['compliance', 'audit', '--workspace', workspaceId, '--from', '2026-03-01', '--to', '2026-03-03', '--json']);
  assert.is(command.code, 0, command.stderr);
  const report = JSON.parse(command.stdout);
  assert.equal([report.status, report.progress, report.classifiers], ['completed', { processed: 4, total: 4 }, [committedModel]]);
  assert.is((await api.get(`/v1/compliance/audits/${report.id}`)).body.status, 'completed', 'the API sees the CLI\'s audit');
  // The list: newest first, the workspace's own only, paginated like every list.
  const listed = await api.get('/v1/compliance/audits?limit=2');
  assert.is(listed.status, 200, listed.text);
  assert.equal([listed.body.total, listed.body.limit, listed.body.offset], [3, 2, 0]);
  assert.equal(listed.body.data.map((audit: any) => audit.id), [report.id, byVersion.body.id]);
  assert.equal((await api.get('/v1/compliance/audits?offset=2')).body.data.map((audit: any) => audit.id), [requested.body.id]);
  assert.equal((await api.get('/v1/compliance/audits?offset=2')).body.data[0], done);
  assert.equal((await other.get('/v1/compliance/audits')).body.total, 0);
  assert.is((await api.get('/v1/compliance/audits?limit=0')).status, 400);
  const usage = await cli(server.dataDir, ['compliance', 'audit', '--workspace', workspaceId, '--from', 'yesterday', '--to', '2026-03-03']);
  assert.is(usage.code, 2);
});

flow.run();

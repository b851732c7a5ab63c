import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../support/https-receiver.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';
import { WEBHOOK_ENVELOPES } from '../../processes/webhooks/payload-schemas.ts';
import { threateningRecoveryScript as threateningScript } from '../support/scripts.ts';

/**
 * The real post-call rules end to end (issue 14): a recovery call whose agent says "police will arrest you today"
 * fails `no_false_claims` (critical, with the segment as evidence), the result and the aggregate say so, and the
 * webhook `compliance.violation` is delivered (its body parsed with its published schema). A clean service call
 * passes. A standalone Hindi job asks for the `compliance` feature.
 */
const flow = suite('compliance violations');
const SECRET = 'whsec_compliance_test';
let certificate: Certificate;
let server: TestServer;
let api: ApiClient;
let receiver: Receiver;


flow.before(async () => {
  certificate = makeCertificate();
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-02T06:00:00Z', ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: certificate.certPath } });
  api = client(server, (await createWorkspace(server, 'Violations')).key);
  receiver = await startReceiver(certificate, SECRET);
});
flow.after(async () => {
  await receiver.close();
  await server.stop();
  certificate.remove();
});

async function completedCall(body: Record<string, unknown>): Promise<any> {
  const placed = await api.post('/v1/calls', { name: 'Meera', language: 'en-IN', recording_enabled: true, ...body });
  assert.is(placed.status, 201, placed.text);
  return waitFor(`call ${placed.body.id} to end`, async () => {
    await api.post('/v1/sandbox/clock', { advance_seconds: 0.001 });
    return (await api.get(`/v1/calls/${placed.body.id}`)).body;
  }, (call) => call.status !== 'in_progress');
}

flow('an English recovery call with "police will arrest you today": no_false_claims critical, evidence, webhook', async () => {
  const settings = await api.put('/v1/compliance/settings', { packs: [{ id: 'in-rbi-recovery' }, { id: 'in-dpdp' }, { id: 'general' }] });
  assert.is(settings.status, 200, settings.text);
  const hook = await api.post('/v1/webhooks', { url: `${receiver.url}/compliance`, events: ['compliance.violation'], secret: SECRET });
  assert.is(hook.status, 201, hook.text);
  const scriptId = (await api.post('/v1/scripts', threateningScript)).body.id;
  const call = await completedCall({ phone: '+919876500003', script_id: scriptId, metadata: { amount: 5000 }, purpose: 'recovery' });
  const result = await waitFor('the compliance result', async () => (await api.get(`/v1/analytics/compliance?call_id=${call.id}`)).body, (body) => body.status === undefined);
  const falseClaim = result.violations.find((violation: any) => violation.check === 'no_false_claims');
  assert.ok(falseClaim, JSON.stringify(result));
  assert.is(falseClaim.severity, 'critical');
  assert.equal(falseClaim.rule_pack, { id: 'in-rbi-recovery', version: '1.0.0' });
  assert.is(falseClaim.evidence.speaker, 'agent');
  assert.match(falseClaim.evidence.text, /Police will arrest you today/);
  assert.type(falseClaim.evidence.start_time, 'number');
  assert.ok(result.compliance_score < 100);
  assert.ok(result.passed_checks.includes('recording_disclosure'), JSON.stringify(result.passed_checks));
  assert.equal(result.rule_packs.map((pack: any) => pack.id), ['in-rbi-recovery', 'in-dpdp', 'general']);

  const delivered = await waitFor('the compliance.violation delivery', async () => receiver.of('compliance.violation'), (requests) => requests.length === 1);
  const body = WEBHOOK_ENVELOPES['compliance.violation'].parse(delivered[0]!.body);
  assert.is(delivered[0]!.signatureValid, true);
  assert.equal([body.data.call_id, body.data.job_id, body.data.compliance_score, body.data.classifier], [call.id, call.transcript_job_id, result.compliance_score, result.classifier]);
  assert.match(body.data.classifier ?? '', /^compliance-classifier\/1@[0-9a-f]{12}$/);
  assert.is(body.data.violations[0]!.severity, 'critical');
  assert.ok(body.data.violations.some((violation) => violation.check === 'no_false_claims'));

  const aggregate = (await api.get('/v1/analytics/compliance?from=2026-03-02&to=2026-03-02')).body;
  assert.is(aggregate.calls_evaluated, 1);
  assert.is(aggregate.pass_rate, 0);
  assert.ok(aggregate.violations_by_severity.critical >= 1);
  assert.ok(aggregate.violations_by_check.some((row: any) => row.check === 'no_false_claims' && row.severity === 'critical' && row.count >= 1 && row.calls === 1));
});

flow('a clean service call passes without a webhook; a Hindi standalone job with the compliance feature is checked too', async () => {
  const cleanScript = {
    name: 'Service',
    single_call_enabled: true,
    steps: [{ id: 'greet', say: 'Hello {name}, this is Ravi from Sahay Finance calling about your account. This call is recorded. Thank you.', end: true }],
  };
  const scriptId = (await api.post('/v1/scripts', cleanScript)).body.id;
  const call = await completedCall({ phone: '+919876500004', script_id: scriptId });
  const result = await waitFor('the clean result', async () => (await api.get(`/v1/analytics/compliance?call_id=${call.id}`)).body, (body) => body.status === undefined);
  assert.equal(result.violations.filter((violation: any) => violation.severity === 'critical'), []);
  assert.ok(!result.rule_packs.some((pack: any) => pack.id === 'in-rbi-recovery'), 'the recovery pack does not apply to a service call');

  const job = await api.post('/v1/transcription', {
    transcript: [
      { speaker: 'agent', text: 'नमस्ते, मैं सहाय फाइनेंस से रवि बोल रहा हूँ। यह कॉल रिकॉर्ड हो रही है।', start_time: 0, end_time: 5 },
      { speaker: 'agent', text: 'पुलिस आपको आज गिरफ्तार करेगी।', start_time: 5.5, end_time: 8 },
      { speaker: 'customer', text: 'ठीक है।', start_time: 8.5, end_time: 9 },
    ],
    language: 'hi-IN',
    features: ['transcription', 'compliance'],
    metadata: { purpose: 'recovery', lender_name: 'सहाय फाइनेंस', agent_name: 'रवि' },
  });
  assert.is(job.status, 202, job.text);
  const jobResult = await waitFor('the job result', async () => (await api.get(`/v1/analytics/compliance?job_id=${job.body.job_id}`)).body, (body) => body.status === undefined);
  assert.ok(jobResult.violations.some((violation: any) => violation.check === 'no_false_claims' && violation.severity === 'critical'), JSON.stringify(jobResult));
  await waitFor('the job\'s compliance.violation', async () => receiver.of('compliance.violation'), (requests) => requests.length === 2);
  assert.equal(receiver.of('compliance.violation').map((request) => request.body.data.call_id), [receiver.of('compliance.violation')[0]!.body.data.call_id, null]);
});

flow.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../../composition.ts';
import { complianceAuditDecider, complianceAuditStream } from '../../../domain/compliance/audit.ts';
import { defaultPack } from '../../../domain/compliance/packs.ts';
import { complianceSettingsDecider, complianceSettingsStream } from '../../../domain/compliance/settings.ts';
import { transcriptionJobDecider, transcriptionJobStream } from '../../../domain/transcription-job.ts';
import { workspaceDecider, workspaceStream } from '../../../domain/workspace.ts';
import { loadComplianceClassifier } from '../../../infra/analysis/compliance-classifier/compliance-classifier-model.ts';
import { createTranscriptionWorker } from '../../../processes/analysis/transcription-worker.ts';
import { createComplianceAuditRunner } from '../../../processes/compliance/audit-runner.ts';
import { createPostCallCompliance } from '../../../processes/compliance/post-call-evaluation.ts';
import { auditSubjects, findComplianceAudit } from '../../../projections/compliance-audits.ts';
import { findComplianceResult } from '../../../projections/compliance-results.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';

// A re-audit survives a restart: it resumes after its last recorded batch, and counts every call once.

const workspaceId = 'ws_audit';
const context = (runtime: Runtime) => ({ workspaceId, actor: 'test', now: runtime.clock.now() });

async function submit(runtime: Runtime, jobId: string, text: string): Promise<void> {
  await runtime.commands.handle(
    transcriptionJobDecider,
    transcriptionJobStream(jobId),
    {
      type: 'SubmitTranscriptionJob',
      data: {
        job_id: jobId,
        workspace_id: workspaceId,
        audio_url: null,
        transcript: [
          { speaker: 'agent', text, start_time: 0, end_time: 3 },
          { speaker: 'customer', text: 'Okay.', start_time: 3.5, end_time: 4 },
        ],
        language: 'en-IN',
        speakers: 2,
        features: ['transcription', 'compliance'],
        qa_scorecard_id: null,
        qa_scorecard: null,
        metadata: { purpose: 'recovery' },
        call_id: null,
        disposition: null,
        submitted_at: runtime.clock.now().toISOString(),
      },
    },
    context(runtime),
  );
}

test('evaluated jobs, an audit with one batch recorded before a crash: the restarted runner finishes the rest, and says which of its calls another model judged', async () => {
  // The results are judged by the rules alone; the restarted server judges with the committed model.
  const first = testRuntime({ environment: { COMPLIANCE_CLASSIFIER: 'off' }, processes: (ports) => [createTranscriptionWorker(ports), createPostCallCompliance(ports)] });
  await first.runtime.start();
  await first.runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'CreateWorkspace', workspaceId, name: 'Audit', now: first.runtime.clock.now() }, context(first.runtime));
  await first.runtime.commands.handle(
    complianceSettingsDecider,
    complianceSettingsStream(workspaceId),
    { type: 'SetComplianceSettings', data: { workspace_id: workspaceId, packs: [{ id: 'general' }], at: first.runtime.clock.now().toISOString() } },
    context(first.runtime),
  );
  for (const [index, text] of ['Hello, this is Ravi from Sahay Finance.', 'Police will arrest you today.', 'Pay now or else.'].entries()) {
    await submit(first.runtime, `job_audit${index}`, text);
  }
  await eventually(async () => {
    await first.runtime.projections.catchUp();
    return [0, 1, 2].every((index) => findComplianceResult(first.runtime.readDb, workspaceId, `job_audit${index}`) !== undefined);
  }, 60_000, 'three evaluations');
  assert.is(findComplianceResult(first.runtime.readDb, workspaceId, 'job_audit0')!.classifier, null, 'the rules alone');
  const from = '2026-03-01T00:00:00.000Z';
  const to = '2026-03-01T23:59:59.999Z';
  const auditId = 'aud_restart';
  const stream = complianceAuditStream(auditId);
  const packs = [defaultPack('in-rbi-recovery'), defaultPack('general')];
  await first.runtime.commands.handle(
    complianceAuditDecider,
    stream,
    { type: 'RequestComplianceAudit', data: { audit_id: auditId, workspace_id: workspaceId, basis: 'settings', packs, from, to, campaign_id: null, total: 3, requested_at: first.runtime.clock.now().toISOString() } },
    context(first.runtime),
  );
  await first.runtime.projections.catchUp();
  // The batch a runner recorded before the process died: the first call only.
  const [firstCall] = auditSubjects(first.runtime.readDb, { workspaceId, from, to, campaignId: null, after: null, limit: 1 });
  const cursor = { occurred_at: firstCall!.occurred_at, subject_id: firstCall!.subject_id };
  await first.runtime.commands.handle(
    complianceAuditDecider,
    stream,
    { type: 'RecordComplianceAuditProgress', data: { after: null, cursor, batch: { processed: 1, newly_failing: [], newly_passing: [], changed: 0, by_check: [] }, at: first.runtime.clock.now().toISOString() } },
    context(first.runtime),
  );
  // A second recording of the same batch (another runner) is refused: the audit has moved on.
  const again = await first.runtime.commands.handle(
    complianceAuditDecider,
    stream,
    { type: 'RecordComplianceAuditProgress', data: { after: null, cursor, batch: { processed: 1, newly_failing: [], newly_passing: [], changed: 0, by_check: [] }, at: first.runtime.clock.now().toISOString() } },
    context(first.runtime),
    { tolerate: ['invalid_state'] },
  );
  assert.ok('refused' in again);
  await first.runtime.close();

  const second = testRuntime({ dataDir: first.dataDir, processes: (ports) => [createComplianceAuditRunner(ports)] });
  await second.runtime.start();
  await eventually(async () => {
    await second.runtime.projections.catchUp();
    return findComplianceAudit(second.runtime.readDb, workspaceId, auditId)?.status === 'completed';
  }, 60_000, 'the audit to complete after the restart');
  const audit = findComplianceAudit(second.runtime.readDb, workspaceId, auditId)!;
  assert.is(audit.processed, 3, 'each call counted once');
  // Evaluated under `general` only, the recovery pack's rules now find the false claim.
  assert.ok(audit.newly_failing_ids.includes('job_audit1'), JSON.stringify(audit));
  assert.ok(audit.by_check.some((entry) => entry.check === 'no_false_claims' && entry.severity === 'critical' && entry.added >= 1 && entry.removed === 0), JSON.stringify(audit.by_check));
  assert.is(findComplianceResult(second.runtime.readDb, workspaceId, 'job_audit1')!.violations.some((violation) => violation.check === 'no_false_claims'), false, 'the current result is untouched');
  // The batch recorded before the crash (as batches were before the model was kept) names none; the two after it were
  // judged with the committed model, which did not judge those calls' current results.
  assert.equal([audit.classifiers, audit.judged_by_other_model], [[loadComplianceClassifier().id], 2]);
  const progressed = (await second.runtime.store.readStream(stream)).filter((event) => event.type === 'ComplianceAuditProgressed');
  assert.equal(progressed.map((event) => (event.data as { processed: number }).processed), [1, 2]);
  await second.runtime.close();
  second.remove();
});

test.run();

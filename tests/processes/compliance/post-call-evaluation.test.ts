import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { askPreDialRules } from '../../../commands/compliance-pre-dial.ts';
import { callDecider, callStream } from '../../../domain/call.ts';
import { complianceResultStream } from '../../../domain/compliance/result.ts';
import { complianceSettingsDecider, complianceSettingsStream } from '../../../domain/compliance/settings.ts';
import { suppressionDecider, suppressionStream } from '../../../domain/suppression.ts';
import { transcriptionJobDecider, transcriptionJobStream } from '../../../domain/transcription-job.ts';
import { createTranscriptionWorker } from '../../../processes/analysis/transcription-worker.ts';
import { createPostCallCompliance } from '../../../processes/compliance/post-call-evaluation.ts';
import { createAnalysisPool } from '../../../infra/analysis/analysis-pool.ts';
import { inThreadTranscriptAnalysis } from '../../../infra/analysis/in-thread-analysis.ts';
import { findComplianceFailure } from '../../../projections/compliance-results.ts';
import { placeableFacts } from '../../support/call-facts.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';

// A call's transcript in which the customer opts out: evaluated on the analysis threads, the result recorded once,
// the number suppressed (source opt_out), and the next attempt blocked by in-dpdp.opted_out.

const workspaceId = 'ws_optout';
const phone = '+919876511111';

test('an opt-out heard on a call suppresses the number; a later attempt is blocked as critical', async () => {
  const { runtime, remove } = testRuntime({ processes: (ports) => [createTranscriptionWorker(ports), createPostCallCompliance(ports)] });
  await runtime.start();
  const context = { workspaceId, actor: 'test', now: runtime.clock.now() };
  await runtime.commands.handle(complianceSettingsDecider, complianceSettingsStream(workspaceId), { type: 'SetComplianceSettings', data: { workspace_id: workspaceId, packs: [{ id: 'in-dpdp' }, { id: 'general' }], at: context.now.toISOString() } }, context);
  const callId = 'cal_optout';
  await runtime.commands.handle(
    callDecider,
    callStream(callId),
    {
      type: 'PlaceCall',
      facts: placeableFacts(),
      data: {
        call_id: callId, workspace_id: workspaceId, campaign_id: null, contact_index: null, attempt: null, contact: { phone, name: 'Asha' }, language: 'en-IN',
        script_id: 'scr_x', script_version: 1, variables: {}, recording_enabled: true, started_at: context.now.toISOString(), purpose: 'service',
      },
    },
    context,
  );
  const jobId = 'job_optout';
  await runtime.commands.handle(
    transcriptionJobDecider,
    transcriptionJobStream(jobId),
    {
      type: 'SubmitTranscriptionJob',
      data: {
        job_id: jobId, workspace_id: workspaceId, audio_url: null, language: 'en-IN', speakers: 2, features: ['transcription', 'sentiment'], qa_scorecard_id: null, qa_scorecard: null,
        metadata: null, call_id: callId, disposition: 'not_interested', submitted_at: context.now.toISOString(),
        transcript: [
          { speaker: 'agent', text: 'Hello, this is Ravi from Sahay Finance about your account. This call is recorded.', start_time: 0, end_time: 5 },
          { speaker: 'customer', text: 'Please don\'t call me again.', start_time: 5.5, end_time: 7 },
        ],
      },
    },
    context,
  );
  await eventually(async () => {
    const { state } = await runtime.commands.load(suppressionDecider, suppressionStream(workspaceId));
    return state.numbers.get(phone)?.source === 'opt_out';
  }, 60_000, 'the opt-out suppression');
  const results = await runtime.store.readStream(complianceResultStream(callId));
  assert.equal(results.map((event) => event.type), ['ComplianceEvaluated']);
  const data = results[0]!.data as { opt_out: { speaker: string; text: string } | null; packs: Array<{ id: string }> };
  assert.equal([data.opt_out?.speaker, data.opt_out?.text], ['customer', 'Please don\'t call me again.']);
  assert.equal(data.packs.map((pack) => pack.id), ['in-dpdp', 'general']);

  const blocked = await askPreDialRules(runtime, { workspaceId, phone, purpose: 'service', fields: {}, campaignTimezone: null, now: runtime.clock.now() });
  assert.equal([blocked?.rule_id, blocked?.severity, blocked?.outcome], ['in-dpdp.opted_out', 'critical', 'final']);
  await runtime.close();
  remove();
});

test('an evaluation over the analysis budget is recorded as failed (not retried): GET answers status failed', async () => {
  // A real pool whose budget no evaluation can meet (a thread takes longer than 1 ms to start).
  const pool = createAnalysisPool({ threads: 1, budgetMs: 1 });
  const { runtime, remove } = testRuntime({
    processes: (ports) => [createTranscriptionWorker({ ...ports, transcriptAnalysis: inThreadTranscriptAnalysis() }), createPostCallCompliance({ ...ports, complianceEvaluator: pool })],
  });
  await runtime.start();
  const context = { workspaceId, actor: 'test', now: runtime.clock.now() };
  const jobId = 'job_budget';
  await runtime.commands.handle(
    transcriptionJobDecider,
    transcriptionJobStream(jobId),
    {
      type: 'SubmitTranscriptionJob',
      data: {
        job_id: jobId, workspace_id: workspaceId, audio_url: null, language: 'en-IN', speakers: 2, features: ['transcription', 'compliance'], qa_scorecard_id: null, qa_scorecard: null,
        metadata: null, call_id: null, disposition: null, submitted_at: context.now.toISOString(),
        transcript: [{ speaker: 'agent', text: 'Hello.', start_time: 0, end_time: 1 }],
      },
    },
    context,
  );
  await eventually(async () => {
    await runtime.projections.catchUp();
    return findComplianceFailure(runtime.readDb, workspaceId, jobId) !== undefined;
  }, 60_000, 'the recorded failure');
  assert.is(findComplianceFailure(runtime.readDb, workspaceId, jobId)!.code, 'analysis_budget_exceeded');
  const events = await runtime.store.readStream(complianceResultStream(jobId));
  assert.equal(events.map((event) => event.type), ['ComplianceEvaluationFailed']);
  await runtime.close();
  await pool.close();
  remove();
});

test.run();

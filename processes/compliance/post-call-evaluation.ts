import type { Commands } from '../../commands/handler.ts';
import { enabledPacks } from '../../commands/compliance-pre-dial.ts';
import { callDecider, callStream, type CallPlacement } from '../../domain/call.ts';
import { complianceOutcome, packsFor } from '../../domain/compliance/evaluation.ts';
import type { EnabledPack } from '../../domain/compliance/packs.ts';
import { complianceResultDecider, complianceResultStream, type ComplianceEvaluatedData } from '../../domain/compliance/result.ts';
import { suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobEvent } from '../../domain/transcription-job.ts';
import { AnalysisBudgetExceededError, AnalysisFailedError } from '../../infra/analysis/transcript-analysis.ts';
import type { ComplianceEvaluator } from '../../infra/analysis/compliance-evaluation.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { Recorded } from '../../infra/eventstore/port.ts';
import type { Logger } from '../../infra/logger.ts';
import type { ProcessManager } from '../process-manager.ts';
import { postCallSubject, wantsCompliance, type PostCallSubject } from './post-call-subject.ts';

export const POST_CALL_COMPLIANCE = 'post-call-compliance';

type JobCompletedEvent = Extract<TranscriptionJobEvent, { type: 'TranscriptionJobCompleted' }>;

export interface PostCallCompliancePorts {
  commands: Commands;
  clock: Clock;
  logger: Logger;
  /** The rules run on the analysis pool's worker threads (composition.ts), never on the event loop. */
  complianceEvaluator: ComplianceEvaluator;
}

/**
 * Evaluates every finished call's transcript (and every standalone job that asked for `compliance`) under the
 * workspace's enabled packs as they are when the analysis completes, off the event loop, and records the result
 * on the call's compliance stream (`ComplianceEvaluated`, read by projections/compliance-results.ts). An opt-out
 * the in-dpdp pack hears puts the number on the do-not-call list (source `opt_out`). A critical violation becomes
 * the webhook `compliance.violation` (processes/webhooks/payloads.ts). Replays are refused by the result stream
 * (same packs: already_exists) and the suppression list (already listed: no event).
 */
export function createPostCallCompliance(ports: PostCallCompliancePorts): ProcessManager<JobCompletedEvent> {
  return {
    name: POST_CALL_COMPLIANCE,
    eventTypes: ['TranscriptionJobCompleted'],
    async handle(event) {
      if (!wantsCompliance(event.data)) return;
      const workspaceId = event.metadata.workspace_id ?? '';
      const subject = await subjectOf(ports.commands, event, workspaceId);
      if (subject === null) return;
      const enabled = await enabledPacks(ports.commands, workspaceId);
      const context = { workspaceId, actor: POST_CALL_COMPLIANCE, now: ports.clock.now(), causationId: event.id, correlationId: event.metadata.correlation_id };
      let data: ComplianceEvaluatedData;
      try {
        data = await evaluateSubject(ports.complianceEvaluator, subject, enabled, ports.clock.now());
      } catch (error) {
        // The same transcript would fail again: recorded as failed (GET says so), not retried.
        if (!(error instanceof AnalysisBudgetExceededError || error instanceof AnalysisFailedError)) throw error;
        ports.logger.warn({ err: error, subject_id: subject.subject_id }, 'compliance evaluation failed');
        const failure = {
          subject_id: subject.subject_id,
          call_id: subject.call_id,
          job_id: subject.job_id,
          workspace_id: workspaceId,
          packs: packsFor(enabled, subject.input.purpose),
          error: { code: error instanceof AnalysisBudgetExceededError ? 'analysis_budget_exceeded' : 'analysis_failed', message: error.message },
          failed_at: ports.clock.now().toISOString(),
        };
        await ports.commands.handle(complianceResultDecider, complianceResultStream(subject.subject_id), { type: 'RecordComplianceEvaluationFailure', data: failure }, context, { tolerate: ['already_exists'] });
        return;
      }
      await ports.commands.handle(complianceResultDecider, complianceResultStream(subject.subject_id), { type: 'RecordComplianceEvaluation', data }, context, { tolerate: ['already_exists'] });
      if (data.opt_out !== null && subject.phone !== null) {
        await ports.commands.handle(
          suppressionDecider,
          suppressionStream(workspaceId),
          { type: 'SuppressNumber', data: { phone: subject.phone, source: 'opt_out', call_id: subject.call_id, reason: `asked not to be called again: "${data.opt_out.text.slice(0, 200)}"`, at: data.evaluated_at } },
          context,
        );
      }
    },
  };
}

async function subjectOf(commands: Commands, event: Recorded<JobCompletedEvent>, workspaceId: string): Promise<PostCallSubject | null> {
  const { state: job } = await commands.load(transcriptionJobDecider, transcriptionJobStream(event.data.job_id));
  if (job.job === null) return null;
  let call: CallPlacement | null = null;
  if (event.data.call_id !== null) {
    call = (await commands.load(callDecider, callStream(event.data.call_id))).state.placed;
    if (call === null) return null;
  }
  return postCallSubject(event.data, job.job, workspaceId, call);
}

/** The rules of the packs that apply to the call's purpose, on the evaluator, and the result as recorded. */
export async function evaluateSubject(evaluator: ComplianceEvaluator, subject: PostCallSubject, enabled: readonly EnabledPack[], now: Date): Promise<ComplianceEvaluatedData> {
  const packs = packsFor(enabled, subject.input.purpose);
  const { verdicts, optOut, classifier } = await evaluator.evaluateCompliance({
    input: subject.input,
    packs: packs.map(({ id, parameters }) => ({ id, parameters })),
    detectOptOut: packs.some((pack) => pack.id === 'in-dpdp'),
  }, { workspaceId: subject.workspace_id });
  return {
    subject_id: subject.subject_id,
    call_id: subject.call_id,
    job_id: subject.job_id,
    workspace_id: subject.workspace_id,
    campaign_id: subject.campaign_id,
    language: subject.input.language,
    purpose: subject.input.purpose,
    occurred_at: subject.occurred_at,
    packs,
    ...complianceOutcome(verdicts, packs),
    opt_out: optOut,
    classifier,
    evaluated_at: now.toISOString(),
  };
}

/**
 * A call's (or a standalone transcription job's) compliance results (stream `compliance-result-<call_id|job_id>`):
 * one `ComplianceEvaluated` per evaluation under a set of packs (ids, versions, parameters). The same packs twice
 * is the same evaluation (a replayed job completion): refused as already_exists. New settings evaluate anew; the
 * latest evaluation is the call's current result.
 */
import type { Decider, DomainEvent } from '../shared/decider.ts';
import { alreadyDone } from '../shared/errors.ts';
import { streamCategory } from '../shared/stream-name.ts';
import type { ComplianceOutcome } from './evaluation.ts';
import type { EnabledPack } from './packs.ts';
import type { CallPurpose, Evidence } from './rule.ts';

export interface ComplianceEvaluatedData extends ComplianceOutcome {
  /** The call id, or the job id of a standalone transcription job. */
  subject_id: string;
  call_id: string | null;
  job_id: string;
  workspace_id: string;
  campaign_id: string | null;
  language: string;
  purpose: CallPurpose;
  /** When the call started (the job was submitted): what analytics ranges select on. */
  occurred_at: string;
  /** The packs the call was evaluated under (those whose purposes include the call's). */
  packs: EnabledPack[];
  /** The customer asked not to be called again (in-dpdp enabled), with the segment that says so. */
  opt_out: Evidence | null;
  /**
   * The trained model that judged on top of the rules (`compliance-classifier/1@<12 hex digits of its SHA-256>`);
   * null: the rules alone. Absent from results recorded before it was kept (2026-11-28): the model was not recorded.
   */
  classifier?: string | null;
  evaluated_at: string;
}

export type ComplianceEvaluated = DomainEvent<'ComplianceEvaluated', ComplianceEvaluatedData>;
/**
 * The evaluation could not run (it exceeded the analysis budget, or its thread died): the same transcript would fail
 * again, so it is not retried; GET answers `status: failed` until a later evaluation (new settings) succeeds.
 */
export type ComplianceEvaluationFailed = DomainEvent<
  'ComplianceEvaluationFailed',
  { subject_id: string; call_id: string | null; job_id: string; workspace_id: string; packs: EnabledPack[]; error: { code: string; message: string }; failed_at: string }
>;
export type ComplianceResultEvent = ComplianceEvaluated | ComplianceEvaluationFailed;

export type RecordComplianceEvaluation =
  | { type: 'RecordComplianceEvaluation'; data: ComplianceEvaluatedData }
  | { type: 'RecordComplianceEvaluationFailure'; data: ComplianceEvaluationFailed['data'] };

export interface ComplianceResultState {
  /** The pack sets already evaluated (evaluationKey). */
  evaluated: Set<string>;
  latest: ComplianceEvaluatedData | null;
}

/** Which packs, at which versions, with which parameters: one evaluation each. */
export function evaluationKey(packs: readonly EnabledPack[]): string {
  return JSON.stringify(packs.map((pack) => [pack.id, pack.version, pack.parameters]));
}

export const complianceResultDecider: Decider<RecordComplianceEvaluation, ComplianceResultEvent, ComplianceResultState> = {
  initialState: () => ({ evaluated: new Set(), latest: null }),
  evolve(state, event) {
    const evaluated = new Set(state.evaluated);
    evaluated.add(evaluationKey(event.data.packs));
    return { evaluated, latest: event.type === 'ComplianceEvaluated' ? event.data : state.latest };
  },
  decide(command, state) {
    const key = evaluationKey(command.data.packs);
    if (state.evaluated.has(key)) throw alreadyDone('The call was already evaluated under these packs.', { subject_id: command.data.subject_id });
    if (command.type === 'RecordComplianceEvaluationFailure') return [{ type: 'ComplianceEvaluationFailed', data: command.data }];
    return [{ type: 'ComplianceEvaluated', data: command.data }];
  },
};

const resultStreams = streamCategory('compliance-result');
export const complianceResultStream = resultStreams.stream;
export const complianceResultSubjectOf = resultStreams.idOf;

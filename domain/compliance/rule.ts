/**
 * The contract every compliance rule follows (issue 14). A rule pack (`in-rbi-recovery`, `in-trai`, `in-dpdp`,
 * `general`) is versioned code plus parameters; each of its rules is either
 *
 * - **pre-dial**: decided before an attempt, from the campaign, the contact and the attempt history, all passed in
 *   as plain facts (no I/O: the dialer gathers them), or
 * - **post-call**: decided from the call's record and its transcript with time offsets.
 *
 * Rules are pure functions of their input and their pack's parameters, so a past call can be re-audited under other
 * rules or parameters by replaying its events into the same input.
 */
import type { TranscriptSegment } from '../transcription-job.ts';

export type ComplianceSeverity = 'critical' | 'warning';

/** Why a campaign calls (issue 14): decides which packs' rules apply. Default `service`. */
export const CALL_PURPOSES = ['service', 'promotional', 'recovery'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

/** The pack's parameters as the workspace configured them (validated by the pack's own schema). */
export type RuleParameters = Readonly<Record<string, unknown>>;

/** The segment that shows a violation, as the Compliance result's `evidence`. */
export interface Evidence {
  speaker: string;
  start_time: number;
  end_time: number;
  text: string;
}

/** One failed check: what the result lists under `violations` (the pack, check id and severity are added by the caller). */
export interface Finding {
  /** Human-readable, specific to this call (e.g. "threat in Hindi: 'ghar aa jayenge'"). */
  description: string;
  evidence: Evidence | null;
}

/** Facts about a finished call that post-call rules read. Transcript times are seconds from the call's start. */
export interface PostCallInput {
  /** BCP-47 code of the call, e.g. `hi-IN`. */
  language: string;
  purpose: CallPurpose;
  /** The diarized transcript, in time order; speaker roles are `agent` and `customer` where known. */
  segments: readonly TranscriptSegment[];
  /** Whether the call was recorded (the DPDP disclosure rule applies only then). */
  recorded: boolean;
  /** The agent's average sentiment in [-1, 1] when the analysis computed it, else null. */
  agentSentiment: number | null;
  /** Names the script introduces (from the campaign's script variables) where known: helps "agent and lender named". */
  lenderName: string | null;
  agentName: string | null;
}

export interface PostCallRule {
  /** Stable id, `<pack>.<check>`, e.g. `in-rbi-recovery.no_threats`; the result's `check` is the part after the dot. */
  id: string;
  kind: 'post-call';
  /** A function where a parameter decides it (e.g. the DPDP disclosure: warning for lenders, critical for insurers). */
  severity: ComplianceSeverity | ((parameters: RuleParameters) => ComplianceSeverity);
  description: string;
  /** Base language codes the rule's detection covers (`hi`, `ta`, `en`, `te`, `mr`); others count as not applicable. */
  languages: readonly string[];
  /** Whether the rule applies to this call at all (purpose, recording, ...). Not applicable = neither passed nor failed. */
  applies(input: PostCallInput, parameters: RuleParameters): boolean;
  /** Empty when the call passes. */
  check(input: PostCallInput, parameters: RuleParameters): Finding[];
}

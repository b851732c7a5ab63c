/**
 * The pre-dial half of the rule contract (issue 14), beside the post-call half in rule.ts. A pre-dial rule is asked
 * before every attempt, campaign or single call, with plain facts the dialer (or the POST /v1/calls route) gathered:
 * no I/O here, so the same rule decides live and in tests.
 */
import type { CallPurpose, ComplianceSeverity, RuleParameters } from './rule.ts';

/** What a consent record on a contact says (the reserved custom field `consent`). */
export interface ContactConsent {
  given_at: string;
  purpose: CallPurpose;
}

export interface PreDialFacts {
  /** The attempt would start now. */
  now: Date;
  purpose: CallPurpose;
  /**
   * The borrower's zone: the contact's reserved `timezone` field, else the campaign schedule's explicit zone; null
   * when neither says (the pack's `default_timezone` parameter applies).
   */
  timezone: string | null;
  consent: ContactConsent | null;
  /** On the workspace's do-not-call list (suppressions), for any reason. */
  doNotCall: boolean;
  /** On the list because a call's transcript showed the person asking not to be called again (in-dpdp). */
  optedOut: boolean;
  /** Calls already placed to this number by the workspace: since the start of the local day, and in the last 7 days. */
  attemptsToday: number;
  attemptsThisWeek: number;
  /** The call's own caller id (its `caller_id` or its campaign's); absent or null: the trunk's default. */
  callerId?: string | null;
}

/**
 * Why an attempt may not happen now, and what becomes of the contact:
 * - `wait`: the attempt waits until `until` (a closed window, a cap reached today);
 * - `final`: the contact is never called (no consent, do-not-call, opted out).
 */
export type PreDialBlock =
  | { outcome: 'wait'; reason: string; until: Date }
  | { outcome: 'final'; reason: string };

export interface PreDialRule {
  /** `<pack>.<check>`, e.g. `in-rbi-recovery.calling_window`. */
  id: string;
  kind: 'pre-dial';
  severity: ComplianceSeverity;
  description: string;
  /** Whether the rule applies to this attempt at all (e.g. consent only for promotional calls). */
  applies(facts: PreDialFacts, parameters: RuleParameters): boolean;
  /** null: the attempt may go ahead as far as this rule is concerned. */
  check(facts: PreDialFacts, parameters: RuleParameters): PreDialBlock | null;
}

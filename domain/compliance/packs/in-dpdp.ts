/**
 * Pack `in-dpdp`, post-call rule (Digital Personal Data Protection Act 2023: notice before processing personal
 * data; IRDAI's distance-marketing guidelines for insurers): a recorded call tells the customer so early. Severity
 * is a parameter: `sector` `lender` → warning, `insurer` → critical. The opt-out detection the platform uses for
 * suppression is `detectOptOut` (../opt-out.ts).
 */
import { choiceParameter, numberParameter } from '../parameters.ts';
import type { PostCallRule, RuleParameters } from '../rule.ts';
import { agentTurnsWithin, turnsWith } from '../turn-search.ts';
import { COMPLIANCE_LANGUAGES } from './languages.ts';

export const SECTORS = ['lender', 'insurer'] as const;
export type Sector = (typeof SECTORS)[number];

export const IN_DPDP_DEFAULTS = {
  sector: 'lender' as Sector,
  /** The disclosure must come in an agent turn starting within this many seconds. */
  disclosure_window_seconds: 30,
};

const recordingDisclosure: PostCallRule = {
  id: 'in-dpdp.recording_disclosure',
  kind: 'post-call',
  severity: (parameters: RuleParameters) => (choiceParameter(parameters, 'sector', SECTORS, IN_DPDP_DEFAULTS.sector) === 'insurer' ? 'critical' : 'warning'),
  description: 'When the call is recorded, the agent says so within the first 30 s (critical for insurers, a warning for lenders).',
  languages: COMPLIANCE_LANGUAGES,
  applies: (input) => input.recorded,
  check(input, parameters) {
    const window = numberParameter(parameters, 'disclosure_window_seconds', IN_DPDP_DEFAULTS.disclosure_window_seconds);
    const disclosed = turnsWith(agentTurnsWithin(input.segments, window), input.language, 'recordingDisclosure', { negatable: true });
    return disclosed.length > 0 ? [] : [{ description: `the call was recorded but the agent did not say so within the first ${window} s`, evidence: null }];
  },
};

export const IN_DPDP_POST_CALL_RULES: readonly PostCallRule[] = [recordingDisclosure];

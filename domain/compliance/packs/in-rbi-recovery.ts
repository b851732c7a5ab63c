/**
 * Pack `in-rbi-recovery`, post-call rules (RBI's 2022 directions on recovery agents and the Fair Practices Code):
 * on recovery calls the agent must not threaten, abuse or humiliate, must not make false claims (police, arrest,
 * FIR, jail), must name themself and the lender early, and must not discuss the debt before the borrower is
 * confirmed. Pre-dial rules of the pack (calling hours, attempt caps) live with the platform.
 */
import { identityConfirmationIndex } from '../identity-confirmation.ts';
import { saysName } from '../name-mention.ts';
import { numberParameter } from '../parameters.ts';
import type { Finding, PostCallInput, PostCallRule } from '../rule.ts';
import { FALSE_CLAIM_PATTERNS, THREAT_PATTERNS } from '../lexicon/concepts.ts';
import { agentSegments, agentTurnsWithin, evidenceOf, languageName, turnsWith, turnsWithPair, turnsWithPattern, type TurnHit } from '../turn-search.ts';
import { COMPLIANCE_LANGUAGES } from './languages.ts';

export const IN_RBI_RECOVERY_DEFAULTS = {
  /** The agent and the lender must be named in a turn starting within this many seconds of the call's start. */
  intro_window_seconds: 30,
  /** An agent sentiment at or below this (in [-1, 1]) counts as hostile, as a threat would. */
  threat_sentiment_threshold: -0.6,
} as const;

// Several matching turns make one finding each, up to this many: enough to see a pattern, bounded in size.
const MAX_FINDINGS = 5;

const onRecoveryCalls = (input: PostCallInput) => input.purpose === 'recovery';

/**
 * The hits of several searches (phrase lists first, then pairs, then concept patterns), one per turn, in call order:
 * a turn found by a list phrase is reported with that phrase.
 */
function firstPerTurn(searches: ReadonlyArray<readonly TurnHit[]>): TurnHit[] {
  const byTurn = new Map<TurnHit['segment'], TurnHit>();
  for (const hits of searches) for (const hit of hits) if (!byTurn.has(hit.segment)) byTurn.set(hit.segment, hit);
  return [...byTurn.values()].sort((a, b) => a.segment.start_time - b.segment.start_time);
}

const noThreats: PostCallRule = {
  id: 'in-rbi-recovery.no_threats',
  kind: 'post-call',
  severity: 'critical',
  description: 'The agent does not threaten, intimidate, abuse or humiliate the borrower or tell third parties about the debt.',
  languages: COMPLIANCE_LANGUAGES,
  applies: onRecoveryCalls,
  check(input, parameters) {
    const agentTurns = agentSegments(input.segments);
    // A clause that is a false claim ("the police will come to your house") counts for no_false_claims only.
    const options = { negatable: true, yieldsTo: 'falseClaims', yieldsToPatterns: FALSE_CLAIM_PATTERNS } as const;
    const findings: Finding[] = firstPerTurn([
      turnsWith(agentTurns, input.language, 'threats', options),
      turnsWithPair(agentTurns, input.language, 'exposureTargets', 'exposureActions', options),
      turnsWithPattern(agentTurns, input.language, THREAT_PATTERNS, options),
    ])
      .slice(0, MAX_FINDINGS)
      .map(({ segment, hit }) => ({ description: `threat or abuse in ${languageName(hit.lexicon)}: '${hit.phrase}'`, evidence: evidenceOf(segment) }));
    const threshold = numberParameter(parameters, 'threat_sentiment_threshold', IN_RBI_RECOVERY_DEFAULTS.threat_sentiment_threshold);
    if (input.agentSentiment !== null && input.agentSentiment <= threshold) {
      findings.push({ description: `the agent's sentiment ${input.agentSentiment.toFixed(2)} is strongly negative (at or below ${threshold})`, evidence: null });
    }
    return findings;
  },
};

const noFalseClaims: PostCallRule = {
  id: 'in-rbi-recovery.no_false_claims',
  kind: 'post-call',
  severity: 'critical',
  description: 'The agent makes no false or misleading claims: police, arrest, FIR, jail, warrants, seizure, "legal action today".',
  languages: COMPLIANCE_LANGUAGES,
  applies: onRecoveryCalls,
  check(input) {
    const agentTurns = agentSegments(input.segments);
    return firstPerTurn([
      turnsWith(agentTurns, input.language, 'falseClaims', { negatable: true }),
      turnsWithPattern(agentTurns, input.language, FALSE_CLAIM_PATTERNS, { negatable: true }),
    ])
      .slice(0, MAX_FINDINGS)
      .map(({ segment, hit }) => ({ description: `false or misleading claim in ${languageName(hit.lexicon)}: '${hit.phrase}'`, evidence: evidenceOf(segment) }));
  },
};

const agentAndLenderNamed: PostCallRule = {
  id: 'in-rbi-recovery.agent_and_lender_named',
  kind: 'post-call',
  severity: 'critical',
  description: 'The agent names themself and the lender early in the call (within the first 30 s by default).',
  languages: COMPLIANCE_LANGUAGES,
  applies: onRecoveryCalls,
  check(input, parameters) {
    const window = numberParameter(parameters, 'intro_window_seconds', IN_RBI_RECOVERY_DEFAULTS.intro_window_seconds);
    const early = agentTurnsWithin(input.segments, window);
    const named = (name: string | null, fallback: 'selfIntroduction' | 'organisationIntroduction') =>
      name !== null && name.trim() !== ''
        ? early.some((segment) => saysName(segment.text, name, input.language))
        : turnsWith(early, input.language, fallback, { negatable: false }).length > 0;
    const findings: Finding[] = [];
    if (!named(input.agentName, 'selfIntroduction')) {
      findings.push({ description: `the agent did not say their name within the first ${window} s`, evidence: null });
    }
    if (!named(input.lenderName, 'organisationIntroduction')) {
      findings.push({ description: `the agent did not name the lender within the first ${window} s`, evidence: null });
    }
    return findings;
  },
};

const noDebtBeforeIdentity: PostCallRule = {
  id: 'in-rbi-recovery.no_debt_before_identity',
  kind: 'post-call',
  severity: 'critical',
  description: 'The agent does not speak of the debt (EMI, overdue amount, instalments) before the borrower is confirmed on the line.',
  languages: COMPLIANCE_LANGUAGES,
  applies: onRecoveryCalls,
  check(input) {
    const confirmedAt = identityConfirmationIndex(input.segments, input.language);
    const agent = new Set(agentSegments(input.segments));
    const early = input.segments.filter((segment, index) => agent.has(segment) && (confirmedAt === null || index < confirmedAt));
    const first = turnsWith(early, input.language, 'debtTerms', { negatable: false })[0];
    if (!first) return [];
    const when = confirmedAt === null ? 'the borrower was never confirmed on the line' : 'before the borrower confirmed their identity';
    return [{ description: `debt discussed (${languageName(first.hit.lexicon)}: '${first.hit.phrase}') ${when}`, evidence: evidenceOf(first.segment) }];
  },
};

export const IN_RBI_RECOVERY_POST_CALL_RULES: readonly PostCallRule[] = [noThreats, noFalseClaims, agentAndLenderNamed, noDebtBeforeIdentity];

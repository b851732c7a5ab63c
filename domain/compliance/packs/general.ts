/**
 * Pack `general`: good calling practice that no single regulation words the same way (identity and purpose
 * early, no monologue, no long silence). All warnings; the thresholds are parameters.
 */
import { saysName } from '../name-mention.ts';
import { detectOptOut } from '../opt-out.ts';
import { numberParameter } from '../parameters.ts';
import type { Finding, PostCallRule } from '../rule.ts';
import { agentSpeaker } from '../../shared/text/speaker-roles.ts';
import { agentTurnsWithin, turnsWith } from '../turn-search.ts';
import { COMPLIANCE_LANGUAGES } from './languages.ts';

export const GENERAL_DEFAULTS = {
  /** Who is calling and why must be said in an agent turn starting within this many seconds. */
  identity_window_seconds: 30,
  /** The agent's share of the talk time above which the call is a monologue. */
  max_agent_talk_share: 0.8,
  /** Talk share is judged only on calls with at least this much talk: a 20 s call says nothing about monologues. */
  min_talk_seconds: 60,
  /** A silence longer than this between turns is dead air. */
  max_dead_air_seconds: 10,
} as const;

const MAX_FINDINGS = 5;

const identityAndPurposeEarly: PostCallRule = {
  id: 'general.identity_and_purpose_early',
  kind: 'post-call',
  severity: 'warning',
  description: 'The agent says who is calling (their name or the organisation) and why, within the first 30 s (the why is waived when the customer opts out first).',
  languages: COMPLIANCE_LANGUAGES,
  applies: () => true,
  check(input, parameters) {
    const window = numberParameter(parameters, 'identity_window_seconds', GENERAL_DEFAULTS.identity_window_seconds);
    const early = agentTurnsWithin(input.segments, window);
    const names = [input.agentName, input.lenderName].filter((name): name is string => name !== null && name.trim() !== '');
    const identified =
      early.some((segment) => names.some((name) => saysName(segment.text, name, input.language))) ||
      turnsWith(early, input.language, 'selfIntroduction', { negatable: false }).length > 0 ||
      turnsWith(early, input.language, 'organisationIntroduction', { negatable: false }).length > 0;
    // The reason for the call may be said outright ("regarding your policy") or be the subject itself (the EMI, the offer).
    const purposeStated = (['purpose', 'debtTerms', 'promotional'] as const).some(
      (list) => turnsWith(early, input.language, list, { negatable: false }).length > 0,
    );
    // A customer who says "don't call me" before hearing why ends the conversation: the agent must stop, not pitch.
    const optedOutEarly = (detectOptOut(input.segments, input.language)?.start_time ?? Infinity) < window;
    const findings: Finding[] = [];
    if (!identified) findings.push({ description: `the agent did not say who is calling within the first ${window} s`, evidence: null });
    if (!purposeStated && !optedOutEarly) findings.push({ description: `the agent did not say why they call within the first ${window} s`, evidence: null });
    return findings;
  },
};

function talkSeconds(segments: readonly { start_time: number; end_time: number }[]): number {
  return segments.reduce((total, segment) => total + Math.max(0, segment.end_time - segment.start_time), 0);
}

const agentTalkShare: PostCallRule = {
  id: 'general.agent_talk_share',
  kind: 'post-call',
  severity: 'warning',
  description: 'The agent does not monologue: their share of the talk time stays at or below the parameter (0.8 by default).',
  languages: COMPLIANCE_LANGUAGES,
  applies: (input, parameters) => talkSeconds(input.segments) >= numberParameter(parameters, 'min_talk_seconds', GENERAL_DEFAULTS.min_talk_seconds),
  check(input, parameters) {
    const max = numberParameter(parameters, 'max_agent_talk_share', GENERAL_DEFAULTS.max_agent_talk_share);
    const agent = agentSpeaker(input.segments);
    const share = talkSeconds(input.segments.filter((segment) => segment.speaker === agent)) / talkSeconds(input.segments);
    if (share <= max) return [];
    return [{ description: `the agent spoke ${(share * 100).toFixed(0)}% of the talk time (at most ${(max * 100).toFixed(0)}%)`, evidence: null }];
  },
};

const deadAir: PostCallRule = {
  id: 'general.dead_air',
  kind: 'post-call',
  severity: 'warning',
  description: 'No silence between turns longer than the parameter (10 s by default).',
  languages: COMPLIANCE_LANGUAGES,
  applies: (input) => input.segments.length > 1,
  check(input, parameters) {
    const max = numberParameter(parameters, 'max_dead_air_seconds', GENERAL_DEFAULTS.max_dead_air_seconds);
    const inTimeOrder = [...input.segments].sort((a, b) => a.start_time - b.start_time);
    const findings: Finding[] = [];
    let spokenUntil = inTimeOrder[0]!.end_time;
    for (const segment of inTimeOrder.slice(1)) {
      const silence = segment.start_time - spokenUntil;
      if (silence > max && findings.length < MAX_FINDINGS) {
        findings.push({
          description: `${silence.toFixed(1)} s of silence from ${spokenUntil.toFixed(1)} s to ${segment.start_time.toFixed(1)} s (at most ${max} s)`,
          evidence: null,
        });
      }
      spokenUntil = Math.max(spokenUntil, segment.end_time);
    }
    return findings;
  },
};

export const GENERAL_POST_CALL_RULES: readonly PostCallRule[] = [identityAndPurposeEarly, agentTalkShare, deadAir];

/**
 * Pack `in-trai`, post-call rule (TRAI's Telecom Commercial Communications Customer Preference Regulations 2018
 * and their 2025 amendment): a service or transactional call carries no promotional content. Pre-dial rules of the
 * pack (do-not-call and consent, 140/1600 caller-ID series, calling hours) live with the platform.
 */
import type { PostCallRule } from '../rule.ts';
import { PROMOTION_PATTERNS } from '../lexicon/concepts.ts';
import { agentSegments, evidenceOf, languageName, turnsWith, turnsWithPattern } from '../turn-search.ts';
import { COMPLIANCE_LANGUAGES } from './languages.ts';

const MAX_FINDINGS = 5;

const noPromotionalContentOnServiceCall: PostCallRule = {
  id: 'in-trai.no_promotional_content_on_service_call',
  kind: 'post-call',
  severity: 'critical',
  description: 'A service, transactional or recovery call carries no promotional content (offers, cashback, pre-approved loans, new products).',
  languages: COMPLIANCE_LANGUAGES,
  applies: (input) => input.purpose !== 'promotional',
  check(input) {
    const agentTurns = agentSegments(input.segments);
    const options = { negatable: true, except: 'notPromotional' } as const;
    const phrases = turnsWith(agentTurns, input.language, 'promotional', options);
    const listed = new Set(phrases.map(({ segment }) => segment));
    const pitches = turnsWithPattern(agentTurns, input.language, PROMOTION_PATTERNS, options).filter(({ segment }) => !listed.has(segment));
    return [...phrases, ...pitches]
      .sort((a, b) => a.segment.start_time - b.segment.start_time)
      .slice(0, MAX_FINDINGS)
      .map(({ segment, hit }) => ({
        description: `promotional content on a ${input.purpose} call in ${languageName(hit.lexicon)}: '${hit.phrase}'`,
        evidence: evidenceOf(segment),
      }));
  },
};

export const IN_TRAI_POST_CALL_RULES: readonly PostCallRule[] = [noPromotionalContentOnServiceCall];

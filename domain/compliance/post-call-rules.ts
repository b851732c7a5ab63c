/**
 * The post-call rules of every pack, and their evaluation for one call: pure functions of the call's facts
 * (PostCallInput) and each enabled pack's parameters, so a re-audit replays them unchanged.
 */
import { languageSubtag } from '../shared/language.ts';
import { GENERAL_POST_CALL_RULES } from './packs/general.ts';
import { IN_DPDP_POST_CALL_RULES } from './packs/in-dpdp.ts';
import { IN_RBI_RECOVERY_POST_CALL_RULES } from './packs/in-rbi-recovery.ts';
import { IN_TRAI_POST_CALL_RULES } from './packs/in-trai.ts';
import type { ComplianceSeverity, Finding, PostCallInput, PostCallRule, RuleParameters } from './rule.ts';

export { detectOptOut } from './opt-out.ts';

export type PostCallPackId = 'in-rbi-recovery' | 'in-trai' | 'in-dpdp' | 'general';

export const POST_CALL_RULES: Readonly<Record<PostCallPackId, readonly PostCallRule[]>> = {
  'in-rbi-recovery': IN_RBI_RECOVERY_POST_CALL_RULES,
  'in-trai': IN_TRAI_POST_CALL_RULES,
  'in-dpdp': IN_DPDP_POST_CALL_RULES,
  general: GENERAL_POST_CALL_RULES,
};

export interface PostCallRuleResult {
  rule_id: string;
  /** The part of the id after the dot: the Compliance result's `check`. */
  check: string;
  severity: ComplianceSeverity;
  passed: boolean;
  findings: Finding[];
}

function isPostCallPack(id: string): id is PostCallPackId {
  return Object.hasOwn(POST_CALL_RULES, id);
}

export function severityOf(rule: PostCallRule, parameters: RuleParameters): ComplianceSeverity {
  return typeof rule.severity === 'function' ? rule.severity(parameters) : rule.severity;
}

/**
 * Every applicable rule of the given packs, in pack then rule order. A rule whose languages do not include the
 * call's, or that does not apply (purpose, recording), is left out: neither passed nor failed. Unknown pack ids
 * are skipped (a pack with only pre-dial rules has nothing to say after the call).
 */
export function evaluatePostCall(input: PostCallInput, packs: ReadonlyArray<{ id: string; parameters: RuleParameters }>): PostCallRuleResult[] {
  const language = languageSubtag(input.language);
  const results: PostCallRuleResult[] = [];
  for (const pack of packs) {
    if (!isPostCallPack(pack.id)) continue;
    for (const rule of POST_CALL_RULES[pack.id]) {
      if (!rule.languages.includes(language) || !rule.applies(input, pack.parameters)) continue;
      const findings = rule.check(input, pack.parameters);
      results.push({
        rule_id: rule.id,
        check: rule.id.slice(rule.id.indexOf('.') + 1),
        severity: severityOf(rule, pack.parameters),
        passed: findings.length === 0,
        findings,
      });
    }
  }
  return results;
}

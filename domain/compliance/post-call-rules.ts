/**
 * PLACEHOLDER (branch compliance-platform): the post-call rules are written on branch compliance-detect, whose
 * version of this file replaces this one at the merge. Same exports and signatures; no rule yet.
 */
import type { TranscriptSegment } from '../transcription-job.ts';
import type { ComplianceSeverity, Evidence, Finding, PostCallInput, PostCallRule, RuleParameters } from './rule.ts';

export const POST_CALL_RULES: Readonly<Record<string, readonly PostCallRule[]>> = {
  'in-rbi-recovery': [],
  'in-trai': [],
  'in-dpdp': [],
  general: [],
};

export interface PostCallRuleResult {
  rule_id: string;
  check: string;
  severity: ComplianceSeverity;
  passed: boolean;
  findings: Finding[];
}

export function evaluatePostCall(input: PostCallInput, packs: ReadonlyArray<{ id: string; parameters: RuleParameters }>): PostCallRuleResult[] {
  const results: PostCallRuleResult[] = [];
  for (const pack of packs) {
    for (const rule of POST_CALL_RULES[pack.id] ?? []) {
      if (!rule.applies(input, pack.parameters)) continue;
      const findings = rule.check(input, pack.parameters);
      const severity = typeof rule.severity === 'function' ? rule.severity(pack.parameters) : rule.severity;
      results.push({ rule_id: rule.id, check: rule.id.slice(rule.id.indexOf('.') + 1), severity, passed: findings.length === 0, findings });
    }
  }
  return results;
}

export function detectOptOut(_segments: readonly TranscriptSegment[], _language: string): Evidence | null {
  return null;
}

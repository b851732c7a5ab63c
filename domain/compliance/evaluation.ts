/**
 * A call's compliance result from the post-call rules' verdicts (issue 14): the spec's Compliance result
 * (`compliance_score`, `passed_checks`, `violations`) plus, per violation, the pack that holds the rule and the
 * evidence. Pure, so the live evaluation and a re-audit produce the same result from the same verdicts.
 */
import { packApplies, type EnabledPack, type RulePackId } from './packs.ts';
import type { CallPurpose, ComplianceSeverity, Evidence, Finding } from './rule.ts';

/** What evaluatePostCall returns per applicable rule (post-call-rules.ts). */
export interface RuleVerdict {
  rule_id: string;
  check: string;
  severity: ComplianceSeverity;
  passed: boolean;
  findings: Finding[];
}

export interface ComplianceViolation {
  check: string;
  description: string;
  severity: ComplianceSeverity;
  rule_id: string;
  rule_pack: { id: string; version: string };
  evidence: Evidence | null;
}

export interface ComplianceOutcome {
  compliance_score: number;
  /** Checks that applied and passed, by name (the spec's `passed_checks`). */
  passed_checks: string[];
  /** One per finding: a check failed twice in a call (two threats) lists both. */
  violations: ComplianceViolation[];
  /** Checks that applied (passed or failed), with their severity: the aggregate counts them. */
  checks: Array<{ rule_id: string; check: string; severity: ComplianceSeverity; passed: boolean }>;
}

/** A critical check weighs 3, a warning 1 (issue 14). */
export const SEVERITY_WEIGHT: Readonly<Record<ComplianceSeverity, number>> = { critical: 3, warning: 1 };

/**
 * compliance_score = 100 × (1 − weighted failed checks / weighted applicable checks), one decimal; a check counts
 * once however many findings it has. No applicable check: 100 (nothing was required, nothing was broken).
 */
export function complianceOutcome(verdicts: readonly RuleVerdict[], packs: readonly EnabledPack[]): ComplianceOutcome {
  const versions = new Map(packs.map((pack) => [pack.id as string, pack.version]));
  let applicable = 0;
  let failed = 0;
  const passed_checks: string[] = [];
  const violations: ComplianceViolation[] = [];
  for (const verdict of verdicts) {
    const weight = SEVERITY_WEIGHT[verdict.severity];
    applicable += weight;
    if (verdict.passed) {
      passed_checks.push(verdict.check);
      continue;
    }
    failed += weight;
    const packId = verdict.rule_id.slice(0, verdict.rule_id.indexOf('.'));
    const rule_pack = { id: packId, version: versions.get(packId) ?? 'unknown' };
    const findings = verdict.findings.length > 0 ? verdict.findings : [{ description: verdict.check, evidence: null }];
    for (const finding of findings) {
      violations.push({ check: verdict.check, description: finding.description, severity: verdict.severity, rule_id: verdict.rule_id, rule_pack, evidence: finding.evidence });
    }
  }
  const score = applicable === 0 ? 100 : Math.round(1000 * (1 - failed / applicable)) / 10;
  const checks = verdicts.map(({ rule_id, check, severity, passed }) => ({ rule_id, check, severity, passed }));
  return { compliance_score: score, passed_checks, violations, checks };
}

/** The enabled packs whose rules apply to a call of this purpose (in-rbi-recovery only to recovery calls). */
export function packsFor(packs: readonly EnabledPack[], purpose: CallPurpose): EnabledPack[] {
  return packs.filter((pack) => packApplies(pack.id as RulePackId, purpose));
}

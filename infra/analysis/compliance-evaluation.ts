/**
 * The post-call compliance evaluation of one transcript (issue 14), as a port: the server runs it on the analysis
 * pool's worker threads with the same budget as any analysis (analysis-pool.ts), so a long transcript never holds
 * the event loop; tests and the CLI may run it in the thread (inThreadComplianceEvaluator).
 */
import type { RuleVerdict } from '../../domain/compliance/evaluation.ts';
import { detectOptOut, evaluatePostCall } from '../../domain/compliance/post-call-rules.ts';
import type { Evidence, PostCallInput, RuleParameters } from '../../domain/compliance/rule.ts';
import type { AnalysisTaskOptions } from './transcript-analysis.ts';

export interface ComplianceEvaluationTask {
  input: PostCallInput;
  packs: Array<{ id: string; parameters: RuleParameters }>;
  /** Look for an opt-out request too (in-dpdp enabled). */
  detectOptOut: boolean;
}

export interface ComplianceEvaluationResult {
  verdicts: RuleVerdict[];
  optOut: Evidence | null;
}

export interface ComplianceEvaluator {
  /** Rejects with AnalysisBudgetExceededError or AnalysisFailedError like an analysis. */
  evaluateCompliance(task: ComplianceEvaluationTask, options?: AnalysisTaskOptions): Promise<ComplianceEvaluationResult>;
}

/** The evaluation itself, synchronous: what a worker thread runs. */
export function evaluateComplianceTask(task: ComplianceEvaluationTask): ComplianceEvaluationResult {
  const verdicts = evaluatePostCall(task.input, task.packs).map((verdict) => ({
    rule_id: verdict.rule_id,
    check: verdict.check,
    severity: verdict.severity,
    passed: verdict.passed,
    findings: verdict.findings,
  }));
  return { verdicts, optOut: task.detectOptOut ? detectOptOut(task.input.segments, task.input.language) : null };
}

export function inThreadComplianceEvaluator(): ComplianceEvaluator {
  return {
    async evaluateCompliance(task, { signal } = {}) {
      signal?.throwIfAborted();
      return evaluateComplianceTask(task);
    },
  };
}

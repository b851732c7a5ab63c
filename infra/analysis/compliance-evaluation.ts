/**
 * The post-call compliance evaluation of one transcript (issue 14), as a port: the server runs it on the analysis
 * pool's worker threads with the same budget as any analysis (analysis-pool.ts), so a long transcript never holds
 * the event loop; tests and the CLI may run it in the thread (inThreadComplianceEvaluator).
 */
import type { RuleVerdict } from '../../domain/compliance/evaluation.ts';
import { detectOptOut, evaluatePostCall } from '../../domain/compliance/post-call-rules.ts';
import type { Evidence, PostCallInput, RuleParameters } from '../../domain/compliance/rule.ts';
import { optOutWithClassifier, withClassifier } from './compliance-classifier/classified-compliance.ts';
import type { ComplianceClassifier } from './compliance-classifier/compliance-classifier-model.ts';
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
  /** The trained model that judged on top of the rules (ComplianceClassifier.id); null: the rules alone. */
  classifier: string | null;
}

export interface ComplianceEvaluator {
  /** Rejects with AnalysisBudgetExceededError or AnalysisFailedError like an analysis. */
  evaluateCompliance(task: ComplianceEvaluationTask, options?: AnalysisTaskOptions): Promise<ComplianceEvaluationResult>;
}

/**
 * The evaluation itself, synchronous: what a worker thread runs. With a classifier (COMPLIANCE_CLASSIFIER=on) the
 * rules' verdicts and opt-out get the trained model on top (compliance-classifier/classified-compliance.ts).
 */
export function evaluateComplianceTask(task: ComplianceEvaluationTask, classifier: ComplianceClassifier | null = null): ComplianceEvaluationResult {
  const rules = evaluatePostCall(task.input, task.packs).map((verdict) => ({
    rule_id: verdict.rule_id,
    check: verdict.check,
    severity: verdict.severity,
    passed: verdict.passed,
    findings: verdict.findings,
  }));
  if (classifier === null) return { verdicts: rules, optOut: task.detectOptOut ? detectOptOut(task.input.segments, task.input.language) : null, classifier: null };
  const verdicts = withClassifier(rules, task.input, classifier);
  const optOut = task.detectOptOut ? optOutWithClassifier(detectOptOut(task.input.segments, task.input.language), task.input, classifier) : null;
  return { verdicts, optOut, classifier: classifier.id };
}

/** The evaluation in the calling thread (tests, the CLI); `classifier` as for evaluateComplianceTask. */
export function inThreadComplianceEvaluator(classifier: ComplianceClassifier | null = null): ComplianceEvaluator {
  return {
    async evaluateCompliance(task, { signal } = {}) {
      signal?.throwIfAborted();
      return evaluateComplianceTask(task, classifier);
    },
  };
}

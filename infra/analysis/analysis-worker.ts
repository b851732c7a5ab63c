/**
 * What each thread of the analysis pool (analysis-pool.ts) runs: the lexicon analysis of one transcript, with the
 * trained call classifier on top when the pool was started with `classifier` (ANALYSIS_CLASSIFIER=on; the model is
 * loaded once per thread), and the compliance rules with the compliance classifier on top (COMPLIANCE_CLASSIFIER=on).
 * Loaded through infra/worker-threads/typescript-worker.mjs, which compiles TypeScript in
 * the thread.
 */
import { workerData } from 'node:worker_threads';
import { analyseTranscript } from './analyse-transcript.ts';
import { loadCallClassifier } from './classifier/call-classifier-model.ts';
import { createClassifiedAnalyzer } from './classifier/classified-analyzer.ts';
import { loadComplianceClassifier } from './compliance-classifier/compliance-classifier-model.ts';
import { evaluateComplianceTask, type ComplianceEvaluationResult, type ComplianceEvaluationTask } from './compliance-evaluation.ts';
import { createLexiconAnalyzer } from './lexicon-analyzer.ts';
import type { TranscriptAnalysisInput, TranscriptAnalysisResult } from './transcript-analysis.ts';

const options = workerData as { classifier?: boolean; complianceClassifier?: boolean } | null;
const analyzer = options?.classifier ? createClassifiedAnalyzer(loadCallClassifier()) : createLexiconAnalyzer();
// The compliance classifier is loaded once per thread (COMPLIANCE_CLASSIFIER=on), like the call classifier.
const complianceClassifier = options?.complianceClassifier ? loadComplianceClassifier() : null;

export default function analyse(input: TranscriptAnalysisInput): TranscriptAnalysisResult {
  return analyseTranscript(input, analyzer);
}

/** The post-call compliance rules of one transcript (issue 14): run by name (`evaluateCompliance`) on the same threads. */
export function evaluateCompliance(task: ComplianceEvaluationTask): ComplianceEvaluationResult {
  return evaluateComplianceTask(task, complianceClassifier);
}

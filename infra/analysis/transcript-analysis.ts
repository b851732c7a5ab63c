/**
 * The port the analysis pipeline calls: the whole analysis of one transcript (summary, sentiment, intent, QA) in
 * one asynchronous call. Its adapters decide where the CPU work runs: the server's runs it on a pool of worker
 * threads with a time budget and a heap limit (analysis-pool.ts), so a long or hostile transcript can neither
 * block the event loop that serves every workspace's requests nor take the process's heap. With ANALYZER_API_URL,
 * the LLM adapter (llm-transcript-analysis.ts) wraps that pool: summary, sentiment and intent from the model, the
 * pool for QA and as the fallback.
 */
import type { QaScore, Scorecard, SentimentResult, TranscriptSegment } from './port.ts';

/** The features that need analysis (`transcription` needs none). */
export type AnalysisFeature = 'summary' | 'sentiment' | 'intent' | 'qa_scoring';

export interface TranscriptAnalysisInput {
  segments: TranscriptSegment[];
  language: string;
  /** What was requested; other features come back null. */
  features: readonly string[];
  /** How the call ended, when known: the summary says so. */
  disposition: string | null;
  /** The job's pinned scorecard, with `qa_scoring`. */
  scorecard: Scorecard | null;
}

export interface TranscriptAnalysisResult {
  summary: string | null;
  sentiment: SentimentResult | null;
  intent: string | null;
  qa_score: QaScore | null;
  /** Which analyzer produced summary, sentiment and intent (the LLM adapter sets it; absent: the lexicon analyzer). */
  analyzer?: AnalyzerReport;
}

/** Why the LLM's answer was not used (docs/analysis.md): its request failed, or its answer was rejected twice. */
export const ANALYZER_FALLBACK_REASONS = [
  'timeout',
  'http_error',
  'unreachable',
  'target_refused',
  'invalid_response',
  'output_budget_exceeded',
  'invalid_json',
  'schema_invalid',
] as const;

export type AnalyzerFallbackReason = (typeof ANALYZER_FALLBACK_REASONS)[number];

/**
 * The job's `analyzer`: `llm` (with its model) when the LLM's validated answer was used, `lexicon` otherwise; a
 * `fallback_reason` and `fallback_detail` when an LLM was configured but the lexicon analyzer answered instead.
 */
export interface AnalyzerReport {
  name: 'llm' | 'lexicon';
  model: string | null;
  fallback_reason: AnalyzerFallbackReason | null;
  fallback_detail: string | null;
}

/** How an analysis task runs: `signal` stops it; `workspaceId` is whose turn it takes on the pool (taken in turns). */
export interface AnalysisTaskOptions {
  signal?: AbortSignal;
  workspaceId?: string;
  /** For the operator's log lines about this analysis. */
  jobId?: string;
}

export interface TranscriptAnalysis {
  /** Rejects with AnalysisBudgetExceededError, AnalysisFailedError, or the signal's abort. */
  analyse(input: TranscriptAnalysisInput, options?: AnalysisTaskOptions): Promise<TranscriptAnalysisResult>;
  /** Stops the threads (the server's shutdown). */
  close(): Promise<void>;
}

/** The analysis ran longer than its budget and was stopped. The same input would again: not worth retrying. */
export class AnalysisBudgetExceededError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the analysis took longer than its budget of ${budgetMs / 1000} s and was stopped`);
    this.name = 'AnalysisBudgetExceededError';
  }
}

/** The thread running the analysis died (out of memory, a crash) or the analysis threw. */
export class AnalysisFailedError extends Error {
  constructor(
    readonly outOfMemory: boolean,
    options: { cause: unknown },
  ) {
    super(outOfMemory ? 'the analysis ran out of memory and was stopped' : 'the analysis failed', options);
    this.name = 'AnalysisFailedError';
  }
}

/**
 * The text-analysis port of the CPU work: what the worker threads ask of a transcript. Pure functions, no I/O; the
 * lexicon analyzer is its adapter. The pipeline itself calls the asynchronous TranscriptAnalysis
 * (transcript-analysis.ts), which is where an LLM endpoint plugs in (llm-transcript-analysis.ts): network I/O has
 * no place in a synchronous, CPU-budgeted port. `language` is BCP-47 (`hi-IN`); adapters use its language subtag.
 */
import type { Scorecard } from './scorecard-schema.ts';

export type { Scorecard } from './scorecard-schema.ts';

export interface TranscriptSegment {
  speaker: string;
  text: string;
  start_time: number;
  end_time: number;
  confidence?: number;
}

/** Each score lies in [-1, 1]. */
export interface SentimentResult {
  overall: number;
  by_speaker: Record<string, number>;
}

export type SentimentBucket = 'positive' | 'neutral' | 'negative';

export interface QaParameterScore {
  parameter_name: string;
  score: number;
  max_score: number;
  passed: boolean;
}

export interface QaScore {
  /** Percentage 0..100, one decimal. */
  overall_score: number;
  parameter_scores: QaParameterScore[];
  passed: boolean;
  pass_threshold: number;
}

export interface Analyzer {
  summarize(input: {
    segments: TranscriptSegment[];
    language: string;
    intent?: string | null;
    disposition?: string | null;
    /** The call's sentiment when already computed (the summary names its tone); computed otherwise. */
    sentiment?: SentimentResult;
  }): string;
  sentiment(input: { segments: TranscriptSegment[]; language: string }): SentimentResult;
  intent(input: { segments: TranscriptSegment[]; language: string }): string | null;
  scoreQa(input: { segments: TranscriptSegment[]; language: string; scorecard: Scorecard }): QaScore;
}

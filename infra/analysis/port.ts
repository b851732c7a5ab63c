/**
 * The text-analysis port: what the analysis pipeline asks of a transcript. Pure functions, no I/O, so an
 * adapter (the lexicon analyzer here, an LLM endpoint later) can be swapped without touching the pipeline.
 * `language` is BCP-47 (`hi-IN`); adapters use its language subtag.
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

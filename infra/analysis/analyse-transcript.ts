/**
 * The whole analysis of one transcript, synchronously: what a worker thread of the analysis pool runs
 * (analysis-worker.ts). Only the requested features are computed; the summary names the intent and the tone, so
 * both are computed once and handed to it.
 */
import type { Analyzer } from './port.ts';
import type { TranscriptAnalysisInput, TranscriptAnalysisResult } from './transcript-analysis.ts';

export function analyseTranscript(input: TranscriptAnalysisInput, analyzer: Analyzer): TranscriptAnalysisResult {
  const requested = new Set(input.features);
  const transcript = { segments: input.segments, language: input.language };
  const wantsSummary = requested.has('summary');
  const intent = requested.has('intent') || wantsSummary ? analyzer.intent(transcript) : null;
  const sentiment = requested.has('sentiment') || wantsSummary ? analyzer.sentiment(transcript) : null;
  return {
    summary: wantsSummary ? analyzer.summarize({ ...transcript, intent, disposition: input.disposition, sentiment: sentiment ?? undefined }) : null,
    sentiment: requested.has('sentiment') ? sentiment : null,
    intent: requested.has('intent') ? intent : null,
    qa_score: requested.has('qa_scoring') && input.scorecard !== null ? analyzer.scoreQa({ ...transcript, scorecard: input.scorecard }) : null,
  };
}

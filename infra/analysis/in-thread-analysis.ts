/**
 * A TranscriptAnalysis that runs on the calling thread, without budget or heap limit: for tests and benchmarks
 * that measure something else. The server uses the worker pool (analysis-pool.ts): on the event loop, one long
 * transcript would stall every request.
 */
import { analyseTranscript } from './analyse-transcript.ts';
import { createLexiconAnalyzer } from './lexicon-analyzer.ts';
import type { Analyzer } from './port.ts';
import type { TranscriptAnalysis } from './transcript-analysis.ts';

export function inThreadTranscriptAnalysis(analyzer: Analyzer = createLexiconAnalyzer()): TranscriptAnalysis {
  return {
    async analyse(input, { signal } = {}) {
      signal?.throwIfAborted();
      return analyseTranscript(input, analyzer);
    },
    async close() {},
  };
}

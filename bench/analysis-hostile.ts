/**
 * `npx tsx bench/analysis-hostile.ts [--before]`: issue 12's hostile transcripts, before and after the bounded summary.
 *
 *   - the summary alone, on this thread (bounded TextRank, infra/analysis/text-rank.ts);
 *   - the whole analysis (summary, sentiment, intent) on the analysis pool's worker thread, with the main thread's
 *     worst event-loop delay meanwhile;
 *   - with --before, the summary as it was before the bound (summary.ts of commit f30f284, taken from git into a
 *     temporary file) on the 4,000-sentence transcript: about 25-30 s and 1 GB. Not run on 20,000 segments: its
 *     graph grows with the square (about 25 times the time and memory).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createAnalysisPool } from '../infra/analysis/analysis-pool.ts';
import { summarize } from '../infra/analysis/summary.ts';
import { summaryAtCommit } from './summary-at-commit.ts';
import { loanFloodTranscript } from '../tests/support/transcripts.ts';

const BEFORE_COMMIT = 'f30f284';
const shapes = [
  { name: '4,000 "loan" sentences, 10 a segment', sentences: 4_000, perSegment: 10 },
  { name: '20,000 segments (the API maximum)', sentences: 20_000, perSegment: 1 },
];



function time(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

summarize({ segments: loanFloodTranscript({ sentences: 10, perSegment: 1 }), language: 'en-IN' }); // compiles the lexicons
console.log('Hostile transcripts (issue 12)');
const pool = createAnalysisPool({ threads: 1, budgetMs: 60_000 });
await pool.workerThreadId();
for (const shape of shapes) {
  const segments = loanFloodTranscript(shape);
  const kilobytes = Math.round(JSON.stringify(segments).length / 1000);
  const summaryMs = time(() => summarize({ segments, language: 'en-IN' }));
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const started = performance.now();
  await pool.analyse({ segments, language: 'en-IN', features: ['summary', 'sentiment', 'intent'], disposition: null, scorecard: null });
  const poolMs = performance.now() - started;
  histogram.disable();
  console.log(
    `  ${shape.name} (${kilobytes} KB): summary ${summaryMs.toFixed(0)} ms on this thread; whole analysis ${poolMs.toFixed(0)} ms on a worker thread, event-loop delay at most ${(histogram.max / 1e6).toFixed(0)} ms`,
  );
}
await pool.close();
console.log(`  peak RSS so far: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

if (process.argv.includes('--before')) {
  const before = await summaryAtCommit(BEFORE_COMMIT);
  try {
    const segments = loanFloodTranscript(shapes[0]!);
    const ms = time(() => before.summarize({ segments, language: 'en-IN' }));
    console.log(`  before the bound (${BEFORE_COMMIT}), ${shapes[0]!.name}: summary ${(ms / 1000).toFixed(1)} s on the event loop, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  } finally {
    before.remove();
  }
}

// The job document's `analyzer`: shown once completed when the result carries it; a job completed before the
// field existed (its event has none) shows none, so old read models rebuild to what they showed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TranscriptionJobSubmittedData } from '../../domain/transcription-job.ts';
import { jobDocument } from '../../projections/transcription-jobs.ts';

const submitted: TranscriptionJobSubmittedData = {
  job_id: 'job_1',
  workspace_id: 'ws_1',
  audio_url: null,
  transcript: [{ speaker: 'customer', text: 'yes', start_time: 0, end_time: 1 }],
  language: 'en-IN',
  speakers: 2,
  features: ['transcription', 'summary', 'intent'],
  qa_scorecard_id: null,
  qa_scorecard: null,
  metadata: { analyzer: 'the client\'s own key, untouched' },
  call_id: null,
  disposition: null,
  submitted_at: '2026-11-26T10:00:00.000Z',
};
const result = { transcript: submitted.transcript!, duration_seconds: 1, summary: 'S.', sentiment: null, intent: 'interested', qa_score: null };

test('completed with an analyzer: shown after qa_score, metadata untouched', () => {
  const analyzer = { name: 'lexicon' as const, model: null, fallback_reason: 'timeout', fallback_detail: 'no answer within 30 s' };
  const document = jobDocument(submitted, { status: 'completed', result: { ...result, analyzer }, completedAt: '2026-11-26T10:00:05.000Z' });
  assert.equal(document.analyzer, analyzer);
  assert.equal(document.metadata, { analyzer: 'the client\'s own key, untouched' });
  const keys = Object.keys(document);
  assert.is(keys.indexOf('analyzer'), keys.indexOf('metadata') - 1);
});

test('an event from before the field, and unfinished jobs: no analyzer', () => {
  assert.not.ok('analyzer' in jobDocument(submitted, { status: 'completed', result, completedAt: '2026-11-26T10:00:05.000Z' }));
  assert.not.ok('analyzer' in jobDocument(submitted, { status: 'processing' }));
});

test.run();

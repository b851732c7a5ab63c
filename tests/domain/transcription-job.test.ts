import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../domain/shared/decider.ts';
import {
  transcriptionJobDecider,
  type TranscriptionJobEvent,
  type TranscriptionJobResult,
  type TranscriptionJobSubmittedData,
} from '../../domain/transcription-job.ts';
import { given } from './given-when-then.ts';

const submission: TranscriptionJobSubmittedData = {
  job_id: 'job_1',
  workspace_id: 'ws_1',
  audio_url: 'https://example.com/call.wav',
  transcript: null,
  language: 'en-IN',
  speakers: 2,
  features: ['transcription', 'summary'],
  qa_scorecard_id: null,
  qa_scorecard: null,
  metadata: { crm_id: 7 },
  call_id: null,
  disposition: null,
  submitted_at: '2026-03-01T10:00:00.000Z',
};
const submitted: TranscriptionJobEvent[] = [{ type: 'TranscriptionJobSubmitted', data: submission }];
const started = (attempt: number, resumed = false): TranscriptionJobEvent => ({
  type: 'TranscriptionJobStarted',
  data: { job_id: 'job_1', attempt, resumed_after_interruption: resumed, started_at: `2026-03-01T10:0${attempt}:00.000Z` },
});
const processing = [...submitted, started(1)];
const result: TranscriptionJobResult = {
  transcript: [{ speaker: 'agent', text: 'hello', start_time: 0.5, end_time: 1, confidence: 0.9 }],
  summary: 'Two sentences. Here.',
  sentiment: null,
  intent: null,
  qa_score: null,
  duration_seconds: 3,
};
const error = { code: 'audio_unreachable', message: 'HTTP 404' };

test('sizeOf: a folded job is estimated by its submitted transcript (the command handler\'s cache is bounded by size)', () => {
  const segments = Array.from({ length: 4_000 }, (_, index) => ({ speaker: index % 2 ? 'customer' : 'agent', text: `The loan number ${index} is due.`, start_time: index * 2, end_time: index * 2 + 1.5 }));
  const long = fold(transcriptionJobDecider, [{ type: 'TranscriptionJobSubmitted', data: { ...submission, audio_url: null, transcript: segments } }]);
  const short = fold(transcriptionJobDecider, submitted);
  // At least the transcript's JSON (its objects take several times that in a V8 heap); an audio job stays small.
  assert.ok(transcriptionJobDecider.sizeOf!(long) >= JSON.stringify(segments).length, String(transcriptionJobDecider.sizeOf!(long)));
  assert.ok(transcriptionJobDecider.sizeOf!(short) < 4_096, String(transcriptionJobDecider.sizeOf!(short)));
});

test('submit: pending; features get transcription, in a fixed order; a second submit is already_exists', () => {
  given(transcriptionJobDecider)
    .when({ type: 'SubmitTranscriptionJob', data: { ...submission, features: ['summary'] } })
    .then(submitted);
  given(transcriptionJobDecider)
    .when({ type: 'SubmitTranscriptionJob', data: { ...submission, features: ['summary', 'transcription', 'summary'] } })
    .then(submitted);
  assert.is(fold(transcriptionJobDecider, submitted).status, 'pending');
  given(transcriptionJobDecider, submitted).when({ type: 'SubmitTranscriptionJob', data: submission }).thenThrows('already_exists');
});

test('submit: refused inputs name their field', () => {
  const refuse = (data: Partial<Omit<typeof submission, 'features'>> & { features?: string[] }, field: string) =>
    given(transcriptionJobDecider).when({ type: 'SubmitTranscriptionJob', data: { ...submission, ...data } }).thenThrows('invalid_parameter', { field });
  refuse({ transcript: result.transcript }, 'audio_url');
  refuse({ audio_url: null }, 'audio_url');
  refuse({ language: 'english' }, 'language');
  refuse({ language: 'fr-FR' }, 'language');
  refuse({ speakers: 0 }, 'speakers');
  refuse({ speakers: 11 }, 'speakers');
  refuse({ speakers: 1.5 }, 'speakers');
  refuse({ features: ['transcription', 'emotion'] }, 'features[1]');
  refuse({ features: ['qa_scoring'] }, 'qa_scorecard_id');
});

test('start: attempt 1 from pending; a repeated start is already_exists; a skipped attempt is refused', () => {
  given(transcriptionJobDecider, submitted).when({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: '2026-03-01T10:01:00.000Z' } }).then([started(1)]);
  given(transcriptionJobDecider, processing).when({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: 'x' } }).thenThrows('already_exists');
  given(transcriptionJobDecider, submitted).when({ type: 'StartTranscriptionJob', data: { attempt: 2, started_at: 'x' } }).thenThrows('invalid_parameter', { field: 'attempt' });
});

test('retry after an interrupted attempt: the next attempt is marked as resumed', () => {
  given(transcriptionJobDecider, processing)
    .when({ type: 'StartTranscriptionJob', data: { attempt: 2, started_at: '2026-03-01T10:02:00.000Z' } })
    .then([started(2, true)]);
  assert.is(fold(transcriptionJobDecider, [...processing, started(2, true)]).attempts, 2);
});

test('complete: only the current attempt; carries language, call and metadata for webhooks', () => {
  given(transcriptionJobDecider, processing)
    .when({ type: 'CompleteTranscriptionJob', data: { attempt: 1, result, completed_at: '2026-03-01T10:03:00.000Z' } })
    .then([
      {
        type: 'TranscriptionJobCompleted',
        data: { job_id: 'job_1', language: 'en-IN', call_id: null, metadata: { crm_id: 7 }, features: ['transcription', 'summary'], ...result, completed_at: '2026-03-01T10:03:00.000Z' },
      },
    ]);
  const resumed = [...processing, started(2, true)];
  given(transcriptionJobDecider, resumed).when({ type: 'CompleteTranscriptionJob', data: { attempt: 1, result, completed_at: 'x' } }).thenThrows('invalid_state');
  given(transcriptionJobDecider, submitted).when({ type: 'CompleteTranscriptionJob', data: { attempt: 1, result, completed_at: 'x' } }).thenThrows('invalid_state');
});

test('fail: with the current attempt, or before any attempt; never after the end', () => {
  given(transcriptionJobDecider, processing)
    .when({ type: 'FailTranscriptionJob', data: { attempt: 1, error, failed_at: '2026-03-01T10:03:00.000Z' } })
    .then([{ type: 'TranscriptionJobFailed', data: { job_id: 'job_1', language: 'en-IN', call_id: null, metadata: { crm_id: 7 }, attempt: 1, error, failed_at: '2026-03-01T10:03:00.000Z' } }]);
  given(transcriptionJobDecider, submitted)
    .when({ type: 'FailTranscriptionJob', data: { attempt: null, error, failed_at: 'x' } })
    .then([{ type: 'TranscriptionJobFailed', data: { job_id: 'job_1', language: 'en-IN', call_id: null, metadata: { crm_id: 7 }, attempt: null, error, failed_at: 'x' } }]);
  const completed: TranscriptionJobEvent[] = [
    ...processing,
    { type: 'TranscriptionJobCompleted', data: { job_id: 'job_1', language: 'en-IN', call_id: null, metadata: null, features: ['transcription'], ...result, completed_at: 'x' } },
  ];
  const failed: TranscriptionJobEvent[] = [...processing, { type: 'TranscriptionJobFailed', data: { job_id: 'job_1', language: 'en-IN', call_id: null, metadata: null, attempt: 1, error, failed_at: 'x' } }];
  for (const history of [completed, failed]) {
    given(transcriptionJobDecider, history).when({ type: 'FailTranscriptionJob', data: { attempt: null, error, failed_at: 'y' } }).thenThrows('invalid_state');
    given(transcriptionJobDecider, history).when({ type: 'FailTranscriptionJob', data: { attempt: 1, error, failed_at: 'y' } }).thenThrows('invalid_state');
    given(transcriptionJobDecider, history).when({ type: 'StartTranscriptionJob', data: { attempt: 2, started_at: 'y' } }).thenThrows('invalid_state');
    given(transcriptionJobDecider, history).when({ type: 'CompleteTranscriptionJob', data: { attempt: 1, result, completed_at: 'y' } }).thenThrows('invalid_state');
  }
});

test('commands on a job never submitted: resource_not_found', () => {
  given(transcriptionJobDecider).when({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: 'x' } }).thenThrows('resource_not_found');
});

test.run();

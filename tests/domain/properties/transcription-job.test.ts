import * as fc from 'fast-check';
import { suite } from 'uvu';
import { transcriptionJobDecider, TRANSCRIPTION_FEATURES, type TranscriptionJobCommand } from '../../../domain/transcription-job.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, id, language, time } from './domain-values.ts';

const properties = suite('transcription job decider: properties');

const segment = fc.record({ speaker: fc.constantFrom('agent', 'customer', 'speaker_3'), text: fc.string({ maxLength: 10 }), start_time: fc.nat(60), end_time: fc.nat(60) });
const submit: fc.Arbitrary<TranscriptionJobCommand> = fc.record({
  type: fc.constant('SubmitTranscriptionJob' as const),
  data: fc.record({
    job_id: id('job_1', 'job_2'),
    workspace_id: fc.constant('ws_1'),
    audio_url: fc.option(fc.constantFrom('https://example.com/a.wav', '')),
    transcript: fc.option(fc.array(segment, { maxLength: 2 })),
    language,
    speakers: count,
    features: fc.array(fc.oneof(fc.constantFrom(...TRANSCRIPTION_FEATURES), fc.constant('translation')), { maxLength: 4 }),
    qa_scorecard_id: fc.option(fc.constant('qsc_1')),
    qa_scorecard: fc.option(fc.constant({ scorecard_id: 'qsc_1', version: 1, definition: {} })),
    metadata: fc.option(fc.dictionary(fc.constantFrom('order', 'x'), fc.string({ maxLength: 5 }))),
    call_id: fc.option(fc.constant('cal_1')),
    disposition: fc.option(fc.constant('interested')),
    submitted_at: time,
  }),
});
const attemptNumber = fc.integer({ min: -1, max: 4 });
const result = fc.record({
  transcript: fc.array(segment, { maxLength: 2 }),
  summary: fc.option(fc.string({ maxLength: 10 })),
  sentiment: fc.constant(null),
  intent: fc.constant(null),
  qa_score: fc.constant(null),
  duration_seconds: fc.nat(600),
});
const command: fc.Arbitrary<TranscriptionJobCommand> = fc.oneof(
  submit,
  fc.record({ type: fc.constant('StartTranscriptionJob' as const), data: fc.record({ attempt: attemptNumber, started_at: time }) }),
  fc.record({ type: fc.constant('CompleteTranscriptionJob' as const), data: fc.record({ attempt: attemptNumber, result, completed_at: time }) }),
  fc.record({
    type: fc.constant('FailTranscriptionJob' as const),
    data: fc.record({ attempt: fc.option(attemptNumber), error: fc.constant({ code: 'audio_unreachable', message: 'gone' }), failed_at: time }),
  }),
);

const isFinal = (status: string | null) => status === 'completed' || status === 'failed';

properties('random command sequences: only domain refusals, final states stay final, attempts count up by one', () => {
  checkDeciderProperties({
    decider: transcriptionJobDecider,
    command,
    opening: submit,
    invariants: [
      { name: 'completed and failed are final', broken: (after, before) => (isFinal(before.status) && after.status !== before.status ? `${before.status} → ${after.status}` : null) },
      { name: 'attempts count up by at most one per command', broken: (after, before) => (after.attempts < before.attempts || after.attempts > before.attempts + 1 ? `${before.attempts} → ${after.attempts}` : null) },
      {
        name: 'a submitted job is whole: one source, speakers in range, transcription always on',
        broken: (after) => {
          const job = after.job;
          if (!job) return null;
          const ok = (job.audio_url === null) !== (job.transcript === null) && Number.isInteger(job.speakers) && job.speakers >= 1 && job.speakers <= 10 && job.features[0] === 'transcription';
          return ok ? null : JSON.stringify(job);
        },
      },
    ],
  });
});

properties.run();

import * as fc from 'fast-check';
import { suite } from 'uvu';
import { transcriptionJobDecider, TRANSCRIPTION_FEATURES, type TranscriptionJobCommand } from '../../../domain/transcription-job.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { count, id, language, time, nullable } from './domain-values.ts';

const properties = suite('transcription job decider: properties');

const segment = fc.record({ speaker: fc.constantFrom('agent', 'customer', 'speaker_3'), text: fc.string({ maxLength: 10 }), start_time: fc.nat(60), end_time: fc.nat(60) });
const submit: fc.Arbitrary<TranscriptionJobCommand> = fc.record({
  type: fc.constant('SubmitTranscriptionJob' as const),
  data: fc.record({
    job_id: id('job_1', 'job_2'),
    workspace_id: fc.constant('ws_1'),
    audio_url: nullable(fc.constantFrom('https://example.com/a.wav', '')),
    transcript: nullable(fc.array(segment, { maxLength: 2 })),
    language,
    speakers: count,
    features: fc.array(fc.oneof(fc.constantFrom(...TRANSCRIPTION_FEATURES), fc.constant('translation')), { maxLength: 4 }),
    qa_scorecard_id: nullable(fc.constant('qsc_1')),
    qa_scorecard: nullable(fc.constant({ scorecard_id: 'qsc_1', version: 1, definition: {} })),
    metadata: nullable(fc.dictionary(fc.constantFrom('order', 'x'), fc.string({ maxLength: 5 }))),
    call_id: nullable(fc.constant('cal_1')),
    disposition: nullable(fc.constant('interested')),
    submitted_at: time,
  }),
});
/** A submission that passes the rules: most sequences start with one. */
const validSubmit: fc.Arbitrary<TranscriptionJobCommand> = submit.map((command) =>
  command.type === 'SubmitTranscriptionJob'
    ? { ...command, data: { ...command.data, job_id: 'job_1', audio_url: 'https://example.com/a.wav', transcript: null, language: 'en-IN', speakers: 2, features: ['summary'] } }
    : command,
);
const attemptNumber = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: -1, max: 4 }) });
const result = fc.record({
  transcript: fc.array(segment, { maxLength: 2 }),
  summary: nullable(fc.string({ maxLength: 10 })),
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
    data: fc.record({ attempt: nullable(attemptNumber), error: fc.constant({ code: 'audio_unreachable', message: 'gone' }), failed_at: time }),
  }),
);

const isFinal = (status: string | null) => status === 'completed' || status === 'failed';

properties('random command sequences: only domain refusals, final states stay final, attempts count up by one', () => {
  checkDeciderProperties({
    decider: transcriptionJobDecider,
    command,
    opening: fc.oneof({ weight: 3, arbitrary: validSubmit }, { weight: 1, arbitrary: submit }),
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

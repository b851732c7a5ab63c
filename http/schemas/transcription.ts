import { z } from '@hono/zod-openapi';
import { MAX_SPEAKERS, MIN_SPEAKERS, TRANSCRIPTION_FEATURES } from '../../domain/transcription-job.ts';
import { BCP47_DESCRIPTION, SUPPORTED_LANGUAGES, SUPPORTED_LANGUAGES_DESCRIPTION, isBcp47Shape, isSupportedLanguage } from '../../domain/shared/language.ts';
import { PaginationQuery, Timestamp, listEnvelope } from './common.ts';
import { ANALYZER_FALLBACK_REASONS } from '../../infra/analysis/transcript-analysis.ts';

/** A transcript of a 4-hour call has a few thousand segments; this bounds a submitted one generously. */
export const MAX_SUBMITTED_SEGMENTS = 20_000;
/** A submitted transcript covers at most what a recording may: the spec's 4 hours. */
export const MAX_TRANSCRIPT_SECONDS = 4 * 60 * 60;
/**
 * Text of a submitted transcript, all segments together. Four hours of fast speech are about 200,000 characters;
 * the analysis reads every one, so this bounds its work (and the events that carry the transcript) well above any
 * real call.
 */
export const MAX_TRANSCRIPT_CHARACTERS = 1_000_000;
/** Metadata is echoed in every response and webhook payload: a few kilobytes of the client's own keys. */
export const MAX_METADATA_BYTES = 16 * 1024;

const HTTP_URL_EXPECTED = 'an http or https URL of the recording';

export const TranscriptSegmentSchema = z
  .strictObject({
    speaker: z.string().trim().min(1).max(64).openapi({ description: '`agent`, `customer`, or `speaker_1`, `speaker_2`, ...', example: 'agent' }),
    text: z.string().max(10_000).openapi({ example: 'Good morning, this is Asha from the bank.' }),
    start_time: z.number().min(0).openapi({ description: 'Seconds from the recording start.', example: 0.4 }),
    end_time: z
      .number()
      .min(0)
      .max(MAX_TRANSCRIPT_SECONDS, { error: `a number of seconds from 0 to ${MAX_TRANSCRIPT_SECONDS} (4 hours, the longest recording accepted)` })
      .openapi({ example: 3.9 }),
    confidence: z.number().min(0).max(1).optional().openapi({ description: '0 to 1; above 0.90 counts as high confidence.', example: 0.93 }),
  })
  .refine((segment) => segment.end_time >= segment.start_time, { error: 'end_time at or after start_time', path: ['end_time'] })
  .openapi('TranscriptSegment');

const Language = z
  .string()
  .refine(isBcp47Shape, { error: BCP47_DESCRIPTION, abort: true })
  .refine(isSupportedLanguage, { error: SUPPORTED_LANGUAGES_DESCRIPTION })
  .openapi({ description: 'BCP-47; selects the recognition model and the analysis lexicons.', enum: [...SUPPORTED_LANGUAGES], example: 'en-IN' });

export const TranscriptionBody = z
  .strictObject({
    audio_url: z
      .string({ error: HTTP_URL_EXPECTED })
      .max(4096)
      .refine(isHttpUrl, { error: HTTP_URL_EXPECTED })
      .optional()
      .openapi({ description: 'Where to download the recording (WAV, MP3, OGG Vorbis/Opus, FLAC, M4A; at most 500 MB and 4 hours). Exactly one of `audio_url` and `transcript`.', example: 'https://storage.example.com/calls/123.wav' }),
    transcript: z
      .array(TranscriptSegmentSchema)
      .min(1)
      .max(MAX_SUBMITTED_SEGMENTS)
      .superRefine((segments, context) => {
        const characters = segments.reduce((sum, segment) => sum + segment.text.length, 0);
        if (characters > MAX_TRANSCRIPT_CHARACTERS) {
          // `provided` is what was measured: the array itself would say nothing useful.
          context.addIssue({ code: 'custom', message: `at most ${MAX_TRANSCRIPT_CHARACTERS} characters of text in all segments together`, params: { provided: characters } });
        }
      })
      .optional()
      .openapi({
        description: `A transcript to analyse instead of a recording: recognition is skipped. Exactly one of \`audio_url\` and \`transcript\`. At most ${MAX_SUBMITTED_SEGMENTS} segments, ${MAX_TRANSCRIPT_CHARACTERS} characters of text in all, and no end_time past ${MAX_TRANSCRIPT_SECONDS} s (4 hours).`,
      }),
    language: Language,
    speakers: z.int().min(MIN_SPEAKERS).max(MAX_SPEAKERS).default(2).openapi({ description: 'Expected speakers for diarisation, 1 to 10.', example: 2 }),
    features: z
      .array(z.enum(TRANSCRIPTION_FEATURES))
      .max(20)
      .default(['transcription'])
      .openapi({ description: '`transcription` is always included. `compliance`: the workspace\'s compliance packs check the transcript (GET /v1/analytics/compliance?job_id=…; `metadata.purpose` names the purpose, default service).', example: ['transcription', 'summary', 'sentiment', 'intent'] }),
    qa_scorecard_id: z.string().min(1).max(100).optional().openapi({ description: 'Required with `qa_scoring`: a scorecard of this workspace.', example: 'qsc_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    metadata: z
      .record(z.string(), z.unknown())
      .refine((metadata) => JSON.stringify(metadata).length <= MAX_METADATA_BYTES, { error: `an object of at most ${MAX_METADATA_BYTES} bytes as JSON` })
      .optional()
      .openapi({ description: 'Returned unchanged in every response and webhook payload. `channel_speakers` (e.g. `["customer", "agent"]`) overrides the speaker of each channel of a stereo recording.', example: { crm_ticket: 'T-1001' } }),
  })
  .superRefine((body, context) => {
    if (body.audio_url === undefined && body.transcript === undefined) {
      context.addIssue({ code: 'custom', path: ['audio_url'], message: `${HTTP_URL_EXPECTED}, or a transcript array (exactly one of the two)` });
    } else if (body.audio_url !== undefined && body.transcript !== undefined) {
      context.addIssue({ code: 'custom', path: ['transcript'], message: 'no transcript when audio_url is given (exactly one of the two)' });
    }
    if (body.features.includes('qa_scoring') && body.qa_scorecard_id === undefined) {
      context.addIssue({ code: 'custom', path: ['qa_scorecard_id'], message: 'the id of a QA scorecard of this workspace (required with the qa_scoring feature)' });
    }
  })
  // The refinement above, declared: exactly one of the two (both at once fails both branches of `oneOf`).
  .openapi('TranscriptionInput', { oneOf: [{ required: ['audio_url'] }, { required: ['transcript'] }] } as never);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const TranscriptionAcceptedSchema = z
  .object({ job_id: z.string().openapi({ example: 'job_01jd8k3m9q2x7c4v5b6n8p0r2t' }), status: z.literal('pending'), created_at: Timestamp })
  .openapi('TranscriptionAccepted');

const Sentiment = z
  .object({ overall: z.number().openapi({ example: 0.42 }), by_speaker: z.record(z.string(), z.number()).openapi({ example: { agent: 0.3, customer: 0.42 } }) })
  .openapi('Sentiment');

const QaScore = z
  .object({
    overall_score: z.number().openapi({ example: 85.7 }),
    parameter_scores: z.array(z.object({ parameter_name: z.string(), score: z.number(), max_score: z.number(), passed: z.boolean() })),
    passed: z.boolean().openapi({ description: 'overall_score reached the scorecard\'s pass_threshold.' }),
    pass_threshold: z.number(),
  })
  .openapi('QaScore');

const AnalyzerSchema = z
  .object({
    name: z.enum(['llm', 'lexicon']).openapi({ description: '`llm`: the configured LLM endpoint (ANALYZER_API_URL) answered; `lexicon`: the offline analyzer.', example: 'llm' }),
    model: z.string().nullable().openapi({ description: 'The LLM model, with `llm`; else null.', example: 'qwen2.5:7b-instruct' }),
    fallback_reason: z
      .enum(ANALYZER_FALLBACK_REASONS)
      .nullable()
      .openapi({ description: 'Set when an LLM was configured but the offline analyzer answered instead (docs/analysis.md); null otherwise.', example: null }),
    fallback_detail: z.string().nullable().openapi({ description: 'The fallback in words, e.g. `the analyzer endpoint answered HTTP 429`.', example: null }),
  })
  .openapi('TranscriptionAnalyzer', { description: 'Which analyzer produced summary, sentiment and intent. QA scoring is always offline.' });

export const JobErrorSchema = z
  .object({
    code: z.string().openapi({ example: 'audio_unreachable', description: 'See docs/analysis.md for every code.' }),
    message: z.string().openapi({ example: 'the audio_url answered HTTP 404' }),
  })
  .openapi('TranscriptionJobError');

export const TranscriptionJobSchema = z
  .object({
    job_id: z.string(),
    status: z.enum(['pending', 'processing', 'completed', 'failed']),
    language: z.string(),
    features: z.array(z.enum(TRANSCRIPTION_FEATURES)),
    call_id: z.string().nullable().openapi({ description: 'The call whose conversation this job analyses (automatic call transcripts), else null.' }),
    transcript: z.array(TranscriptSegmentSchema).optional().openapi({ description: 'Only when `completed`.' }),
    duration_seconds: z.number().optional().openapi({ description: 'Only when `completed`.' }),
    summary: z.string().nullable().openapi({ description: '2 to 4 sentences; null unless `summary` was requested (and until completed).' }),
    sentiment: Sentiment.nullable().optional().openapi({ description: 'Present when `sentiment` was requested; null until completed.' }),
    intent: z.string().nullable().openapi({ description: 'Null unless `intent` was requested, until completed, or when no intent was recognised.' }),
    qa_score: QaScore.nullable().optional().openapi({ description: 'Present when `qa_scoring` was requested; null until completed.' }),
    analyzer: AnalyzerSchema.optional().openapi({ description: 'Once `completed`, when `summary`, `sentiment` or `intent` was requested: which analyzer answered (an extension of the spec).' }),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: Timestamp,
    completed_at: Timestamp.nullable().openapi({ description: 'When the job completed or failed; null before.' }),
    error: JobErrorSchema.optional().openapi({ description: 'Only when `failed`.' }),
  })
  .openapi('TranscriptionJob');

export const TranscriptionJobListSchema = listEnvelope(TranscriptionJobSchema.omit({ transcript: true }), 'TranscriptionJobList');

export const TranscriptionListQuery = PaginationQuery.extend({
  status: z.enum(['pending', 'processing', 'completed', 'failed']).optional().openapi({ description: 'Only jobs in this status.' }),
});

export const JobIdParams = z.object({
  job_id: z.string().min(1).max(100).openapi({ param: { name: 'job_id', in: 'path' }, example: 'job_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
});

export const CallTranscriptSchema = z
  .object({
    status: z.enum(['processing', 'completed', 'failed']),
    call_id: z.string().optional(),
    job_id: z.string().optional(),
    language: z.string().optional(),
    duration_seconds: z.int().optional(),
    transcript: z.array(TranscriptSegmentSchema).optional(),
    summary: z.string().nullable().optional(),
    sentiment: Sentiment.nullable().optional(),
    error: JobErrorSchema.optional(),
  })
  .openapi('CallTranscript', {
    description: 'While the call or its analysis runs: only `{"status": "processing"}`. Completed: every field. Failed: `call_id`, `job_id`, `status`, `error`.',
  });

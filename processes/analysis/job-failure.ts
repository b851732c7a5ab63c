/**
 * Why a transcription job failed, as the client sees it in `error: {code, message}`. The codes are documented
 * in docs/analysis.md; the message is for a person and never carries internals (paths, stacks).
 */
export const JOB_ERROR_CODES = [
  'audio_url_not_allowed',
  'audio_unreachable',
  'download_too_slow',
  'audio_too_large',
  'audio_too_long',
  'unsupported_format',
  'invalid_audio',
  'language_not_supported',
  'speech_api_failed',
  'analysis_budget_exceeded',
  'analysis_failed',
  'processing_interrupted',
  'processing_error',
] as const;

export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];

export class JobFailure extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

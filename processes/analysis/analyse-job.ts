import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TranscriptionJobResult, TranscriptionJobSubmittedData, TranscriptSegment } from '../../domain/transcription-job.ts';
import { scorecardSchema } from '../../infra/analysis/scorecard-schema.ts';
import { AnalysisBudgetExceededError, AnalysisFailedError, type TranscriptAnalysis } from '../../infra/analysis/transcript-analysis.ts';
import type { Logger } from '../../infra/logger.ts';
import type { OutboundPolicy } from '../../infra/outbound/request.ts';
import { AudioDecodeError, AudioTooLongError, UnsupportedFormatError } from '../../infra/speech/decode.ts';
import { SpeechApiError } from '../../infra/speech/openai-compatible.ts';
import { LanguageNotSupportedError, type SpeechRecognizer } from '../../infra/speech/port.ts';
import { transcribeAudioFile } from '../../infra/speech/transcribe.ts';
import { downloadAudio, type DownloadDeadlines } from './download-audio.ts';
import { JobFailure } from './job-failure.ts';

export interface AnalysisDependencies {
  recognizer: SpeechRecognizer;
  /** Summary, sentiment, intent and QA of the transcript: off the event loop, within a time budget (analysis-pool.ts). */
  transcriptAnalysis: TranscriptAnalysis;
  policy: OutboundPolicy;
  /** Downloads go here (one file per job, removed afterwards). */
  workDirectory: string;
  maxAudioBytes: number;
  maxAudioSeconds: number;
  /** How long a download may take (defaults in download-audio.ts). */
  downloadDeadlines?: DownloadDeadlines;
  logger: Logger;
}

/**
 * One attempt at a job: get the transcript (download and recognise the audio, or take the one submitted), then
 * run the requested features over it. Everything that can go wrong for a reason the client can act on leaves
 * as a JobFailure with a documented code; anything else is a `processing_error`.
 */
export async function analyseJob(job: TranscriptionJobSubmittedData, dependencies: AnalysisDependencies, signal: AbortSignal): Promise<TranscriptionJobResult> {
  try {
    const { segments, durationSeconds } = job.transcript !== null ? fromSubmittedTranscript(job.transcript) : await recognise(job, dependencies, signal);
    return await runFeatures(job, segments, durationSeconds, dependencies.transcriptAnalysis, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw asJobFailure(error, dependencies.logger, job.job_id);
  }
}

function fromSubmittedTranscript(transcript: TranscriptSegment[]): { segments: TranscriptSegment[]; durationSeconds: number } {
  const durationSeconds = transcript.reduce((latest, segment) => Math.max(latest, segment.end_time), 0);
  return { segments: transcript, durationSeconds };
}

async function recognise(
  job: TranscriptionJobSubmittedData,
  dependencies: AnalysisDependencies,
  signal: AbortSignal,
): Promise<{ segments: TranscriptSegment[]; durationSeconds: number }> {
  const { recognizer, logger } = dependencies;
  // Before downloading up to 500 MB that nobody here could recognise.
  if (!recognizer.supports(job.language)) throw new LanguageNotSupportedError(job.language, recognizer.name);
  await mkdir(dependencies.workDirectory, { recursive: true });
  const path = join(dependencies.workDirectory, `${job.job_id}.audio`);
  try {
    const started = Date.now();
    const download = await downloadAudio(job.audio_url!, path, {
      policy: dependencies.policy,
      maxBytes: dependencies.maxAudioBytes,
      maxDurationSeconds: dependencies.maxAudioSeconds,
      ...dependencies.downloadDeadlines,
      signal,
      onProgress: (received, total) => logger.info({ job_id: job.job_id, received_bytes: received, total_bytes: total }, 'downloading audio'),
    });
    logger.info({ job_id: job.job_id, bytes: download.bytes, ms: Date.now() - started }, 'audio downloaded; transcribing');
    const transcription = await transcribeAudioFile(path, {
      language: job.language,
      speakers: job.speakers,
      recognizer,
      channelSpeakers: channelSpeakersOf(job.metadata),
      maxDurationSeconds: dependencies.maxAudioSeconds,
      signal,
    });
    logger.info(
      { job_id: job.job_id, audio_seconds: Math.round(transcription.durationSeconds), segments: transcription.segments.length, diarization: transcription.diarization.method, ms: Date.now() - started },
      'audio transcribed',
    );
    return { segments: transcription.segments, durationSeconds: transcription.durationSeconds };
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * `metadata.channel_speakers`, e.g. `["customer", "agent"]`, overrides which party is on which channel of a stereo
 * recording (default: agent left, customer right). Anything else in metadata is the client's own.
 */
function channelSpeakersOf(metadata: Record<string, unknown> | null): string[] | undefined {
  const value = metadata?.channel_speakers;
  if (Array.isArray(value) && value.length === 2 && value.every((label) => typeof label === 'string' && label.length > 0)) return value as string[];
  return undefined;
}

const ANALYSIS_FEATURES: ReadonlySet<string> = new Set(['summary', 'sentiment', 'intent', 'qa_scoring']);
/** What the optional LLM analyzer answers (QA scoring is always the offline rules). */
const LLM_CAPABLE_FEATURES: ReadonlySet<string> = new Set(['summary', 'sentiment', 'intent']);

async function runFeatures(
  job: TranscriptionJobSubmittedData,
  segments: TranscriptSegment[],
  durationSeconds: number,
  transcriptAnalysis: TranscriptAnalysis,
  signal: AbortSignal,
): Promise<TranscriptionJobResult> {
  const base = { transcript: segments, duration_seconds: Math.round(durationSeconds * 100) / 100 };
  // Only the transcript was asked for: no trip to a worker thread.
  if (!job.features.some((feature) => ANALYSIS_FEATURES.has(feature))) return { ...base, summary: null, sentiment: null, intent: null, qa_score: null };
  const scorecard = job.features.includes('qa_scoring') && job.qa_scorecard !== null ? scorecardSchema.parse(job.qa_scorecard.definition) : null;
  const { analyzer, ...analysis } = await transcriptAnalysis.analyse(
    { segments, language: job.language, features: job.features, disposition: job.disposition, scorecard },
    { signal, workspaceId: job.workspace_id, jobId: job.job_id },
  );
  // Which analyzer answered, when one of its features was asked for: the LLM adapter says; otherwise the lexicon.
  if (!job.features.some((feature) => LLM_CAPABLE_FEATURES.has(feature))) return { ...base, ...analysis };
  return { ...base, ...analysis, analyzer: analyzer ?? { name: 'lexicon', model: null, fallback_reason: null, fallback_detail: null } };
}

function asJobFailure(error: unknown, logger: Logger, jobId: string): JobFailure {
  if (error instanceof JobFailure) return error;
  if (error instanceof LanguageNotSupportedError) return new JobFailure('language_not_supported', error.message);
  if (error instanceof UnsupportedFormatError) return new JobFailure('unsupported_format', error.message);
  if (error instanceof AudioTooLongError) return new JobFailure('audio_too_long', error.message);
  if (error instanceof AnalysisBudgetExceededError) {
    return new JobFailure('analysis_budget_exceeded', `${error.message}; retrying the same transcript cannot help (send a shorter one)`);
  }
  if (error instanceof AnalysisFailedError) {
    logger.error({ err: error.cause, job_id: jobId, out_of_memory: error.outOfMemory }, 'transcript analysis failed in its worker thread');
    return new JobFailure('analysis_failed', error.outOfMemory ? `${error.message} (send a shorter transcript)` : error.message);
  }
  if (error instanceof AudioDecodeError) return new JobFailure('invalid_audio', 'the audio could not be decoded (truncated or corrupt file)');
  if (error instanceof SpeechApiError) {
    // The server's address and what it answered are the operator's business, not the client's: logged, not shown.
    logger.warn({ err: error, job_id: jobId }, 'speech recognition server failed');
    const answer = error.status === null ? 'could not be reached or answered with an unreadable response' : `answered HTTP ${error.status}`;
    return new JobFailure('speech_api_failed', `the speech recognition server ${answer}`);
  }
  logger.error({ err: error, job_id: jobId }, 'transcription job failed unexpectedly');
  return new JobFailure('processing_error', 'an unexpected error stopped the job; submitting it again may help');
}

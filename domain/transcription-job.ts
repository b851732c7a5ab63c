import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState, notFound } from './shared/errors.ts';
import { isBcp47Shape, isSupportedLanguage, BCP47_DESCRIPTION, SUPPORTED_LANGUAGES_DESCRIPTION } from './shared/language.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A transcription job (stream `transcription-<job_id>`, id `job_...`): one recording (or a transcript given as
 * text) analysed asynchronously.
 *
 *   pending ──start (attempt 1)──▶ processing ──complete──▶ completed
 *      │                             │  ▲  └──fail───────▶ failed
 *      └──fail (before any attempt)──┼──┼────────────────▶ failed
 *                                    └──┘ start (attempt n+1): the previous attempt was interrupted (the process
 *                                         died mid-job); the worker bounds the attempts and fails the job after
 * Only the attempt that is current may complete or fail the job, so a worker that wakes up late after an
 * interruption cannot overwrite the result of the attempt that replaced it.
 */
/** `compliance`: the post-call compliance rules of the workspace's packs are evaluated on the transcript (issue 14; docs/compliance.md). */
export const TRANSCRIPTION_FEATURES = ['transcription', 'summary', 'sentiment', 'intent', 'qa_scoring', 'compliance'] as const;
export type TranscriptionFeature = (typeof TRANSCRIPTION_FEATURES)[number];

export const MIN_SPEAKERS = 1;
export const MAX_SPEAKERS = 10;
export const DEFAULT_SPEAKERS = 2;

export type TranscriptionJobStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** One stretch of one speaker's speech, in seconds from the recording's start (the spec's Transcript segment). */
export type TranscriptSegment = {
  speaker: string;
  text: string;
  start_time: number;
  end_time: number;
  confidence?: number;
};

export type JobSentiment = { overall: number; by_speaker: Record<string, number> };

export type JobQaScore = {
  overall_score: number;
  parameter_scores: Array<{ parameter_name: string; score: number; max_score: number; passed: boolean }>;
  passed: boolean;
  pass_threshold: number;
};

/** `code` is one of the documented job error codes (`audio_unreachable`, `language_not_supported`, ...). */
export type JobError = { code: string; message: string };

/** The scorecard as it was when the job was submitted: later edits or a deletion do not change a queued job. */
export type PinnedScorecard = { scorecard_id: string; version: number; definition: Record<string, unknown> };

export type TranscriptionJobSubmittedData = {
  job_id: string;
  workspace_id: string;
  /** Exactly one of the two is set. */
  audio_url: string | null;
  transcript: TranscriptSegment[] | null;
  language: string;
  speakers: number;
  /** Always includes `transcription`, in the order of TRANSCRIPTION_FEATURES. */
  features: TranscriptionFeature[];
  qa_scorecard_id: string | null;
  qa_scorecard: PinnedScorecard | null;
  metadata: Record<string, unknown> | null;
  /** The call whose conversation this job analyses (automatic call transcripts), else null. */
  call_id: string | null;
  /** How the call ended, when known: the summary says so. */
  disposition: string | null;
  submitted_at: string;
};

/**
 * Which analyzer produced summary, sentiment and intent: `llm` (ANALYZER_API_URL) or `lexicon`, with the reason
 * when an LLM was configured and the lexicon analyzer answered instead (docs/analysis.md).
 */
export type JobAnalyzer = { name: 'llm' | 'lexicon'; model: string | null; fallback_reason: string | null; fallback_detail: string | null };

export type TranscriptionJobResult = {
  transcript: TranscriptSegment[];
  summary: string | null;
  sentiment: JobSentiment | null;
  intent: string | null;
  qa_score: JobQaScore | null;
  duration_seconds: number;
  /** Set when summary, sentiment or intent was requested (absent on jobs completed before it existed). */
  analyzer?: JobAnalyzer;
};

// ---------------------------------------------------------------------------------------------------- commands

export type TranscriptionJobCommand =
  | { type: 'SubmitTranscriptionJob'; data: Omit<TranscriptionJobSubmittedData, 'features'> & { features: readonly string[] } }
  | { type: 'StartTranscriptionJob'; data: { attempt: number; started_at: string } }
  | { type: 'CompleteTranscriptionJob'; data: { attempt: number; result: TranscriptionJobResult; completed_at: string } }
  /** `attempt` null: the job failed before any attempt started (e.g. too many interruptions are counted by the worker). */
  | { type: 'FailTranscriptionJob'; data: { attempt: number | null; error: JobError; failed_at: string } };

// ------------------------------------------------------------------------------------------------------ events

/** What webhook payloads need is on every final event: language, call, metadata. */
type JobIdentity = { job_id: string; language: string; call_id: string | null; metadata: Record<string, unknown> | null };

export type TranscriptionJobEvent =
  | DomainEvent<'TranscriptionJobSubmitted', TranscriptionJobSubmittedData>
  | DomainEvent<'TranscriptionJobStarted', { job_id: string; attempt: number; resumed_after_interruption: boolean; started_at: string }>
  | DomainEvent<'TranscriptionJobCompleted', JobIdentity & TranscriptionJobResult & { features: TranscriptionFeature[]; completed_at: string }>
  | DomainEvent<'TranscriptionJobFailed', JobIdentity & { attempt: number | null; error: JobError; failed_at: string }>;

// ------------------------------------------------------------------------------------------------------- state

export interface TranscriptionJobState {
  status: TranscriptionJobStatus | null;
  job: TranscriptionJobSubmittedData | null;
  /** Attempts started so far. */
  attempts: number;
}

export function initialTranscriptionJobState(): TranscriptionJobState {
  return { status: null, job: null, attempts: 0 };
}

export function evolveTranscriptionJob(state: TranscriptionJobState, event: TranscriptionJobEvent): TranscriptionJobState {
  switch (event.type) {
    case 'TranscriptionJobSubmitted':
      return { status: 'pending', job: event.data, attempts: 0 };
    case 'TranscriptionJobStarted':
      return { ...state, status: 'processing', attempts: event.data.attempt };
    case 'TranscriptionJobCompleted':
      return { ...state, status: 'completed' };
    case 'TranscriptionJobFailed':
      return { ...state, status: 'failed' };
  }
}

export function decideTranscriptionJob(command: TranscriptionJobCommand, state: TranscriptionJobState): TranscriptionJobEvent[] {
  if (command.type === 'SubmitTranscriptionJob') {
    if (state.status !== null) throw alreadyDone('The job was already submitted.', { job_id: command.data.job_id });
    return [{ type: 'TranscriptionJobSubmitted', data: validateSubmission(command.data) }];
  }
  if (state.status === null || state.job === null) throw notFound('transcription_job', '(unknown)');
  const job = state.job;
  const identity: JobIdentity = { job_id: job.job_id, language: job.language, call_id: job.call_id, metadata: job.metadata };
  switch (command.type) {
    case 'StartTranscriptionJob': {
      const { attempt } = command.data;
      if (state.status === 'completed' || state.status === 'failed') throw invalidState(`The job is ${state.status}.`, { status: state.status });
      if (attempt <= state.attempts) throw alreadyDone(`Attempt ${attempt} was already started.`, { attempt: state.attempts });
      if (attempt !== state.attempts + 1) throw invalidParameter('attempt', attempt, `the next attempt, ${state.attempts + 1}`);
      return [
        {
          type: 'TranscriptionJobStarted',
          data: { job_id: job.job_id, attempt, resumed_after_interruption: state.status === 'processing', started_at: command.data.started_at },
        },
      ];
    }
    case 'CompleteTranscriptionJob': {
      requireCurrentAttempt(state, command.data.attempt);
      return [{ type: 'TranscriptionJobCompleted', data: { ...identity, features: job.features, ...command.data.result, completed_at: command.data.completed_at } }];
    }
    case 'FailTranscriptionJob': {
      const { attempt } = command.data;
      if (attempt === null) {
        if (state.status === 'completed' || state.status === 'failed') throw invalidState(`The job is ${state.status}.`, { status: state.status });
      } else {
        requireCurrentAttempt(state, attempt);
      }
      return [{ type: 'TranscriptionJobFailed', data: { ...identity, attempt, error: command.data.error, failed_at: command.data.failed_at } }];
    }
  }
}

function requireCurrentAttempt(state: TranscriptionJobState, attempt: number): void {
  if (state.status !== 'processing') throw invalidState(`The job is ${state.status}.`, { status: state.status });
  if (attempt !== state.attempts) throw invalidState(`Attempt ${attempt} is no longer the job's current attempt (${state.attempts}).`, { attempt: state.attempts });
}

/**
 * The rules of a submission, also enforced at the HTTP edge with the same field names: the domain refuses what
 * the edge would (a process manager submitting call jobs goes through here too).
 */
function validateSubmission(data: Omit<TranscriptionJobSubmittedData, 'features'> & { features: readonly string[] }): TranscriptionJobSubmittedData {
  if ((data.audio_url === null) === (data.transcript === null)) {
    throw invalidParameter('audio_url', data.audio_url, 'exactly one of audio_url or transcript');
  }
  if (!isBcp47Shape(data.language)) throw invalidParameter('language', data.language, BCP47_DESCRIPTION);
  if (!isSupportedLanguage(data.language)) throw invalidParameter('language', data.language, SUPPORTED_LANGUAGES_DESCRIPTION);
  if (!Number.isInteger(data.speakers) || data.speakers < MIN_SPEAKERS || data.speakers > MAX_SPEAKERS) {
    throw invalidParameter('speakers', data.speakers, `an integer from ${MIN_SPEAKERS} to ${MAX_SPEAKERS}`);
  }
  data.features.forEach((feature, index) => {
    if (!(TRANSCRIPTION_FEATURES as readonly string[]).includes(feature)) {
      throw invalidParameter(`features[${index}]`, feature, `one of ${TRANSCRIPTION_FEATURES.join(', ')}`);
    }
  });
  const requested = new Set(data.features);
  const features = TRANSCRIPTION_FEATURES.filter((feature) => feature === 'transcription' || requested.has(feature));
  if (requested.has('qa_scoring') && (data.qa_scorecard_id === null || data.qa_scorecard === null)) {
    throw invalidParameter('qa_scorecard_id', data.qa_scorecard_id, 'the id of a QA scorecard of this workspace (required with qa_scoring)');
  }
  return { ...data, features };
}

function invalidParameter(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

/**
 * Roughly how many bytes a folded job holds: the command handler's cache is bounded by size, and a submitted
 * transcript is most of a job (4,000 segments: a few megabytes of objects). Without it every job counted as the
 * cache's 4 KB default, and a workspace submitting long transcripts grew the server's heap by ~55 MB a minute.
 */
export function transcriptionJobStateBytes(state: TranscriptionJobState): number {
  let bytes = 1_024 + transcriptBytes(state.job?.transcript ?? null);
  if (state.job?.metadata) bytes += 2 * JSON.stringify(state.job.metadata).length;
  return bytes;
}

/**
 * A submission's transcript never changes after it is folded, and every command of the job keeps the same array:
 * its size is counted once per array, not on every command (4,000 segments, on the event loop, for each of a job's
 * commands and loads). A pure function of the array, remembered by identity.
 */
const transcriptSizes = new WeakMap<readonly TranscriptSegment[], number>();

function transcriptBytes(transcript: readonly TranscriptSegment[] | null): number {
  if (transcript === null) return 0;
  let bytes = transcriptSizes.get(transcript);
  if (bytes === undefined) {
    bytes = 0;
    for (const segment of transcript) bytes += 160 + 2 * segment.text.length;
    transcriptSizes.set(transcript, bytes);
  }
  return bytes;
}

export const transcriptionJobDecider: Decider<TranscriptionJobCommand, TranscriptionJobEvent, TranscriptionJobState> = {
  initialState: initialTranscriptionJobState,
  evolve: evolveTranscriptionJob,
  decide: decideTranscriptionJob,
  sizeOf: transcriptionJobStateBytes,
};

const transcriptionJobStreams = streamCategory('transcription');
export const transcriptionJobStream = transcriptionJobStreams.stream;
export const transcriptionJobIdOf = transcriptionJobStreams.idOf;

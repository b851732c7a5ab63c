import { isCallPurpose } from '../../domain/compliance/contact-fields.ts';
import type { CallPurpose, PostCallInput } from '../../domain/compliance/rule.ts';
import type { CallPlacement } from '../../domain/call.ts';
import type { TranscriptionJobEvent, TranscriptionJobSubmittedData } from '../../domain/transcription-job.ts';

/**
 * What the post-call rules are asked about, from the events of a finished analysis: the job's completion (the
 * transcript with time offsets, the sentiment), its submission, and for a call its placement. Pure: the live
 * evaluation and a re-audit build the same input from the same events.
 */
export type JobCompleted = Extract<TranscriptionJobEvent, { type: 'TranscriptionJobCompleted' }>['data'];

export interface PostCallSubject {
  subject_id: string;
  call_id: string | null;
  job_id: string;
  workspace_id: string;
  campaign_id: string | null;
  /** The number called (null for a standalone job): an opt-out suppresses it. */
  phone: string | null;
  occurred_at: string;
  input: PostCallInput;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** Whether a job is evaluated at all: every call transcript, and standalone jobs that asked for `compliance`. */
export function wantsCompliance(completed: Pick<JobCompleted, 'call_id' | 'features'>): boolean {
  // Events appended by hand (older tests, imports) may lack features: such a job did not ask.
  return (completed.call_id ?? null) !== null || (Array.isArray(completed.features) && completed.features.includes('compliance'));
}

export function postCallSubject(completed: JobCompleted, submitted: TranscriptionJobSubmittedData, workspaceId: string, call: CallPlacement | null): PostCallSubject {
  const metadata = submitted.metadata ?? {};
  // A call names its purpose; a standalone job may in its metadata (`purpose`), else it is a service call.
  const purpose: CallPurpose = call?.purpose ?? (isCallPurpose(metadata.purpose) ? metadata.purpose : 'service');
  const variables = call?.variables ?? metadata;
  const agentSentiment = completed.sentiment?.by_speaker.agent;
  return {
    subject_id: completed.call_id ?? completed.job_id,
    call_id: completed.call_id,
    job_id: completed.job_id,
    workspace_id: workspaceId,
    campaign_id: call?.campaign_id ?? null,
    phone: call?.contact.phone ?? null,
    occurred_at: call?.started_at ?? submitted.submitted_at,
    input: {
      language: completed.language,
      purpose,
      segments: completed.transcript,
      // A call records when its recording was on; a standalone job was recorded when it came as audio, unless its
      // metadata says otherwise (`recorded: false`).
      recorded: call ? call.recording_enabled : typeof metadata.recorded === 'boolean' ? metadata.recorded : submitted.audio_url !== null,
      agentSentiment: typeof agentSentiment === 'number' ? agentSentiment : null,
      lenderName: text(variables.lender_name) ?? text(variables.lender),
      agentName: text(variables.agent_name),
    },
  };
}

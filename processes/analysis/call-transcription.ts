import type { Runtime } from '../../composition.ts';
import { callDecider, callStream, type CallPlaced, type CallTurn } from '../../domain/call.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptSegment } from '../../domain/transcription-job.ts';
import { deterministicId } from '../../infra/ids.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import type { ProcessManager } from '../process-manager.ts';

export const CALL_TRANSCRIPTION = 'call-transcription';

/** What every connected call is analysed for. */
export const CALL_JOB_FEATURES = ['transcription', 'summary', 'sentiment', 'intent'] as const;

/** A connected call's job id, known before the job exists (so `call.completed` can name it). */
export function callTranscriptJobId(callId: string): string {
  return deterministicId('job', callId);
}

/**
 * Every answered call gets a transcription job (`transcript_job_id` on the call). Its transcript is the
 * conversation the engine recorded live, not a second recognition of the recording: the agent's lines are the
 * text that was spoken, the customer's turns the text that was recognised (or, in the sandbox, said). Keypad
 * presses and silent turns are not speech and are left out. The same analysis features then run as for any
 * job; the disposition the call ended with goes into the summary.
 *
 * Replays are harmless: the job id is derived from the call id, so the job refuses a second submission and the
 * call a second assignment.
 */
export function createCallTranscription(runtime: Runtime): ProcessManager {
  return {
    name: CALL_TRANSCRIPTION,
    eventTypes: ['CallEnded'],
    async handle(event: RecordedEvent) {
      if (event.data.answered !== true) return;
      const callId = event.stream.slice('call-'.length);
      const events = await runtime.store.readStream(callStream(callId));
      const placed = events.find((candidate) => candidate.type === 'CallPlaced') as unknown as CallPlaced | undefined;
      if (placed === undefined) return;
      const turns = events.filter((candidate) => candidate.type === 'CallConversationRecorded').flatMap((candidate) => (candidate.data as { turns: CallTurn[] }).turns);
      const jobId = callTranscriptJobId(callId);
      const workspaceId = placed.data.workspace_id;
      const context = { workspaceId, actor: CALL_TRANSCRIPTION, now: runtime.clock.now(), correlationId: event.metadata.correlation_id, causationId: event.id };
      try {
        await runtime.commands.handle(
          transcriptionJobDecider,
          transcriptionJobStream(jobId),
          {
            type: 'SubmitTranscriptionJob',
            data: {
              job_id: jobId,
              workspace_id: workspaceId,
              audio_url: null,
              transcript: transcriptOf(turns),
              language: placed.data.language,
              speakers: 2,
              features: CALL_JOB_FEATURES,
              qa_scorecard_id: null,
              qa_scorecard: null,
              metadata: null,
              call_id: callId,
              disposition: (event.data.disposition as string | undefined) ?? null,
              submitted_at: context.now.toISOString(),
            },
          },
          context,
        );
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'already_exists')) throw error;
      }
      try {
        await runtime.commands.handle(callDecider, callStream(callId), { type: 'AssignCallTranscriptJob', data: { job_id: jobId } }, context);
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'already_exists')) throw error;
      }
    },
  };
}

export function transcriptOf(turns: readonly CallTurn[]): TranscriptSegment[] {
  return turns
    .filter((turn) => turn.dtmf === undefined && turn.text.trim() !== '')
    .map((turn) => ({
      speaker: turn.speaker,
      text: turn.text.trim(),
      start_time: round(turn.start_seconds),
      end_time: round(turn.end_seconds),
      // The agent's words are known exactly; what the customer said is only as sure as the recogniser was.
      ...(turn.speaker === 'agent' ? { confidence: 1 } : {}),
    }));
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

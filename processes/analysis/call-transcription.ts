import type { Commands } from '../../commands/handler.ts';
import { callDecider, callIdOf, callStream, callTranscriptJobId, conversationOf, type CallEnded, type CallTurn } from '../../domain/call.ts';
import { transcriptionJobDecider, transcriptionJobStream, type PinnedScorecard, type TranscriptSegment } from '../../domain/transcription-job.ts';
import { qaScorecardDecider, qaScorecardStream } from '../../domain/qa-scorecard.ts';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { EventStore, Recorded } from '../../infra/eventstore/port.ts';
import type { ProcessManager } from '../process-manager.ts';

export const CALL_TRANSCRIPTION = 'call-transcription';

/** What every connected call is analysed for; `qa_scoring` too when a scorecard applies. */
export const CALL_JOB_FEATURES = ['transcription', 'summary', 'sentiment', 'intent'] as const;

/**
 * The scorecard a connected call is scored against: the call's own (POST /v1/calls, or its campaign's, copied onto
 * the call when placed), else the workspace's default as it is when the call ends. Pinned on the job like any
 * submission's, so later edits do not change a queued job; one deleted since the call was placed scores nothing.
 */
async function applicableScorecard(commands: Commands, workspaceId: string, callScorecardId: string | null | undefined): Promise<PinnedScorecard | null> {
  let scorecardId = callScorecardId ?? null;
  if (scorecardId === null) {
    const { state: workspace } = await commands.load(workspaceDecider, workspaceStream(workspaceId));
    scorecardId = workspace.defaultQaScorecardId;
  }
  if (scorecardId === null) return null;
  const { state } = await commands.load(qaScorecardDecider, qaScorecardStream(scorecardId));
  if (state.status !== 'active' || state.workspaceId !== workspaceId || state.definition === null) return null;
  return { scorecard_id: scorecardId, version: state.version, definition: state.definition as unknown as Record<string, unknown> };
}

/**
 * Every answered call gets a transcription job (`transcript_job_id` on the call; its id is `callTranscriptJobId`).
 * Its transcript is the conversation the engine recorded live, not a second recognition of the recording: the
 * agent's lines are the text that was spoken, the customer's turns the text that was recognised (or, in the
 * sandbox, said). Keypad presses and silent turns are not speech and are left out. The same analysis features then
 * run as for any job; the disposition the call ended with goes into the summary.
 *
 * Replays are harmless: the job id is derived from the call id, so the job refuses a second submission and the
 * call a second assignment (both `already_exists`).
 */
export function createCallTranscription({ commands, clock, store }: { commands: Commands; clock: Clock; store: Pick<EventStore, 'readStream'> }): ProcessManager<CallEnded> {
  return {
    name: CALL_TRANSCRIPTION,
    eventTypes: ['CallEnded'],
    async handle(event: Recorded<CallEnded>) {
      if (!event.data.answered) return;
      const callId = callIdOf(event.stream);
      const { state: call } = await commands.load(callDecider, callStream(callId));
      const placed = call.placed;
      if (placed === null) return;
      const conversation = conversationOf(await store.readStream(callStream(callId)));
      const jobId = callTranscriptJobId(callId);
      const workspaceId = placed.workspace_id;
      const scorecard = await applicableScorecard(commands, workspaceId, placed.qa_scorecard_id);
      const context = { workspaceId, actor: CALL_TRANSCRIPTION, now: clock.now(), correlationId: event.metadata.correlation_id, causationId: event.id };
      await commands.handle(
        transcriptionJobDecider,
        transcriptionJobStream(jobId),
        {
          type: 'SubmitTranscriptionJob',
          data: {
            job_id: jobId,
            workspace_id: workspaceId,
            audio_url: null,
            transcript: transcriptOf(conversation),
            language: placed.language,
            speakers: 2,
            features: scorecard ? [...CALL_JOB_FEATURES, 'qa_scoring'] : CALL_JOB_FEATURES,
            qa_scorecard_id: scorecard?.scorecard_id ?? null,
            qa_scorecard: scorecard,
            metadata: null,
            call_id: callId,
            disposition: event.data.disposition,
            submitted_at: context.now.toISOString(),
          },
        },
        context,
        { tolerate: ['already_exists'] },
      );
      await commands.handle(callDecider, callStream(callId), { type: 'AssignCallTranscriptJob', data: { job_id: jobId } }, context, { tolerate: ['already_exists'] });
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
      // The agent's words are known exactly; what the customer said is as sure as the recogniser was (the sandbox's
      // simulated customer, whose words are given, and turns recorded before confidences were kept: exact).
      confidence: turn.speaker === 'agent' ? 1 : (turn.confidence ?? 1),
    }));
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

import type { FailCall, RecordCallResult } from '../../domain/call.ts';
import { callCommandFor, type ConversationResult } from './conversation-result.ts';

export interface CallTimeline {
  /** The call's ending, timed on the clock. */
  command: RecordCallResult | FailCall;
  /** When the call ends on the clock: its ending is recorded then, not before. */
  endsAt: Date;
}

/**
 * Where a finished conversation sits on the clock. Dialing began when the call runner claimed the call (after it
 * was placed), and each second of the conversation's own timeline takes `timeScale` seconds of clock: 1 on a real
 * line, where the conversation has just ended; 1 / SANDBOX_SPEED in the sandbox, which simulates the whole call at
 * once, so its answer and end lie ahead of the clock and the call stays in progress until `endsAt` (the runner holds
 * the ending and records it on a durable timer). Durations (`duration_seconds`, the recording) stay those of the
 * conversation; only the instants are scaled.
 */
export function planCallResult(result: ConversationResult, dialingStartedAt: Date, timeScale: number): CallTimeline {
  const command = callCommandFor(result, dialingStartedAt, timeScale);
  const endsAt = new Date(dialingStartedAt.getTime() + Math.round((result.ringSeconds + result.talkSeconds) * 1000 * timeScale));
  return { command: { ...command, data: { ...command.data, started_at: dialingStartedAt.toISOString() } } as RecordCallResult | FailCall, endsAt };
}

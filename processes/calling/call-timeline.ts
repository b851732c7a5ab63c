import type { FailCall, RecordCallResult } from '../../domain/call.ts';
import { callCommandFor, type ConversationResult } from './conversation-result.ts';

/**
 * Where a finished conversation sits on the clock. A carrier that runs in real time ends a call when the clock
 * says so. The sandbox runs a whole call the moment it is placed (a campaign of a thousand contacts finishes in
 * seconds), so its timeline is laid back from the instant the result is recorded: the call ends `now`, was
 * answered `talk` seconds before, and began dialing `ring` seconds before that. Durations stay those of the
 * audio, and no timestamp lies ahead of the clock (with CLOCK=manual the clock does not move while calls run).
 * The timeline's start then differs from CallPlaced's `started_at` (the moment the call was requested) and is
 * carried on the end event.
 */
export function callResultCommand(result: ConversationResult, endedAt: Date): RecordCallResult | FailCall {
  const lengthMs = Math.round((result.ringSeconds + result.talkSeconds) * 1000);
  const startedAt = new Date(endedAt.getTime() - lengthMs);
  const command = callCommandFor(result, startedAt);
  return { ...command, data: { ...command.data, started_at: startedAt.toISOString() } } as RecordCallResult | FailCall;
}

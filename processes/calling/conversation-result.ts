import type { AttemptOutcome } from '../../domain/campaign.ts';
import type { AnsweredBy, CallTurn, FailCall, RecordCallResult } from '../../domain/call.ts';
import type { Disposition } from '../../domain/shared/disposition.ts';
import type { DialOutcome } from '../../infra/telephony/port.ts';

/**
 * What one run of the conversation engine produced, on the call's own timeline (seconds), and its translation
 * into the commands the dialer issues (the call's RecordCallResult or FailCall, the campaign contact's outcome).
 */
export interface ConversationResult {
  callId: string;
  outcome: DialOutcome;
  answered: boolean;
  /** Seconds from dialing to answer, or to giving up when not answered. */
  ringSeconds: number;
  /** Seconds from answer to hang-up (exact); 0 when not answered. */
  talkSeconds: number;
  /** The spec's duration_seconds: whole seconds from answer to end; 0 when not connected. */
  durationSeconds: number;
  turns: CallTurn[];
  /** `not_reachable` when the call was not answered or failed. */
  disposition: Disposition;
  escalation: { reason: 'customer_requested_agent'; atSeconds: number; summary: string } | null;
  /** The warm transfer to the escalation's agent (seconds from answer); null when none was made. */
  transfer: { agentId: string; dialledAtSeconds: number; agentAnsweredAtSeconds: number | null } | null;
  /** Set when the carrier could not carry the call (status `failed`). */
  failure: { reason: 'invalid_number' | 'carrier_error'; detail: string } | null;
  customerHungUp: boolean;
  /** The stereo WAV (agent left, customer right) when recording was on and the call was answered. */
  recording: { wav: Buffer; durationSeconds: number; sampleRate: number } | null;
  /** Answering-machine detection's verdict on an answered call; null when it did not run. */
  answeredBy: AnsweredBy | null;
}

/**
 * When things happened, given the instant dialing began and the clock seconds one second of the call takes
 * (`timeScale`, see Telephony).
 */
export function conversationTimes(result: ConversationResult, startedAt: Date, timeScale = 1) {
  const at = (seconds: number) => new Date(startedAt.getTime() + Math.round(seconds * 1000 * timeScale)).toISOString();
  return {
    answeredAt: result.answered ? at(result.ringSeconds) : null,
    endedAt: at(result.ringSeconds + result.talkSeconds),
    escalatedAt: result.escalation ? at(result.ringSeconds + result.escalation.atSeconds) : null,
    transferredAt: result.transfer ? at(result.ringSeconds + result.transfer.dialledAtSeconds) : null,
    agentAnsweredAt: result.transfer?.agentAnsweredAtSeconds == null ? null : at(result.ringSeconds + result.transfer.agentAnsweredAtSeconds),
  };
}

/** The call aggregate's command for a finished run. */
export function callCommandFor(result: ConversationResult, startedAt: Date, timeScale = 1): RecordCallResult | FailCall {
  const times = conversationTimes(result, startedAt, timeScale);
  if (result.failure) {
    return { type: 'FailCall', data: { reason: result.failure.reason, detail: result.failure.detail, ended_at: times.endedAt } };
  }
  return {
    type: 'RecordCallResult',
    data: {
      answered_at: times.answeredAt,
      turns: result.turns,
      escalation: result.escalation
        ? { reason: result.escalation.reason, escalated_at: times.escalatedAt!, summary: result.escalation.summary }
        : null,
      disposition: result.disposition,
      duration_seconds: result.durationSeconds,
      ended_at: times.endedAt,
      ...(result.answeredBy === null ? {} : { answered_by: result.answeredBy }),
      ...(result.transfer === null ? {} : { transfer: { agent_id: result.transfer.agentId, transferred_at: times.transferredAt!, agent_answered_at: times.agentAnsweredAt } }),
    },
  };
}

/** The campaign contact's attempt outcome for a finished run. */
export function attemptOutcomeOf(result: ConversationResult): AttemptOutcome {
  // A machine's answer reached nobody: retried like a call nobody answered.
  if (result.answeredBy === 'machine') return 'no_answer';
  return result.outcome === 'answered' ? 'connected' : result.outcome;
}

const SUMMARY_QUOTE_LENGTH = 80;

/** One line for `call.escalated`: where the conversation was when the customer asked for a person. */
export function escalationSummary(turns: readonly CallTurn[]): string {
  const exchanges = turns.filter((turn) => turn.speaker === 'customer').length;
  const lastAgent = [...turns].reverse().find((turn) => turn.speaker === 'agent');
  const lastCustomer = [...turns].reverse().find((turn) => turn.speaker === 'customer');
  const parts = [`Customer asked for a human agent after ${exchanges} ${exchanges === 1 ? 'reply' : 'replies'}`];
  if (lastAgent) parts.push(`agent: "${quote(lastAgent.text)}"`);
  if (lastCustomer) parts.push(`customer: "${quote(lastCustomer.text)}"`);
  return `${parts.join('; ')}.`;
}

function quote(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= SUMMARY_QUOTE_LENGTH ? oneLine : `${oneLine.slice(0, SUMMARY_QUOTE_LENGTH - 1)}…`;
}

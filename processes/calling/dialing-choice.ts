import type { PlaceCall } from '../../domain/call.ts';
import type { PreDialDecision } from '../../domain/compliance/pre-dial-rules.ts';
import {
  attemptCallId,
  contactTemplateValues,
  isWithinCallingHours,
  nextCallingTime,
  nextPendingContacts,
  statusAt,
  type BlockContactAttempt,
  type CampaignState,
  type DialableContact,
  type DueAttempt,
  type StartContactAttempt,
  type SuppressContact,
} from '../../domain/campaign.ts';

/**
 * The dialer's choices, as pure functions of the campaign's state, the retries whose timers fired and the time
 * (tested given/when/then in tests/processes/calling/dialing-choice.test.ts); the Dialer does the I/O around them.
 */

/** A running campaign as the dialer tracks it between events. */
export interface DialingCursor {
  /** Retries whose timer fired: contact index → attempt, in firing order. */
  dueRetries: ReadonlyMap<number, number>;
  /** Calling hours are closed until this instant (ms since epoch); a timer wakes the campaign up. */
  closedUntil: number | null;
}

export type DialingChoice =
  /** The campaign is no longer running (paused, stopped, completed since the dialer last looked). */
  | { kind: 'stop' }
  /** Outside the campaign's calling hours: nothing is placed before `opensAt`. */
  | { kind: 'closed'; opensAt: Date }
  /** Nothing to dial now: every contact is on a call, awaiting a retry not yet due, or final. */
  | { kind: 'idle' }
  /** Dial this attempt of this contact, under its call id (derived, so a replay reserves the same attempt). */
  | { kind: 'dial'; attempt: DueAttempt; callId: string };

/**
 * What to do next for a campaign: nothing while its calling hours are closed; otherwise the first due retry whose
 * contact still awaits exactly that attempt (retries fired for contacts that moved on are spent), else the next
 * never-dialed contact in index order. `spentRetries` are the due retries this choice used up or found stale.
 */
export function chooseNextDial(state: CampaignState, cursor: DialingCursor, now: Date): { choice: DialingChoice; spentRetries: number[] } {
  const spentRetries: number[] = [];
  if (state.status !== 'running') return { choice: { kind: 'stop' }, spentRetries };
  if (state.calling_hours !== null && !isWithinCallingHours(now, state.calling_hours, state.timezone)) {
    return { choice: { kind: 'closed', opensAt: nextCallingTime(now, state.calling_hours, state.timezone) }, spentRetries };
  }
  for (const [index, attempt] of cursor.dueRetries) {
    spentRetries.push(index);
    if (index < 0 || index >= state.total_contacts || statusAt(state.contacts, index) !== 'awaiting_retry') continue;
    if (state.contacts.attempts[index]! + 1 !== attempt) continue;
    const dueAt = state.retries.get(index);
    if (dueAt === undefined || Date.parse(dueAt) > now.getTime()) continue;
    return { choice: dial(state, { contact_index: index, attempt }), spentRetries };
  }
  const next = nextPendingContacts(state, 1)[0];
  return { choice: next ? dial(state, next) : { kind: 'idle' }, spentRetries };
}

function dial(state: CampaignState, attempt: DueAttempt): DialingChoice {
  return { kind: 'dial', attempt, callId: attemptCallId(state.campaign_id, attempt.contact_index, attempt.attempt) };
}

/** A contact whose number is on the do-not-call list: final `dnd` without a call. */
export function suppressContactCommand(contact: DueAttempt, now: Date): SuppressContact {
  return { type: 'SuppressContact', data: { contact_index: contact.contact_index, at: now.toISOString() } };
}

/** A pre-dial compliance rule's refusal of the attempt, recorded on the campaign (never a silent drop). */
export function blockAttemptCommand(contact: DueAttempt, blocked: PreDialDecision, now: Date): BlockContactAttempt {
  return {
    type: 'BlockContactAttempt',
    data: {
      contact_index: contact.contact_index,
      attempt: contact.attempt,
      rule_id: blocked.rule_id,
      check: blocked.check,
      severity: blocked.severity,
      rule_pack: blocked.rule_pack,
      reason: blocked.reason,
      resumes_at: blocked.outcome === 'wait' ? blocked.until.toISOString() : null,
      blocked_at: now.toISOString(),
    },
  };
}

/** Reserving the attempt on the campaign before its call is placed (a second reservation is refused). */
export function reserveAttemptCommand(contact: DueAttempt, callId: string, now: Date): StartContactAttempt {
  return { type: 'StartContactAttempt', data: { contact_index: contact.contact_index, attempt: contact.attempt, call_id: callId, at: now.toISOString() } };
}

/** The call of a reserved attempt, with the campaign's language, pinned script version and recording setting. */
export function placeCampaignCallCommand(state: CampaignState, contact: DialableContact, callId: string, now: Date, suppressed: boolean): PlaceCall {
  return {
    type: 'PlaceCall',
    facts: { suppressed, script: null },
    data: {
      call_id: callId,
      workspace_id: state.workspace_id,
      campaign_id: state.campaign_id,
      contact_index: contact.contact_index,
      attempt: contact.attempt,
      contact: { phone: contact.phone, name: contact.name },
      language: state.language,
      script_id: state.script_id,
      script_version: state.script_version,
      variables: contactTemplateValues(contact),
      recording_enabled: state.recording_enabled,
      qa_scorecard_id: state.qa_scorecard_id,
      purpose: state.purpose,
      caller_id: state.caller_id,
      voicemail: state.voicemail,
      started_at: now.toISOString(),
    },
  };
}

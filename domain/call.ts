import { CALL_PURPOSE_DESCRIPTION, isCallPurpose } from './compliance/contact-fields.ts';
import type { PreDialDecision } from './compliance/pre-dial-rules.ts';
import type { CallPurpose } from './compliance/rule.ts';
import type { VoicemailAction } from './campaign/types.ts';
import { contactTemplateValues } from './campaign/queries.ts';
import { isEventOfType, type Decider, type DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState, notFound } from './shared/errors.ts';
import { isDisposition, type Disposition } from './shared/disposition.ts';
import { E164_DESCRIPTION, isE164 } from './shared/phone.ts';
import { BCP47_DESCRIPTION, isBcp47Shape, isSupportedLanguage, SUPPORTED_LANGUAGES_DESCRIPTION, type SupportedLanguage } from './shared/language.ts';
import { deterministicId } from './shared/deterministic-id.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A call (stream `call-<id>`, id `cal_...`): one dial attempt, of a campaign contact or a single call.
 * in_progress → completed (it ended, answered or not) or failed (the carrier could not carry it). Lifecycle events
 * after a final state are refused; the recording and the transcript job are attached after the end.
 */
export type CallStatus = 'in_progress' | 'completed' | 'failed';

/**
 * `interrupted`: our side died mid-call (process crash), found by the dialer's recovery on restart.
 * `number_suppressed`: the number went on the do-not-call list between placement and dialing; it was not dialed.
 */
export type CallFailureReason = 'invalid_number' | 'carrier_error' | 'interrupted' | 'number_suppressed';

export type EscalationReason = 'customer_requested_agent';

export interface CallContact {
  phone: string;
  name: string;
}

/** One utterance, timed in seconds from the moment the call was answered (= the recording's start). */
export interface CallTurn {
  speaker: 'agent' | 'customer';
  text: string;
  start_seconds: number;
  end_seconds: number;
  /** The script step that spoke or listened. */
  step_id?: string;
  /** For customer turns: what the reply was understood as (null: not understood). */
  intent?: string | null;
  /** For customer turns made on the keypad. */
  dtmf?: string;
  /**
   * For customer speech: how sure the recogniser was (0 to 1); 1 when the carrier knew the words (the sandbox).
   * Absent in turns recorded before it was kept (all from the sandbox, hence exact).
   */
  confidence?: number;
}

export interface CallEscalation {
  reason: EscalationReason;
  escalated_at: string;
  /** One line: what was said before the customer asked for a person. */
  summary: string;
  /**
   * The human agent the call goes to, chosen by the caller (the call runner: an available agent who speaks the
   * call's language, least recently assigned first); null with `unassigned_reason` when nobody could take it.
   */
  agent_id?: string | null;
  unassigned_reason?: UnassignedReason | null;
}

/**
 * A warm transfer of an escalated call (docs/telephony.md, "Warm transfer"): the second leg dialled to the
 * escalation's agent at `transferred_at`; `agent_answered_at` when the agent picked up (null: not within the
 * transfer's answer limit, the customer heard the fallback and the call ends `callback`).
 */
export interface CallTransfer {
  agent_id: string;
  transferred_at: string;
  agent_answered_at: string | null;
}

/** Why an escalated call has no human agent: nobody available speaks its language. */
export type UnassignedReason = 'no_available_agent';

// ---------------------------------------------------------------------------------------------------- commands

/**
 * What the caller looked up just before placing the call: facts from outside the call's stream, on which the
 * decider bases its refusals (the route and the dialer gather them; neither decides).
 */
export interface PlaceCallFacts {
  /** The number is on the workspace's do-not-call list (the suppression list as just loaded). */
  suppressed: boolean;
  /**
   * For a single call: the script version found in the workspace (null: no such script, or deleted). A campaign
   * call runs the version its campaign pinned and checked at creation, and carries null.
   */
  script: ScriptFacts | null;
  /** With `agent_id`: whether that agent exists in the workspace. */
  agent_found?: boolean;
  /** With `qa_scorecard_id`: whether that scorecard exists in the workspace. */
  scorecard_found?: boolean;
  /**
   * For a single call: the pre-dial compliance rules' refusal, if any (decidePreDial, asked by the route with the
   * workspace's packs); a campaign's calls are asked by the dialer before it reserves the attempt.
   */
  compliance?: PreDialDecision | null;
}

/** What placing a call needs to know of its script's current version. */
export interface ScriptFacts {
  version: number;
  single_call_enabled: boolean;
  /** Every `{variable}` the script's steps use. */
  variables: readonly string[];
}

/** A single call's custom variables (the API's `metadata`): at most this many keys. */
export const MAX_SINGLE_CALL_VARIABLES = 50;

/** A call as placed: which contact, in which language, with which script version and variables. */
export interface CallPlacement {
    call_id: string;
    workspace_id: string;
    campaign_id: string | null;
    /** Which contact and attempt of the campaign (null for a single call). */
    contact_index: number | null;
    attempt: number | null;
    contact: CallContact;
    language: SupportedLanguage;
    script_id: string;
    script_version: number;
    variables: Record<string, unknown>;
    recording_enabled: boolean;
    started_at: string;
    /** A manually dialed call: the human agent placing it (absent or null: the voice agent). */
    agent_id?: string | null;
    /** The QA scorecard the call's transcript is scored against (absent or null: the campaign's or workspace's). */
    qa_scorecard_id?: string | null;
    /** Why the call is made (issue 14): its campaign's purpose, or the single call's (default `service`). */
    purpose?: CallPurpose;
    /**
     * E.164 caller id the customer sees (From / P-Asserted-Identity on a SIP trunk): the single call's or its
     * campaign's `caller_id`; absent or null: the carrier's default (SIP_CALLER_ID).
     */
    caller_id?: string | null;
    /** What to do when a machine answers (its campaign's `voicemail`); absent: hang up. */
    voicemail?: VoicemailAction;
}

export interface PlaceCall {
  type: 'PlaceCall';
  facts: PlaceCallFacts;
  /** As requested: the language is checked by the decider (the event carries a supported one). */
  data: Omit<CallPlacement, 'language'> & { language: string };
}
/**
 * The call runner claims the call just before it dials: a call found after a restart with this marker but no end
 * may have rung the customer's phone already, so recovery fails it as `interrupted` instead of dialing again.
 */
export interface RecordCallDialingStarted {
  type: 'RecordCallDialingStarted';
  /**
   * Whether the number is on the do-not-call list right now, looked up by the runner just before it dials: the
   * last moment a suppression can still stop the call (absent: not looked up, taken as not suppressed).
   */
  facts?: { suppressed: boolean };
  data: { at: string };
}
export interface RecordCallAnswered {
  type: 'RecordCallAnswered';
  data: { answered_at: string };
}
export interface RecordCallConversation {
  type: 'RecordCallConversation';
  data: { turns: CallTurn[] };
}
export interface EscalateCall {
  type: 'EscalateCall';
  data: CallEscalation;
}
/** Not answered (no answer, busy): disposition `not_reachable`, duration 0. */
export interface EndCall {
  type: 'EndCall';
  data: { disposition: Disposition; duration_seconds: number; ended_at: string };
}
export interface FailCall {
  type: 'FailCall';
  data: { reason: CallFailureReason; detail?: string; ended_at: string; started_at?: string };
}
/** Where a call's recording was stored (the blob `recordings/<call_id>.wav`). */
export interface CallRecording {
  blob_key: string;
  duration_seconds: number;
  content_type: string;
}
/**
 * Everything a finished conversation produced, in one command and one append (answered, turns, escalation,
 * end): the fast path of the dialer. A carrier that reports progressively uses the single commands instead.
 */
export interface RecordCallResult {
  type: 'RecordCallResult';
  data: {
    answered_at: string | null;
    turns: CallTurn[];
    escalation: CallEscalation | null;
    disposition: Disposition;
    duration_seconds: number;
    ended_at: string;
    /**
     * When dialing began on the call's own timeline, when it differs from CallPlaced's `started_at`: the sandbox
     * runs a call the moment it is placed and lays its timeline back from the instant the result is recorded, so
     * that `ended_at` never lies ahead of the clock (docs/calling.md, "Time").
     */
    started_at?: string;
    /** The stored recording, appended with the end (CallRecordingStored) so that `call.completed` sees it. */
    recording?: CallRecording | null;
    /** Answering-machine detection's verdict on an answered call (absent or null: not detected, e.g. the sandbox). */
    answered_by?: AnsweredBy | null;
    /** The warm transfer to the escalation's agent, when the carrier made one (absent or null: none). */
    transfer?: CallTransfer | null;
  };
}

/** Who answered, by answering-machine detection: `unknown` when nothing was said within its budget. */
export const ANSWERED_BY = ['human', 'machine', 'unknown'] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];
/**
 * The carrier knows how the call goes before the clock gets there (the sandbox simulates a whole call the moment it
 * is dialed): its ending is kept until `due_at`, and the call stays in progress until then. The call runner records
 * `command` when a durable timer fires at `due_at`.
 */
export interface HoldCallResult {
  type: 'HoldCallResult';
  data: { command: RecordCallResult | FailCall; due_at: string };
}
export interface StoreCallRecording {
  type: 'StoreCallRecording';
  data: { blob_key: string; duration_seconds: number; content_type: string };
}
export interface AssignCallTranscriptJob {
  type: 'AssignCallTranscriptJob';
  data: { job_id: string };
}

export type CallCommand =
  | PlaceCall
  | RecordCallDialingStarted
  | RecordCallAnswered
  | RecordCallConversation
  | EscalateCall
  | EndCall
  | FailCall
  | RecordCallResult
  | HoldCallResult
  | StoreCallRecording
  | AssignCallTranscriptJob;

// ------------------------------------------------------------------------------------------------------ events

export type CallPlaced = DomainEvent<'CallPlaced', CallPlacement>;
export type CallDialingStarted = DomainEvent<'CallDialingStarted', { dialing_started_at: string }>;
export type CallAnswered = DomainEvent<'CallAnswered', { answered_at: string }>;
export type CallConversationRecorded = DomainEvent<'CallConversationRecorded', { turns: CallTurn[] }>;
export type CallEscalated = DomainEvent<
  'CallEscalated',
  { escalation_reason: EscalationReason; escalated_at: string; summary: string; agent_id: string | null; unassigned_reason: UnassignedReason | null }
>;
export type CallTransferred = DomainEvent<'CallTransferred', CallTransfer>;
export type CallEnded = DomainEvent<
  'CallEnded',
  {
    status: 'completed';
    answered: boolean;
    disposition: Disposition;
    duration_seconds: number;
    ended_at: string;
    /** Present when the call's timeline start differs from CallPlaced's started_at (the sandbox; see RecordCallResult). */
    started_at?: string;
    /** Present when answering-machine detection ran on the answered call. */
    answered_by?: AnsweredBy;
  }
>;
/** The call record of a failed call carries disposition `not_reachable`, like the contact it was for. */
export type CallFailed = DomainEvent<
  'CallFailed',
  {
    status: 'failed';
    reason: CallFailureReason;
    detail: string | null;
    disposition: 'not_reachable';
    duration_seconds: number;
    ended_at: string;
    started_at?: string;
  }
>;
export type CallResultHeld = DomainEvent<'CallResultHeld', HoldCallResult['data']>;
export type CallRecordingStored = DomainEvent<'CallRecordingStored', { blob_key: string; duration_seconds: number; content_type: string }>;
export type CallTranscriptJobAssigned = DomainEvent<'CallTranscriptJobAssigned', { job_id: string }>;

export type CallEvent =
  | CallPlaced
  | CallDialingStarted
  | CallAnswered
  | CallConversationRecorded
  | CallEscalated
  | CallTransferred
  | CallEnded
  | CallFailed
  | CallResultHeld
  | CallRecordingStored
  | CallTranscriptJobAssigned;

// ------------------------------------------------------------------------------------------------------- state

export interface CallState {
  /** null until CallPlaced. */
  status: CallStatus | null;
  placed: CallPlacement | null;
  /** Set by the call runner's claim (CallDialingStarted). */
  dialing_started_at: string | null;
  answered_at: string | null;
  turns: number;
  escalated: boolean;
  /** The escalation's agent (null: unassigned, or not escalated). */
  escalation_agent_id: string | null;
  /** The warm transfer, once recorded. */
  transfer: CallTransfer | null;
  disposition: Disposition | null;
  /** Why a failed call failed (whether its contact may be retried depends on it). */
  failure_reason: CallFailureReason | null;
  duration_seconds: number;
  ended_at: string | null;
  recording_blob_key: string | null;
  transcript_job_id: string | null;
  /** An ending known ahead of the clock (HoldCallResult), recorded when due. */
  held: HoldCallResult['data'] | null;
}

export function initialCallState(): CallState {
  return {
    status: null,
    placed: null,
    dialing_started_at: null,
    answered_at: null,
    turns: 0,
    escalated: false,
    escalation_agent_id: null,
    transfer: null,
    disposition: null,
    failure_reason: null,
    duration_seconds: 0,
    ended_at: null,
    recording_blob_key: null,
    transcript_job_id: null,
    held: null,
  };
}

export function evolveCall(state: CallState, event: CallEvent): CallState {
  switch (event.type) {
    case 'CallPlaced':
      return { ...state, status: 'in_progress', placed: event.data };
    case 'CallDialingStarted':
      return { ...state, dialing_started_at: event.data.dialing_started_at };
    case 'CallAnswered':
      return { ...state, answered_at: event.data.answered_at };
    case 'CallConversationRecorded':
      return { ...state, turns: state.turns + event.data.turns.length };
    case 'CallEscalated':
      return { ...state, escalated: true, escalation_agent_id: event.data.agent_id };
    case 'CallTransferred':
      return { ...state, transfer: event.data };
    case 'CallEnded':
    case 'CallFailed':
      return {
        ...state,
        status: event.data.status,
        disposition: event.data.disposition,
        duration_seconds: event.data.duration_seconds,
        ended_at: event.data.ended_at,
        failure_reason: event.type === 'CallFailed' ? event.data.reason : null,
      };
    case 'CallResultHeld':
      return { ...state, held: event.data };
    case 'CallRecordingStored':
      return { ...state, recording_blob_key: event.data.blob_key };
    case 'CallTranscriptJobAssigned':
      return { ...state, transcript_job_id: event.data.job_id };
  }
}

export function decideCall(command: CallCommand, state: CallState): CallEvent[] {
  if (command.type === 'PlaceCall') {
    if (state.status !== null) throw alreadyDone('The call was already placed.', { call_id: command.data.call_id });
    const language = checkPlacement(command);
    const { data } = command;
    // A single call's variables are the API's metadata; its prompts also say the contact's name and phone, as a
    // campaign's do (contactTemplateValues): `{name}` in the script is the name the call was placed for.
    const variables = data.campaign_id === null ? contactTemplateValues({ name: data.contact.name, phone: data.contact.phone, variables: data.variables }) : data.variables;
    return [{ type: 'CallPlaced', data: { ...data, language, variables } }];
  }
  if (state.status === null) throw new DomainError('resource_not_found', 'No such call.', { resource_type: 'call' });
  switch (command.type) {
    case 'RecordCallDialingStarted':
      // Checked before the status: a runner that claims a call already dialed learns "already done" either way.
      if (state.dialing_started_at !== null) throw alreadyDone('Dialing of the call already started.', { dialing_started_at: state.dialing_started_at });
      requireInProgress(state);
      // Suppressed since it was placed: the call ends here, undialed.
      if (command.facts?.suppressed) return [failed({ reason: 'number_suppressed', detail: 'the number went on the do-not-call list before it was dialed', ended_at: command.data.at })];
      return [{ type: 'CallDialingStarted', data: { dialing_started_at: command.data.at } }];
    case 'RecordCallAnswered':
      requireInProgress(state);
      if (state.answered_at !== null) throw alreadyDone('The call was already answered.', {});
      return [{ type: 'CallAnswered', data: command.data }];
    case 'RecordCallConversation':
      requireInProgress(state);
      if (state.answered_at === null) throw invalidState('Turns need an answered call.', {});
      checkTurns(command.data.turns);
      return [{ type: 'CallConversationRecorded', data: command.data }];
    case 'EscalateCall':
      requireInProgress(state);
      if (state.answered_at === null) throw invalidState('Only an answered call can be escalated.', {});
      if (state.escalated) throw alreadyDone('The call was already escalated.', {});
      return [escalated(command.data)];
    case 'EndCall':
      requireInProgress(state);
      return [ended(state.answered_at !== null, state.escalated, command.data, state.transfer)];
    case 'FailCall':
      requireInProgress(state);
      return [failed(command.data)];
    case 'RecordCallResult': {
      requireInProgress(state);
      const { answered_at, turns, escalation } = command.data;
      const answered = state.answered_at !== null || answered_at !== null;
      const events: CallEvent[] = [];
      if (answered_at !== null && state.answered_at === null) events.push({ type: 'CallAnswered', data: { answered_at } });
      if (turns.length > 0) {
        if (!answered) throw invalidState('Turns need an answered call.', {});
        checkTurns(turns);
        events.push({ type: 'CallConversationRecorded', data: { turns } });
      }
      if (escalation !== null && !state.escalated) {
        if (!answered) throw invalidState('Only an answered call can be escalated.', {});
        events.push(escalated(escalation));
      }
      const transfer = command.data.transfer ?? null;
      if (transfer !== null) {
        const escalatedNow = state.escalated ? { at: null, agentId: state.escalation_agent_id } : escalation === null ? null : { at: escalation.escalated_at, agentId: escalation.agent_id ?? null };
        events.push(transferred(transfer, escalatedNow, state.transfer, command.data.ended_at));
      }
      events.push(ended(answered, state.escalated || escalation !== null, command.data, transfer ?? state.transfer));
      const recording = command.data.recording ?? null;
      if (recording !== null) {
        if (!answered) throw invalidState('Only an answered call has a recording.', {});
        if (!state.placed!.recording_enabled) throw invalidState('Recording was not enabled for this call.', {});
        events.push({ type: 'CallRecordingStored', data: recording });
      }
      return events;
    }
    case 'HoldCallResult':
      requireInProgress(state);
      if (state.held !== null) throw alreadyDone('The call\'s ending is already held.', { due_at: state.held.due_at });
      if (state.dialing_started_at === null) throw invalidState('Only a call being dialed has an ending to hold.', {});
      // An ending that would be refused when it falls due is refused now, while the carrier's report is at hand
      // (and a value JSON cannot keep, such as a NaN duration, never reaches the event store).
      decideCall(command.data.command, state);
      return [{ type: 'CallResultHeld', data: command.data }];
    case 'StoreCallRecording':
      if (state.status !== 'completed' || state.answered_at === null) throw invalidState('Only a completed, answered call has a recording.', { status: state.status });
      if (!state.placed!.recording_enabled) throw invalidState('Recording was not enabled for this call.', {});
      if (state.recording_blob_key !== null) throw alreadyDone('The recording was already stored.', { blob_key: state.recording_blob_key });
      return [{ type: 'CallRecordingStored', data: command.data }];
    case 'AssignCallTranscriptJob':
      // The transcript is the conversation the engine recorded live (not the recording), so every answered call
      // gets one, recorded or not; an unanswered or failed call has nothing to transcribe.
      if (state.status !== 'completed' || state.answered_at === null) throw invalidState('Only a completed, answered call has a transcript.', { status: state.status });
      if (state.transcript_job_id === command.data.job_id) throw alreadyDone('The transcript job was already assigned.', { job_id: command.data.job_id });
      if (state.transcript_job_id !== null) throw invalidState('The call already has a transcript job.', { job_id: state.transcript_job_id });
      return [{ type: 'CallTranscriptJobAssigned', data: command.data }];
  }
}

/**
 * The rules of placing a call. A single call (no campaign) is checked like the API body it came from, in this
 * order: the contact, the language, the variables' count, the script (found, enabled for single calls, every
 * variable it uses given), and last the do-not-call list. Its variables are the API's `metadata`, and errors name
 * them so (`metadata.amount`). A campaign's call was checked when its campaign was created; only the do-not-call
 * list can have changed since.
 */
function checkPlacement({ data, facts }: PlaceCall): SupportedLanguage {
  const single = data.campaign_id === null;
  if (single) {
    if (!isE164(data.contact.phone)) throw invalidParameter('phone', data.contact.phone, E164_DESCRIPTION);
    if (typeof data.contact.name !== 'string' || data.contact.name.trim().length === 0) throw invalidParameter('name', data.contact.name, 'a non-empty string');
  }
  if (!isBcp47Shape(data.language)) throw invalidParameter('language', data.language, BCP47_DESCRIPTION);
  if (!isSupportedLanguage(data.language)) throw invalidParameter('language', data.language, SUPPORTED_LANGUAGES_DESCRIPTION);
  if (single) {
    if (Object.keys(data.variables).length > MAX_SINGLE_CALL_VARIABLES) {
      throw invalidParameter('metadata', data.variables, `an object of at most ${MAX_SINGLE_CALL_VARIABLES} keys`);
    }
    if (data.purpose !== undefined && !isCallPurpose(data.purpose)) throw invalidParameter('purpose', data.purpose, CALL_PURPOSE_DESCRIPTION);
    if (data.caller_id !== undefined && data.caller_id !== null && !isE164(data.caller_id)) throw invalidParameter('caller_id', data.caller_id, E164_DESCRIPTION);
    const script = facts.script;
    if (script === null) throw notFound('script', data.script_id);
    if (!script.single_call_enabled) {
      throw new DomainError('invalid_parameter', `Script ${data.script_id} is not enabled for single calls.`, {
        field: 'script_id',
        provided: data.script_id,
        expected: 'a script with single_call_enabled: true',
      });
    }
    for (const variable of script.variables) {
      if (variable === 'name' || variable === 'phone') continue;
      // Own keys only: a variable named `constructor` is not satisfied by Object.prototype.
      const value = Object.hasOwn(data.variables, variable) ? data.variables[variable] : undefined;
      if (value === undefined || value === null) {
        throw invalidParameter(`metadata.${variable}`, null, `a value for {${variable}}, which script ${data.script_id} uses`);
      }
    }
  }
  if (data.agent_id && !facts.agent_found) throw notFound('agent', data.agent_id);
  if (data.qa_scorecard_id && !facts.scorecard_found) throw notFound('qa_scorecard', data.qa_scorecard_id);
  if (facts.suppressed) {
    throw new DomainError('number_suppressed', `${data.contact.phone} is on the workspace's do-not-call list.`, { phone: data.contact.phone });
  }
  const blocked = facts.compliance;
  if (blocked) {
    throw new DomainError('compliance_blocked', `Compliance rule ${blocked.rule_id} blocks this call: ${blocked.reason}.`, {
      rule_id: blocked.rule_id,
      check: blocked.check,
      severity: blocked.severity,
      rule_pack: blocked.rule_pack,
      reason: blocked.reason,
      retry_after: blocked.outcome === 'wait' ? blocked.until.toISOString() : null,
    });
  }
  return data.language;
}

function failed(data: FailCall['data']): CallFailed {
  return {
    type: 'CallFailed',
    data: {
      status: 'failed',
      reason: data.reason,
      detail: data.detail ?? null,
      disposition: 'not_reachable',
      duration_seconds: 0,
      ended_at: data.ended_at,
      ...(data.started_at === undefined ? {} : { started_at: data.started_at }),
    },
  };
}

function requireInProgress(state: CallState): void {
  if (state.status !== 'in_progress') throw invalidState(`The call is ${state.status}.`, { status: state.status });
}

function escalated(escalation: CallEscalation): CallEscalated {
  return {
    type: 'CallEscalated',
    data: {
      escalation_reason: escalation.reason,
      escalated_at: escalation.escalated_at,
      summary: escalation.summary,
      agent_id: escalation.agent_id ?? null,
      unassigned_reason: escalation.agent_id ? null : (escalation.unassigned_reason ?? null),
    },
  };
}

/**
 * The transfer's rules: it follows an escalation (in this command or before), goes to the escalation's agent,
 * happens once, and its times are in order: escalated ≤ transferred ≤ agent answered ≤ ended.
 */
function transferred(transfer: CallTransfer, escalation: { at: string | null; agentId: string | null } | null, earlier: CallTransfer | null, endedAt: string): CallTransferred {
  if (earlier !== null) throw alreadyDone('The call was already transferred.', { agent_id: earlier.agent_id });
  if (escalation === null) throw invalidState('Only an escalated call can be transferred to an agent.', {});
  if (typeof transfer.agent_id !== 'string' || transfer.agent_id !== escalation.agentId) {
    throw invalidParameter('transfer.agent_id', transfer.agent_id, escalation.agentId === null ? 'no transfer: the escalation has no agent' : `the escalation's agent ${escalation.agentId}`);
  }
  const transferredAt = Date.parse(transfer.transferred_at);
  if (Number.isNaN(transferredAt) || (escalation.at !== null && transferredAt < Date.parse(escalation.at))) {
    throw invalidParameter('transfer.transferred_at', transfer.transferred_at, 'an ISO 8601 time, not before the escalation');
  }
  if (transfer.agent_answered_at !== null) {
    const answeredAt = Date.parse(transfer.agent_answered_at);
    if (Number.isNaN(answeredAt) || answeredAt < transferredAt || answeredAt > Date.parse(endedAt)) {
      throw invalidParameter('transfer.agent_answered_at', transfer.agent_answered_at, 'null, or an ISO 8601 time between transferred_at and the end of the call');
    }
  }
  return { type: 'CallTransferred', data: { agent_id: transfer.agent_id, transferred_at: transfer.transferred_at, agent_answered_at: transfer.agent_answered_at } };
}

/**
 * An escalated call ends `escalated` (the hand-over is what happened), except one whose agent never answered the
 * transfer: the customer was told they would be called back, and the call ends `callback`.
 */
function escalatedDisposition(transfer: CallTransfer | null): Disposition {
  return transfer !== null && transfer.agent_answered_at === null ? 'callback' : 'escalated';
}

function ended(answered: boolean, wasEscalated: boolean, data: EndCall['data'] & { started_at?: string; answered_by?: AnsweredBy | null }, transfer: CallTransfer | null = null): CallEnded {
  const { disposition, duration_seconds, ended_at, started_at, answered_by } = data;
  if (answered_by !== undefined && answered_by !== null) {
    if (!(ANSWERED_BY as readonly string[]).includes(answered_by)) throw invalidParameter('answered_by', answered_by, ANSWERED_BY.join(', '));
    if (!answered) throw invalidParameter('answered_by', answered_by, 'absent for a call that was not answered');
    if (answered_by === 'machine' && disposition !== 'not_reachable') throw invalidParameter('disposition', disposition, 'not_reachable for a call a machine answered');
  }
  if (!isDisposition(disposition)) throw invalidParameter('disposition', disposition, 'a disposition value');
  if (!answered && (disposition !== 'not_reachable' || duration_seconds !== 0)) {
    throw invalidParameter('disposition', disposition, 'not_reachable with duration 0 for a call that was not answered');
  }
  if (wasEscalated && disposition !== escalatedDisposition(transfer)) {
    throw invalidParameter('disposition', disposition, transfer === null ? 'escalated for an escalated call' : `${escalatedDisposition(transfer)} for a call whose transfer ${transfer.agent_answered_at === null ? 'the agent did not answer' : 'the agent answered'}`);
  }
  if (!Number.isInteger(duration_seconds) || duration_seconds < 0) {
    throw invalidParameter('duration_seconds', duration_seconds, 'a non-negative integer');
  }
  return {
    type: 'CallEnded',
    data: {
      status: 'completed',
      answered,
      disposition,
      duration_seconds,
      ended_at,
      ...(started_at === undefined ? {} : { started_at }),
      ...(answered_by === undefined || answered_by === null ? {} : { answered_by }),
    },
  };
}

function checkTurns(turns: readonly CallTurn[]): void {
  turns.forEach((turn, index) => {
    if (turn.speaker !== 'agent' && turn.speaker !== 'customer') throw invalidParameter(`turns[${index}].speaker`, turn.speaker, 'agent or customer');
    if (!(turn.start_seconds >= 0 && turn.end_seconds >= turn.start_seconds)) {
      throw invalidParameter(`turns[${index}].end_seconds`, turn.end_seconds, 'seconds from answer, not before start_seconds');
    }
  });
}

function invalidParameter(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

export const callDecider: Decider<CallCommand, CallEvent, CallState> = {
  initialState: initialCallState,
  evolve: evolveCall,
  decide: decideCall,
};

const callStreams = streamCategory('call');
export const callStream = callStreams.stream;
export const callIdOf = callStreams.idOf;

/**
 * The conversation a call's stream recorded, in order (what its transcript is made of). The state keeps only the
 * count: a call's turns are read once, when its transcript job is submitted.
 */
export function conversationOf(events: ReadonlyArray<{ type: string; data: object }>): CallTurn[] {
  const turns: CallTurn[] = [];
  for (const event of events) if (isEventOfType<CallEvent, 'CallConversationRecorded'>(event, 'CallConversationRecorded')) turns.push(...event.data.turns);
  return turns;
}

/**
 * The transcription job of an answered call: derived from the call id, so it is known from the moment the call
 * ends, before the job exists (`call.completed` and the calls read model name it; the analysis module creates it
 * under this id, and a replay is refused as a duplicate).
 */
export function callTranscriptJobId(callId: string): string {
  return deterministicId('job', callId);
}

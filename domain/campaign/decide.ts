import { alreadyDone, DomainError, invalidState, notFound } from '../shared/errors.ts';
import { DISPOSITIONS, isDisposition, type Disposition } from '../shared/disposition.ts';
import { isE164 } from '../shared/phone.ts';
import { attemptCallId } from './attempt-call-id.ts';
import { phoneDigits, statusAt } from './contact-table.ts';
import { CONTACTS_PER_EVENT, invalidParameter, validateCreateCampaign } from './validation.ts';
import type {
  BlockContactAttempt,
  CampaignContact,
  CampaignCommand,
  CampaignEvent,
  CampaignState,
  CampaignStatus,
  ContactStatus,
  CreateCampaign,
  RecordContactAttemptOutcome,
  RemoveContacts,
  StartContactAttempt,
} from './types.ts';

/**
 * The campaign's rules. Pure and non-mutating (evolve may mutate; decide never does). Decisions where the spec
 * is silent are listed in docs/calling.md; the short version is in the comments here.
 */
export function decide(command: CampaignCommand, state: CampaignState): CampaignEvent[] {
  if (command.type === 'CreateCampaign') return create(command, state);
  if (state.status === null) throw new DomainError('resource_not_found', 'No such campaign.', { resource_type: 'campaign' });
  switch (command.type) {
    case 'StartCampaign': {
      const { at, trigger } = command.data;
      // A start_time timer that fires after a manual start, a stop or a completion is stale, not an error.
      if (state.status !== 'scheduled') {
        if (trigger === 'schedule') return [];
        throw refused(state, 'start');
      }
      if (state.ends_at !== null && notBefore(at, state.ends_at)) {
        return [{ type: 'CampaignCompleted', data: { completed_at: at, reason: 'end_time_reached' } }];
      }
      const started: CampaignEvent = { type: 'CampaignStarted', data: { started_at: at, trigger } };
      // Every contact may already be gone (removed, suppressed) before the start: nothing to dial.
      return finalCount(state) === state.total_contacts
        ? [started, { type: 'CampaignCompleted', data: { completed_at: at, reason: 'all_contacts_final' } }]
        : [started];
    }
    case 'PauseCampaign':
      if (state.status !== 'running') throw refused(state, 'pause');
      return [{ type: 'CampaignPaused', data: { paused_at: command.data.at } }];
    case 'ResumeCampaign':
      if (state.status !== 'paused') throw refused(state, 'resume');
      return [{ type: 'CampaignResumed', data: { resumed_at: command.data.at } }];
    case 'StopCampaign':
      // Stopping a scheduled campaign is allowed too: it is how a client cancels one before it starts.
      if (!isOpen(state.status)) throw refused(state, 'stop');
      return [{ type: 'CampaignStopped', data: { stopped_at: command.data.at } }];
    case 'ReachCampaignEndTime': {
      const { at } = command.data;
      if (!isOpen(state.status)) return [];
      if (state.ends_at === null || !notBefore(at, state.ends_at)) {
        throw invalidState('The campaign end time has not been reached.', { ends_at: state.ends_at, at });
      }
      return [{ type: 'CampaignCompleted', data: { completed_at: at, reason: 'end_time_reached' } }];
    }
    case 'StartContactAttempt':
      return startAttempt(command, state);
    case 'RecordContactAttemptOutcome':
      return recordOutcome(command, state);
    case 'SuppressContact': {
      const contact = contactAt(state, command.data.contact_index);
      if (!isOpen(state.status)) throw refused(state, 'suppress_contact');
      if (contact.status !== 'pending' && contact.status !== 'awaiting_retry') {
        throw invalidState(`Contact ${contact.index} is ${contact.status}.`, { contact_index: contact.index, contact_status: contact.status });
      }
      const at = command.data.at;
      return withCompletion(state, 1, at, [
        { type: 'ContactFinalized', data: { contact_index: contact.index, disposition: 'dnd', reason: 'suppressed', at } },
      ]);
    }
    case 'BlockContactAttempt':
      return blockAttempt(command, state);
    case 'RemoveContacts':
      return removeContacts(command, state);
  }
}

/**
 * A pre-dial compliance rule refused the next attempt: recorded with the rule and the reason. A wait parks the
 * contact until `resumes_at` (the dialer wakes it on a durable timer); a final block ends it `dnd` uncalled.
 */
function blockAttempt(command: BlockContactAttempt, state: CampaignState): CampaignEvent[] {
  const data = command.data;
  const contact = contactAt(state, data.contact_index);
  if (state.status !== 'running') throw refused(state, 'dial');
  if (contact.status !== 'pending' && contact.status !== 'awaiting_retry') {
    throw invalidState(`Contact ${contact.index} is ${contact.status}.`, { contact_index: contact.index, contact_status: contact.status });
  }
  if (data.attempt !== contact.attempts + 1) throw invalidParameter('attempt', data.attempt, `${contact.attempts + 1}, the next attempt`);
  if (data.resumes_at !== null && Number.isNaN(Date.parse(data.resumes_at))) throw invalidParameter('resumes_at', data.resumes_at, 'an ISO 8601 date-time or null');
  const blocked: CampaignEvent = { type: 'ContactAttemptBlocked', data: { ...data } };
  if (data.resumes_at !== null) return [blocked];
  return withCompletion(state, 1, data.blocked_at, [
    blocked,
    { type: 'ContactFinalized', data: { contact_index: contact.index, disposition: 'dnd', reason: 'compliance_blocked', at: data.blocked_at } },
  ]);
}

/**
 * The body's own rules first (400 with the field), then the script (404), then its variables on each contact (the
 * first contact missing one is reported, e.g. `contacts[17].amount`: a campaign must not discover at the 17th call
 * that it cannot finish a sentence). The script's current version is pinned: later edits do not change the campaign.
 */
function create(command: CreateCampaign, state: CampaignState): CampaignEvent[] {
  if (state.status !== null) throw alreadyDone('The campaign already exists.', { campaign_id: state.campaign_id });
  const { contacts, ...settings } = validateCreateCampaign(command.data);
  const { campaign_id, workspace_id, script_id, created_at } = command.data;
  const script = command.facts.script;
  if (script === null) throw notFound('script', script_id);
  if (settings.qa_scorecard_id !== null && !command.facts.scorecard_found) throw notFound('qa_scorecard', settings.qa_scorecard_id);
  requireVariables(contacts, script.variables, script_id);
  if (settings.voicemail === 'leave_message' && script.has_voicemail_step !== true) {
    throw new DomainError('invalid_parameter', `voicemail: leave_message says the script's "voicemail" step, and script ${script_id} has none.`, {
      field: 'voicemail',
      provided: settings.voicemail,
      expected: 'hang_up, or a script with a step whose id is "voicemail"',
    });
  }
  const script_version = script.version;
  const events: CampaignEvent[] = [
    {
      type: 'CampaignCreated',
      data: { campaign_id, workspace_id, script_id, script_version, ...settings, total_contacts: contacts.length, created_at },
    },
  ];
  for (let first = 0; first < contacts.length; first += CONTACTS_PER_EVENT) {
    events.push({ type: 'ContactsAdded', data: { contacts: contacts.slice(first, first + CONTACTS_PER_EVENT) } });
  }
  return events;
}

function requireVariables(contacts: readonly CampaignContact[], variables: readonly string[], scriptId: string): void {
  const needed = variables.filter((variable) => variable !== 'name' && variable !== 'phone');
  if (needed.length === 0) return;
  for (const contact of contacts) {
    for (const variable of needed) {
      // Own keys only: a variable named `constructor` is not satisfied by Object.prototype.
      const value = Object.hasOwn(contact.variables, variable) ? contact.variables[variable] : undefined;
      if (value === undefined || value === null) {
        throw invalidParameter(`contacts[${contact.index}].${variable}`, null, `a value for {${variable}}, which script ${scriptId} uses`);
      }
    }
  }
}

function startAttempt(command: StartContactAttempt, state: CampaignState): CampaignEvent[] {
  const { contact_index, attempt, call_id, at } = command.data;
  const contact = contactAt(state, contact_index);
  // Checked first: a dialer that restarts re-issues the same reservation and must learn "already done", even
  // when the campaign has since been paused or completed.
  if (Number.isInteger(attempt) && attempt >= 1 && attempt <= contact.attempts) {
    throw alreadyDone(`Attempt ${attempt} of contact ${contact_index} was already started.`, {
      contact_index,
      attempt,
      call_id: attemptCallId(state.campaign_id, contact_index, attempt),
    });
  }
  if (state.status !== 'running') throw refused(state, 'dial');
  if (contact.status !== 'pending' && contact.status !== 'awaiting_retry') {
    throw invalidState(`Contact ${contact_index} is ${contact.status}.`, { contact_index, contact_status: contact.status });
  }
  if (attempt !== contact.attempts + 1) throw invalidParameter('attempt', attempt, `${contact.attempts + 1}, the next attempt`);
  if (attempt > state.max_attempts) throw invalidState(`Contact ${contact_index} has used all ${state.max_attempts} attempts.`, { contact_index });
  if (contact.retry_due_at !== null && !notBefore(at, contact.retry_due_at)) {
    throw invalidState(`The retry of contact ${contact_index} is due at ${contact.retry_due_at}.`, { contact_index, due_at: contact.retry_due_at });
  }
  const expected = attemptCallId(state.campaign_id, contact_index, attempt);
  if (call_id !== expected) throw invalidParameter('call_id', call_id, `${expected}, the call id of attempt ${attempt} of contact ${contact_index}`);
  return [{ type: 'ContactAttemptStarted', data: { contact_index, attempt, call_id, started_at: at } }];
}

function recordOutcome(command: RecordContactAttemptOutcome, state: CampaignState): CampaignEvent[] {
  const { contact_index, call_id, outcome, ended_at } = command.data;
  const contact = contactAt(state, contact_index);
  const attempt = attemptOfCall(state, contact, call_id);
  if (attempt === 0) throw invalidParameter('call_id', call_id, `a call id of an attempt of contact ${contact_index}`);
  if (contact.status !== 'dialing' || attempt !== contact.attempts) {
    throw alreadyDone(`The outcome of attempt ${attempt} of contact ${contact_index} was already recorded.`, { contact_index, call_id });
  }
  // The end time becomes the retry's due time (and the read models' ended_at): it must be an instant.
  if (Number.isNaN(Date.parse(ended_at))) throw invalidParameter('ended_at', ended_at, 'an ISO 8601 date-time');
  const disposition = command.data.disposition ?? null;
  if (outcome === 'connected' && disposition === null) throw invalidParameter('disposition', disposition, 'a disposition for a connected call');
  // An unknown value would be counted under its own key in the disposition summary, and lost in the contact table.
  if (outcome === 'connected' && !isDisposition(disposition)) throw invalidParameter('disposition', disposition, `one of ${DISPOSITIONS.join(', ')}`);
  const callDisposition: Disposition = outcome === 'connected' ? disposition! : outcome === 'suppressed' ? 'dnd' : 'not_reachable';
  const events: CampaignEvent[] = [
    { type: 'ContactAttemptEnded', data: { contact_index, attempt, call_id, outcome, disposition: callDisposition, ended_at } },
  ];
  const finalize = (reason: 'connected' | 'attempts_exhausted' | 'invalid_number' | 'campaign_ended' | 'suppressed') =>
    events.push({ type: 'ContactFinalized', data: { contact_index, disposition: callDisposition, reason, at: ended_at } });
  if (outcome === 'connected') finalize('connected');
  // On the do-not-call list since the call was placed: final dnd, like a contact suppressed before its reservation.
  else if (outcome === 'suppressed') finalize('suppressed');
  else if (outcome === 'invalid_number') finalize('invalid_number'); // the number does not exist: retrying cannot help
  else if (attempt >= state.max_attempts) finalize('attempts_exhausted');
  // A call still in flight when the campaign was stopped or reached its end time finishes, but is not retried.
  else if (!isOpen(state.status!)) finalize('campaign_ended');
  else {
    const due = new Date(Date.parse(ended_at) + state.retry_interval_minutes * 60_000);
    // At the far end of the calendar the interval leads past the last instant a Date can hold.
    if (Number.isNaN(due.getTime())) throw invalidParameter('ended_at', ended_at, 'an ISO 8601 date-time a retry interval before the year 275760');
    const dueAt = due.toISOString();
    events.push({ type: 'ContactRetryScheduled', data: { contact_index, attempt: attempt + 1, due_at: dueAt } });
  }
  const newlyFinal = events.length === 2 && events[1]!.type === 'ContactFinalized' ? 1 : 0;
  return withCompletion(state, newlyFinal, ended_at, events);
}

function removeContacts(command: RemoveContacts, state: CampaignState): CampaignEvent[] {
  if (!isOpen(state.status!)) throw refused(state, 'remove_contacts');
  const indexes: number[] = [];
  let removed = 0;
  let missing = 0;
  let alreadyCalled = 0;
  // One pass over the campaign's phones finds the requested ones (phones are unique within a campaign).
  const phonesAsked = new Set(command.data.phones);
  const requested = new Set([...phonesAsked].filter(isE164).map(phoneDigits));
  let found = 0;
  const { phones } = state.contacts;
  for (let index = 0; index < state.total_contacts && found < requested.size; index++) {
    if (!requested.has(phones[index]!)) continue;
    found++;
    const status = statusAt(state.contacts, index);
    // Pending and awaiting-retry contacts are removed (a retry is cancelled; earlier attempts keep their data).
    // A contact on the line or already final stays and is counted as already called.
    if (status === 'pending' || status === 'awaiting_retry') {
      indexes.push(index);
      removed++;
    } else if (status === 'removed') removed++; // repeating a removal reports the same counts
    else alreadyCalled++;
  }
  missing = phonesAsked.size - found;
  const at = command.data.at;
  return withCompletion(state, indexes.length, at, [
    {
      type: 'ContactsRemoved',
      data: { contact_indexes: indexes, removed, not_found: missing, already_called: alreadyCalled, removed_at: at },
    },
  ]);
}

/** Adds CampaignCompleted when these events leave no contact to dial in an open, started campaign. */
function withCompletion(state: CampaignState, newlyDone: number, at: string, events: CampaignEvent[]): CampaignEvent[] {
  const started = state.status === 'running' || state.status === 'paused';
  if (started && newlyDone > 0 && finalCount(state) + newlyDone === state.total_contacts) {
    events.push({ type: 'CampaignCompleted', data: { completed_at: at, reason: 'all_contacts_final' } });
  }
  return events;
}

/** Timestamps are compared as instants: `+05:30` and `Z` forms of one moment are equal. */
function notBefore(time: string, reference: string): boolean {
  return Date.parse(time) >= Date.parse(reference);
}

function finalCount(state: CampaignState): number {
  return state.statusCounts.final + state.statusCounts.removed;
}

function isOpen(status: CampaignStatus): boolean {
  return status === 'scheduled' || status === 'running' || status === 'paused';
}

/** What the rules read of one contact. */
interface ContactFacts {
  index: number;
  status: ContactStatus;
  attempts: number;
  retry_due_at: string | null;
}

function contactAt(state: CampaignState, index: number): ContactFacts {
  if (!Number.isInteger(index) || index < 0 || index >= state.total_contacts) {
    throw invalidParameter('contact_index', index, `an index from 0 to ${state.total_contacts - 1}`);
  }
  return { index, status: statusAt(state.contacts, index), attempts: state.contacts.attempts[index]!, retry_due_at: state.retries.get(index) ?? null };
}

/** Which attempt of the contact `callId` is the call of (0: none of its attempts so far). */
function attemptOfCall(state: CampaignState, contact: ContactFacts, callId: string): number {
  for (let attempt = contact.attempts; attempt >= 1; attempt--) {
    if (attemptCallId(state.campaign_id, contact.index, attempt) === callId) return attempt;
  }
  return 0;
}

/** A move the campaign's status does not allow: 409 invalid_state naming the campaign, its status and the action. */
function refused(state: CampaignState, action: string): DomainError {
  const status = state.status!;
  return invalidState(`Cannot ${action.replace('_', ' ')} a campaign that is ${status}.`, { resource_type: 'campaign', id: state.campaign_id, status, action });
}

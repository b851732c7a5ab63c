import { emptyDispositionSummary } from '../shared/disposition.ts';
import { emptyContactTable, phoneDigits, setDisposition, setStatus, statusAt } from './contact-table.ts';
import type { CampaignEvent, CampaignState, ContactStatus } from './types.ts';

export function initialState(): CampaignState {
  return {
    status: null,
    campaign_id: '',
    workspace_id: '',
    name: '',
    script_id: '',
    script_version: 0,
    language: 'en-IN',
    max_attempts: 1,
    retry_interval_minutes: 240,
    schedule: null,
    starts_at: null,
    ends_at: null,
    timezone: 'UTC',
    calling_hours: null,
    recording_enabled: true,
    qa_scorecard_id: null,
    purpose: 'service',
    caller_id: null,
    voicemail: 'hang_up',
    created_at: '',
    started_at: null,
    ended_at: null,
    completion_reason: null,
    total_contacts: 0,
    contacts: emptyContactTable(0),
    statusCounts: { pending: 0, dialing: 0, awaiting_retry: 0, final: 0, removed: 0 },
    retries: new Map(),
    firstPendingHint: 0,
    calls_made: 0,
    calls_connected: 0,
    disposition_summary: emptyDispositionSummary(),
  };
}

/**
 * Applies one event IN PLACE and returns the same object: a campaign may hold 100,000 contacts, and copying them
 * per event would make every call outcome O(n). Safe because the command handler never reuses a state after a
 * failed append and `decide` never mutates.
 */
export function evolve(state: CampaignState, event: CampaignEvent): CampaignState {
  switch (event.type) {
    case 'CampaignCreated': {
      const { total_contacts, ...data } = event.data;
      Object.assign(state, data, { status: 'scheduled', total_contacts, contacts: emptyContactTable(total_contacts) });
      return state;
    }
    case 'ContactsAdded':
      // Every slot starts pending (status code 0, no attempts, no disposition); only the phone is kept.
      for (const contact of event.data.contacts) state.contacts.phones[contact.index] = phoneDigits(contact.phone);
      state.statusCounts.pending += event.data.contacts.length;
      return state;
    case 'CampaignStarted':
      state.status = 'running';
      state.started_at = event.data.started_at;
      return state;
    case 'CampaignPaused':
      state.status = 'paused';
      return state;
    case 'CampaignResumed':
      state.status = 'running';
      return state;
    case 'CampaignStopped':
      state.status = 'stopped';
      state.ended_at = event.data.stopped_at;
      return state;
    case 'CampaignCompleted':
      state.status = 'completed';
      state.ended_at = event.data.completed_at;
      state.completion_reason = event.data.reason;
      return state;
    case 'ContactAttemptStarted': {
      const index = event.data.contact_index;
      moveTo(state, index, 'dialing');
      state.contacts.attempts[index] = event.data.attempt;
      state.calls_made++;
      return state;
    }
    case 'ContactAttemptEnded':
      if (event.data.outcome === 'connected') state.calls_connected++;
      return state;
    case 'ContactRetryScheduled':
      moveTo(state, event.data.contact_index, 'awaiting_retry');
      state.retries.set(event.data.contact_index, event.data.due_at);
      return state;
    case 'ContactFinalized':
      moveTo(state, event.data.contact_index, 'final');
      setDisposition(state.contacts, event.data.contact_index, event.data.disposition);
      state.disposition_summary[event.data.disposition]++;
      return state;
    case 'ContactAttemptBlocked':
      // A final block is followed by ContactFinalized; a wait parks the contact like a retry due when it resumes.
      if (event.data.resumes_at !== null) {
        moveTo(state, event.data.contact_index, 'awaiting_retry');
        state.retries.set(event.data.contact_index, event.data.resumes_at);
      }
      return state;
    case 'ContactsRemoved':
      for (const index of event.data.contact_indexes) moveTo(state, index, 'removed');
      return state;
  }
}

function moveTo(state: CampaignState, index: number, status: ContactStatus): void {
  const from = statusAt(state.contacts, index);
  state.statusCounts[from]--;
  state.statusCounts[status]++;
  if (from === 'awaiting_retry') state.retries.delete(index);
  setStatus(state.contacts, index, status);
  // Contacts are dialed in index order, so the hint moves forward by one per dial: amortised O(1).
  const { statuses } = state.contacts;
  while (state.firstPendingHint < state.total_contacts && statuses[state.firstPendingHint] !== 0) state.firstPendingHint++;
}

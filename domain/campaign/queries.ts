import type { DispositionSummary } from '../shared/disposition.ts';
import type { CampaignState, ContactState } from './types.ts';

/** Read helpers over a folded campaign, for the dialer (which holds the state through the command handler's cache). */

export interface CampaignProgress {
  total_contacts: number;
  calls_made: number;
  calls_connected: number;
  disposition_summary: DispositionSummary;
}

export function campaignProgress(state: CampaignState): CampaignProgress {
  return {
    total_contacts: state.total_contacts,
    calls_made: state.calls_made,
    calls_connected: state.calls_connected,
    disposition_summary: { ...state.disposition_summary },
  };
}

export interface DialableContact {
  contact_index: number;
  /** The attempt to reserve with StartContactAttempt. */
  attempt: number;
  phone: string;
  name: string;
  variables: Record<string, unknown>;
}

function dialable(contact: ContactState): DialableContact {
  return { contact_index: contact.index, attempt: contact.attempts + 1, phone: contact.phone, name: contact.name, variables: contact.variables };
}

/** Up to `limit` never-dialed contacts in index order, skipping `exclude` (reservations in flight). O(limit) amortised. */
export function nextPendingContacts(state: CampaignState, limit: number, exclude: ReadonlySet<number> = new Set()): DialableContact[] {
  const found: DialableContact[] = [];
  for (let index = state.firstPendingHint; index < state.contacts.length && found.length < limit; index++) {
    const contact = state.contacts[index]!;
    if (contact.status === 'pending' && !exclude.has(index)) found.push(dialable(contact));
  }
  return found;
}

/**
 * Contacts whose retry is due at `now`. Scans the awaiting set: fine as a fallback or for small campaigns; a
 * large dialer should use the durable timers of ContactRetryScheduled instead.
 */
export function dueRetries(state: CampaignState, now: Date, limit: number): DialableContact[] {
  const found: DialableContact[] = [];
  const nowMs = now.getTime();
  for (const index of state.awaitingRetry) {
    if (found.length >= limit) break;
    const contact = state.contacts[index]!;
    if (contact.retry_due_at !== null && Date.parse(contact.retry_due_at) <= nowMs) found.push(dialable(contact));
  }
  return found;
}

/** Variables for the script template: the contact's own keys plus `name` and `phone` (which win). */
export function contactTemplateValues(contact: Pick<ContactState, 'name' | 'phone' | 'variables'>): Record<string, unknown> {
  return { ...contact.variables, name: contact.name, phone: contact.phone };
}

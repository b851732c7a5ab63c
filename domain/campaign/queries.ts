import type { Disposition, DispositionSummary } from '../shared/disposition.ts';
import { contactTableBytes, dispositionAt, phoneAt, statusAt } from './contact-table.ts';
import type { CampaignContact, CampaignState, ContactStatus } from './types.ts';

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

/** One contact as the campaign's state knows it (its name and custom variables are in the ContactsAdded events). */
export interface ContactView {
  index: number;
  phone: string;
  status: ContactStatus;
  /** Attempts started so far. */
  attempts: number;
  /** Set while awaiting a retry. */
  retry_due_at: string | null;
  /** Set once final. */
  disposition: Disposition | null;
}

export function contactView(state: CampaignState, index: number): ContactView {
  return {
    index,
    phone: phoneAt(state.contacts, index),
    status: statusAt(state.contacts, index),
    attempts: state.contacts.attempts[index]!,
    retry_due_at: state.retries.get(index) ?? null,
    disposition: dispositionAt(state.contacts, index),
  };
}

/** Every contact as a view: for tests and small campaigns (a 100,000-contact campaign should not be expanded). */
export function contactViews(state: CampaignState): ContactView[] {
  return Array.from({ length: state.total_contacts }, (_, index) => contactView(state, index));
}

/** An attempt the dialer may reserve next with StartContactAttempt. */
export interface DueAttempt {
  contact_index: number;
  /** The attempt to reserve (1-based). */
  attempt: number;
}

/** A contact to dial: the attempt, with the contact's details from the ContactsAdded events. */
export interface DialableContact extends DueAttempt {
  phone: string;
  name: string;
  variables: Record<string, unknown>;
}

/** Up to `limit` never-dialed contacts in index order, skipping `exclude` (reservations in flight). O(limit) amortised. */
export function nextPendingContacts(state: CampaignState, limit: number, exclude: ReadonlySet<number> = new Set()): DueAttempt[] {
  const found: DueAttempt[] = [];
  const { statuses, attempts } = state.contacts;
  for (let index = state.firstPendingHint; index < state.total_contacts && found.length < limit; index++) {
    if (statuses[index] === 0 && !exclude.has(index)) found.push({ contact_index: index, attempt: attempts[index]! + 1 });
  }
  return found;
}

/**
 * Contacts whose retry is due at `now`. Scans the awaiting set: fine as a fallback or for small campaigns; a
 * large dialer should use the durable timers of ContactRetryScheduled instead.
 */
export function dueRetries(state: CampaignState, now: Date, limit: number): DueAttempt[] {
  const found: DueAttempt[] = [];
  const nowMs = now.getTime();
  for (const [index, dueAt] of state.retries) {
    if (found.length >= limit) break;
    if (Date.parse(dueAt) <= nowMs) found.push({ contact_index: index, attempt: state.contacts.attempts[index]! + 1 });
  }
  return found;
}

/** Contacts with an attempt on the line (recovery after a restart looks at each). */
export function contactsDialing(state: CampaignState): number[] {
  const found: number[] = [];
  if (state.statusCounts.dialing === 0) return found;
  const { statuses } = state.contacts;
  for (let index = 0; index < state.total_contacts; index++) if (statuses[index] === 1) found.push(index);
  return found;
}

/** Variables for the script template: the contact's own keys plus `name` and `phone` (which win). */
export function contactTemplateValues(contact: Pick<CampaignContact, 'name' | 'phone' | 'variables'>): Record<string, unknown> {
  return { ...contact.variables, name: contact.name, phone: contact.phone };
}

/** Roughly how many bytes a folded campaign holds (the command handler's cache is bounded by size). */
export function campaignStateBytes(state: CampaignState): number {
  return 2_048 + contactTableBytes(state.contacts) + state.retries.size * 96;
}

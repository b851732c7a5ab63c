import { DISPOSITIONS, type Disposition } from '../shared/disposition.ts';
import type { ContactStatus } from './types.ts';

/**
 * A campaign's contacts as its aggregate keeps them: one slot per contact index in typed arrays, about 11 bytes a
 * contact (a 100,000-contact campaign folds to about 1 MB), instead of an object each. Only what the rules need is
 * here: the phone (to remove contacts by number), the status, the attempts started and the final disposition.
 * Names and custom variables stay in the ContactsAdded events, where the dialer reads them a page at a time.
 */
export interface ContactTable {
  /** The E.164 number's digits as a number: exact, since E.164 has at most 15 digits (below 2^53). */
  readonly phones: Float64Array;
  readonly statuses: Uint8Array;
  readonly attempts: Uint8Array;
  /** 0: none yet; otherwise 1 + the disposition's index in DISPOSITIONS. */
  readonly dispositions: Uint8Array;
}

export const CONTACT_STATUSES = ['pending', 'dialing', 'awaiting_retry', 'final', 'removed'] as const satisfies readonly ContactStatus[];

const STATUS_CODE: Record<ContactStatus, number> = { pending: 0, dialing: 1, awaiting_retry: 2, final: 3, removed: 4 };

export function emptyContactTable(size: number): ContactTable {
  return { phones: new Float64Array(size), statuses: new Uint8Array(size), attempts: new Uint8Array(size), dispositions: new Uint8Array(size) };
}

export function statusAt(table: ContactTable, index: number): ContactStatus {
  return CONTACT_STATUSES[table.statuses[index]!]!;
}

export function setStatus(table: ContactTable, index: number, status: ContactStatus): void {
  table.statuses[index] = STATUS_CODE[status];
}

export function dispositionAt(table: ContactTable, index: number): Disposition | null {
  const code = table.dispositions[index]!;
  return code === 0 ? null : DISPOSITIONS[code - 1]!;
}

export function setDisposition(table: ContactTable, index: number, disposition: Disposition): void {
  table.dispositions[index] = DISPOSITIONS.indexOf(disposition) + 1;
}

/** `+919876543210` → 919876543210 (the number must be E.164). */
export function phoneDigits(phone: string): number {
  return Number(phone.slice(1));
}

export function phoneAt(table: ContactTable, index: number): string {
  return `+${table.phones[index]!}`;
}

/** Bytes the table holds (the command handler's cache is bounded by size). */
export function contactTableBytes(table: ContactTable): number {
  return table.phones.byteLength + table.statuses.byteLength + table.attempts.byteLength + table.dispositions.byteLength;
}

/**
 * The reserved custom fields of a contact (issue 14), read by the pre-dial rules: `timezone` (IANA, the borrower's
 * zone for calling windows) and `consent` (`{given_at, purpose}`, TRAI's consent for promotional calls). They ride
 * among a contact's other custom fields (and a single call's `metadata`), so they are validated where contacts are.
 */
import { DomainError } from '../shared/errors.ts';
import { isValidTimezone } from '../shared/time-zone.ts';
import type { ContactConsent } from './pre-dial.ts';
import { CALL_PURPOSES, type CallPurpose } from './rule.ts';

export const RESERVED_CONTACT_FIELDS = ['timezone', 'consent'] as const;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

function invalid(field: string, provided: unknown, expected: string): DomainError {
  return new DomainError('invalid_parameter', `${field}: expected ${expected}`, { field, provided, expected });
}

export const CALL_PURPOSE_DESCRIPTION = `one of ${CALL_PURPOSES.join(', ')}`;

export function isCallPurpose(value: unknown): value is CallPurpose {
  return typeof value === 'string' && (CALL_PURPOSES as readonly string[]).includes(value);
}

/** Checks the reserved fields among a contact's custom fields; `prefix` names the contact, e.g. `contacts[3]`. */
export function validateReservedFields(fields: Readonly<Record<string, unknown>>, prefix: string): void {
  // Runs once per contact (100,000 for a large campaign), and most contacts have neither field: return before
  // making anything.
  if (!Object.hasOwn(fields, 'timezone') && !Object.hasOwn(fields, 'consent')) return;
  const field = (name: string) => (prefix === '' ? name : `${prefix}.${name}`);
  if (Object.hasOwn(fields, 'timezone')) {
    const timezone = fields.timezone;
    if (typeof timezone !== 'string' || timezone.length > 64 || !isValidTimezone(timezone)) {
      throw invalid(field('timezone'), timezone, 'an IANA time zone such as Asia/Kolkata (reserved field: the contact\'s zone for calling windows)');
    }
  }
  if (Object.hasOwn(fields, 'consent')) {
    const consent = fields.consent;
    if (consent === null) return;
    if (typeof consent !== 'object' || Array.isArray(consent)) throw invalid(field('consent'), consent, 'an object {given_at, purpose} (reserved field)');
    const { given_at: givenAt, purpose, ...rest } = consent as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw invalid(field(`consent.${extra}`), rest[extra], 'no such field (consent has given_at and purpose)');
    if (typeof givenAt !== 'string' || !ISO_DATE_TIME.test(givenAt) || Number.isNaN(Date.parse(givenAt))) {
      throw invalid(field('consent.given_at'), givenAt, 'an ISO 8601 date-time with offset, e.g. 2026-01-15T10:00:00+05:30');
    }
    if (!isCallPurpose(purpose)) throw invalid(field('consent.purpose'), purpose, CALL_PURPOSE_DESCRIPTION);
  }
}

/** The reserved fields of an already validated contact. */
export function contactComplianceFields(fields: Readonly<Record<string, unknown>>): { timezone: string | null; consent: ContactConsent | null } {
  const timezone = typeof fields.timezone === 'string' ? fields.timezone : null;
  const consent = fields.consent !== null && typeof fields.consent === 'object' ? (fields.consent as ContactConsent) : null;
  return { timezone, consent };
}

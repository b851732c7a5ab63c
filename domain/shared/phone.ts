/**
 * Phone numbers are E.164: a plus sign, a country code that does not start with 0, at most 15 digits in all.
 * We require at least 7 digits so that obvious typos ("+91") are refused at the edge rather than dialed.
 */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export const E164_DESCRIPTION = 'E.164 phone number: + then 7 to 15 digits, e.g. +919876543210';

export function isE164(phone: unknown): phone is string {
  return typeof phone === 'string' && E164_PATTERN.test(phone);
}

/** The last two digits of a number (the sandbox carrier's behaviour switch). */
export function lastTwoDigits(phone: string): string {
  return phone.slice(-2);
}

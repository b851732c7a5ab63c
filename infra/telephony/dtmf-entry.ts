/**
 * When a keypad entry is complete (multi-digit DTMF answers, docs/telephony.md "Listening"). A step's `dtmf`
 * routes are one key (`1`, `*`, `#`) or several (`42`, `1234`, at most MAX_DTMF_DIGITS). Keys are collected until
 * the entry can only be what it is: `#` ends it (and is not part of it, unless `#` alone is the answer), as does
 * an entry that no longer route starts with, or MAX_DTMF_DIGITS keys; otherwise the next key is awaited for
 * INTER_DIGIT_SECONDS. So with routes `1` and `2` a key routes at once, and with `1` and `12` a lone `1` routes
 * after the inter-digit pause (or at once with `1#`).
 */
export const DTMF_TERMINATOR = '#';
export const MAX_DTMF_DIGITS = 8;
export const INTER_DIGIT_SECONDS = 3;

export function isDtmfEntryComplete(collected: string, routes: readonly string[]): boolean {
  if (collected.length === 0) return false;
  if (collected.endsWith(DTMF_TERMINATOR) || collected.length >= MAX_DTMF_DIGITS) return true;
  return !routes.some((route) => route.length > collected.length && route.startsWith(collected));
}

/** The answer an entry gives: without its terminating `#` (a lone `#` is the key itself). */
export function dtmfEntryDigits(collected: string): string {
  return collected.length > 1 && collected.endsWith(DTMF_TERMINATOR) ? collected.slice(0, -1) : collected;
}

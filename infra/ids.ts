import { createHash, randomBytes } from 'node:crypto';

// Crockford's base32: no I, L, O, U, so ids read aloud and copied by hand survive.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeBase32(bytes: Uint8Array, length: number): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && output.length < length) {
      output += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return output;
}

/**
 * A new opaque id such as `cmp_01jd8k3m9q2x7c4v5b6n8p0r2t`: 10 characters of millisecond time (so ids sort by
 * creation) and 16 random characters (80 bits).
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let time = now.getTime();
  let timePart = '';
  for (let index = 0; index < 10; index++) {
    timePart = ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${timePart}${encodeBase32(randomBytes(10), 16)}`;
}

/**
 * The same id every time for the same parts: process managers derive the ids of what they create from what
 * caused it (campaign, contact, attempt), so a replay after a crash re-issues the same command and the aggregate
 * refuses the duplicate.
 */
export function deterministicId(prefix: string, ...parts: Array<string | number>): string {
  const digest = createHash('sha256').update(parts.join('\u001f')).digest();
  return `${prefix}_${encodeBase32(digest, 26)}`;
}

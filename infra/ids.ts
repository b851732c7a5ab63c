import { randomBytes } from 'node:crypto';
import { BASE32_ALPHABET, encodeBase32 } from '../domain/shared/base32.ts';

/**
 * A new opaque id such as `cmp_01jd8k3m9q2x7c4v5b6n8p0r2t`: 10 characters of millisecond time (so ids sort by
 * creation) and 16 random characters (80 bits). Random, hence infra: deciders receive ids on their commands.
 * Ids derived from what caused them are `deterministicId` (domain/shared/deterministic-id.ts).
 */
export function newId(prefix: string, now: Date = new Date()): string {
  let time = now.getTime();
  let timePart = '';
  for (let index = 0; index < 10; index++) {
    timePart = BASE32_ALPHABET[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${timePart}${encodeBase32(randomBytes(10), 16)}`;
}

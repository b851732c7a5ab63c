import { createHash } from 'node:crypto';
import { encodeBase32 } from './base32.ts';

/**
 * The same id every time for the same parts: process managers derive the ids of what they create from what
 * caused it (campaign, contact, attempt), so a replay after a crash re-issues the same command and the aggregate
 * refuses the duplicate. Pure (a hash), so deciders and their modules may name such ids too.
 */
export function deterministicId(prefix: string, ...parts: Array<string | number>): string {
  const digest = createHash('sha256').update(parts.join('\u001f')).digest();
  return `${prefix}_${encodeBase32(digest, 26)}`;
}

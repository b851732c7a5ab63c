import { createHash } from 'node:crypto';
import type { Commands } from '../../commands/handler.ts';
import { idempotencyKeyDecider, idempotencyKeyStream } from '../../domain/idempotency-key.ts';
import { IDEMPOTENCY_WINDOW_MS } from './store.ts';

/** The request that holds an Idempotency-Key, and when it began (from which the ids it creates derive). */
export interface KeyClaim {
  fingerprint: string;
  begunAtMs: number;
}

/** Claims a key for a request, or answers the claim another request (on any node) made first. */
export type ClaimIdempotencyKey = (claim: { workspaceId: string; key: string; fingerprint: string; nowMs: number; actor: string }) => Promise<KeyClaim>;

/**
 * Claims in the event store (domain/idempotency-key.ts), for a cluster: every node sees the first claim. A lone
 * node does without (its state.db is the only one), which spares each idempotent POST an append.
 */
export function eventStoreKeyClaims(commands: Commands): ClaimIdempotencyKey {
  return async ({ workspaceId, key, fingerprint, nowMs, actor }) => {
    const digest = createHash('sha256').update(`${workspaceId}\n${key}`).digest('hex').slice(0, 40);
    const result = await commands.handle(
      idempotencyKeyDecider,
      idempotencyKeyStream(digest),
      { type: 'ClaimIdempotencyKey', fingerprint, nowMs, windowMs: IDEMPOTENCY_WINDOW_MS },
      { workspaceId, actor, now: new Date(nowMs) },
    );
    const claim = result.state.claim;
    if (claim === null) throw new Error('an idempotency key claim left no claim');
    return claim;
  };
}

import { createHash } from 'node:crypto';
import type { Commands } from '../../commands/handler.ts';
import { idempotencyKeyDecider, idempotencyKeyStream, type IdempotentAnswer } from '../../domain/idempotency-key.ts';
import { IDEMPOTENCY_WINDOW_MS } from './store.ts';

/** The request that holds an Idempotency-Key, when it began (the ids it creates derive from it), and its answer. */
export interface KeyClaim {
  fingerprint: string;
  begunAtMs: number;
  answer: IdempotentAnswer | null;
}

interface KeyRef {
  workspaceId: string;
  key: string;
}

/** The key's claims, kept where every node sees them. */
export interface IdempotencyClaims {
  /** Claims the key for a request beginning now, or answers the claim another request (on any node) made first. */
  claim(ref: KeyRef & { fingerprint: string; nowMs: number; actor: string }): Promise<KeyClaim>;
  /** The claim as it stands now (to see whether the request that holds it has answered). */
  current(ref: KeyRef): Promise<KeyClaim | null>;
  /** Records the answer of the claim that began at `begunAtMs` (the first answer stands). */
  answer(ref: KeyRef & { begunAtMs: number; answer: IdempotentAnswer; actor: string; nowMs: number }): Promise<void>;
}

/**
 * Claims in the event store (domain/idempotency-key.ts), for a cluster: every node sees the first claim and its
 * answer. A lone node does without (its state.db is the only one), which spares each idempotent POST two appends.
 */
export function eventStoreKeyClaims(commands: Commands): IdempotencyClaims {
  const streamOf = ({ workspaceId, key }: KeyRef) => idempotencyKeyStream(createHash('sha256').update(`${workspaceId}\n${key}`).digest('hex').slice(0, 40));
  return {
    async claim(ref) {
      const result = await commands.handle(
        idempotencyKeyDecider,
        streamOf(ref),
        { type: 'ClaimIdempotencyKey', fingerprint: ref.fingerprint, nowMs: ref.nowMs, windowMs: IDEMPOTENCY_WINDOW_MS },
        { workspaceId: ref.workspaceId, actor: ref.actor, now: new Date(ref.nowMs) },
      );
      if (result.state.claim === null) throw new Error('an idempotency key claim left no claim');
      return result.state.claim;
    },
    async current(ref) {
      return (await commands.load(idempotencyKeyDecider, streamOf(ref))).state.claim;
    },
    async answer(ref) {
      await commands.handle(
        idempotencyKeyDecider,
        streamOf(ref),
        { type: 'RecordIdempotentAnswer', begunAtMs: ref.begunAtMs, ...ref.answer },
        { workspaceId: ref.workspaceId, actor: ref.actor, now: new Date(ref.nowMs) },
      );
    },
  };
}

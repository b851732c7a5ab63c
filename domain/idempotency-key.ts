import type { Decider, DomainEvent } from './shared/decider.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * An `Idempotency-Key` of a workspace as a stream, for a cluster (CLUSTER=true), where each node keeps its stored
 * responses in its own state.db: the first request to claim the key, on any node, wins it (the claim is appended
 * expecting the stream as it was read, so of two nodes claiming at once one appends and the other reads the
 * winner's claim). A claim names the request (its fingerprint) and when it began, from which the id of what the
 * request creates is derived (http/resource-id.ts): every node running the same request creates under one id, so
 * one resource. A claim lasts the idempotency window; after it the key may be claimed anew.
 */
export type IdempotencyKeyEvent = DomainEvent<'IdempotencyKeyClaimed', { fingerprint: string; begun_at_ms: number }>;

export interface ClaimIdempotencyKey {
  type: 'ClaimIdempotencyKey';
  fingerprint: string;
  nowMs: number;
  windowMs: number;
}

export interface IdempotencyKeyState {
  claim: { fingerprint: string; begunAtMs: number } | null;
}

const idempotencyKeyStreams = streamCategory('idempotency');
/** The id is a digest of the workspace and the key (keys are client text of up to 255 characters). */
export const idempotencyKeyStream = idempotencyKeyStreams.stream;

export const idempotencyKeyDecider: Decider<ClaimIdempotencyKey, IdempotencyKeyEvent, IdempotencyKeyState> = {
  initialState: () => ({ claim: null }),

  evolve(_state, event) {
    return { claim: { fingerprint: event.data.fingerprint, begunAtMs: event.data.begun_at_ms } };
  },

  decide(command, state) {
    // Claimed within the window (by this request or another): the claim stands, whoever asks.
    if (state.claim !== null && state.claim.begunAtMs > command.nowMs - command.windowMs) return [];
    return [{ type: 'IdempotencyKeyClaimed', data: { fingerprint: command.fingerprint, begun_at_ms: command.nowMs } }];
  },
};

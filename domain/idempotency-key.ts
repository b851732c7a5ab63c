import type { Decider, DomainEvent } from './shared/decider.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * An `Idempotency-Key` of a workspace as a stream, for a cluster (CLUSTER=true), where each node keeps its stored
 * responses in its own state.db: the first request to claim the key, on any node, wins it (the claim is appended
 * expecting the stream as it was read, so of two nodes claiming at once one appends and the other reads the
 * winner's claim). A claim names the request (its fingerprint) and when it began, from which the id of what the
 * request creates is derived (http/resource-id.ts): every node running the same request creates under one id, so
 * one resource. The claim's answer (status and body, never a secret shown once) is recorded too, so that any node
 * replays it. A claim lasts the idempotency window; after it the key may be claimed anew.
 */
export type IdempotencyKeyEvent =
  | DomainEvent<'IdempotencyKeyClaimed', { fingerprint: string; begun_at_ms: number }>
  | DomainEvent<'IdempotencyKeyAnswered', { begun_at_ms: number; status: number; content_type: string; body: string }>;

export type IdempotencyKeyCommand =
  | { type: 'ClaimIdempotencyKey'; fingerprint: string; nowMs: number; windowMs: number }
  | { type: 'RecordIdempotentAnswer'; begunAtMs: number; status: number; contentType: string; body: string };

export interface IdempotentAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface IdempotencyKeyState {
  claim: { fingerprint: string; begunAtMs: number; answer: IdempotentAnswer | null } | null;
}

const idempotencyKeyStreams = streamCategory('idempotency');
/** The id is a digest of the workspace and the key (keys are client text of up to 255 characters). */
export const idempotencyKeyStream = idempotencyKeyStreams.stream;

export const idempotencyKeyDecider: Decider<IdempotencyKeyCommand, IdempotencyKeyEvent, IdempotencyKeyState> = {
  initialState: () => ({ claim: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed':
        return { claim: { fingerprint: event.data.fingerprint, begunAtMs: event.data.begun_at_ms, answer: null } };
      case 'IdempotencyKeyAnswered':
        if (state.claim === null || state.claim.begunAtMs !== event.data.begun_at_ms) return state;
        return { claim: { ...state.claim, answer: { status: event.data.status, contentType: event.data.content_type, body: event.data.body } } };
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ClaimIdempotencyKey':
        // Claimed within the window (by this request or another): the claim stands, whoever asks.
        if (state.claim !== null && state.claim.begunAtMs > command.nowMs - command.windowMs) return [];
        return [{ type: 'IdempotencyKeyClaimed', data: { fingerprint: command.fingerprint, begun_at_ms: command.nowMs } }];
      case 'RecordIdempotentAnswer':
        // The first answer of the claim is the answer (a second run on another node answers the same resource).
        if (state.claim === null || state.claim.begunAtMs !== command.begunAtMs || state.claim.answer !== null) return [];
        return [{ type: 'IdempotencyKeyAnswered', data: { begun_at_ms: command.begunAtMs, status: command.status, content_type: command.contentType, body: command.body } }];
    }
  },
};

import type { Decider, DomainEvent } from './shared/decider.ts';
import { DomainError, invalidState } from './shared/errors.ts';

/**
 * One item of a work queue shared by a cluster's nodes (competing consumers, docs/operations.md "Work queue"): its
 * own stream, so every claim, extension, acknowledgement and retry is appended with the stream's expected revision
 * and two nodes can never both hold it. A claim lasts until `expires_at`; its holder extends it while it works. A
 * node that dies stops extending, and once the claim has expired the next claimant takes the item over (a new
 * attempt). An item that failed or timed out `max_attempts` times is parked for the operator instead of retried.
 *
 * Times arrive on the commands (the adapter's clock); the decider only compares them.
 */
export type WorkItemEvent =
  | DomainEvent<'WorkEnqueued', { queue: string; item_id: string; payload: Record<string, unknown>; max_attempts: number; enqueued_at: string }>
  | DomainEvent<'WorkClaimed', { queue: string; item_id: string; claim_id: string; consumer: string; attempt: number; claimed_at: string; expires_at: string; took_over: string | null }>
  | DomainEvent<'WorkClaimExtended', { queue: string; item_id: string; claim_id: string; expires_at: string }>
  | DomainEvent<'WorkAcked', { queue: string; item_id: string; claim_id: string; acked_at: string }>
  | DomainEvent<'WorkNacked', { queue: string; item_id: string; claim_id: string; reason: string; available_at: string }>
  | DomainEvent<'WorkParked', { queue: string; item_id: string; claim_id: string | null; reason: string; parked_at: string }>
  /**
   * The operator put a parked item back (`cli queue requeue`): pending again with a fresh set of attempts. It
   * carries the item's payload and limit, so a node that no longer indexes the parked item (its index starts after
   * it) learns the whole item from this one event.
   */
  | DomainEvent<'WorkRequeued', { queue: string; item_id: string; payload: Record<string, unknown>; max_attempts: number; requeued_by: string; requeued_at: string }>;

export const WORK_ITEM_EVENT_TYPES = ['WorkEnqueued', 'WorkClaimed', 'WorkClaimExtended', 'WorkAcked', 'WorkNacked', 'WorkParked', 'WorkRequeued'] as const satisfies ReadonlyArray<WorkItemEvent['type']>;

export type WorkItemCommand =
  | { type: 'EnqueueWork'; queue: string; itemId: string; payload: Record<string, unknown>; maxAttempts: number; now: Date }
  | { type: 'ClaimWork'; claimId: string; consumer: string; now: Date; timeoutMs: number }
  | { type: 'ExtendClaim'; claimId: string; now: Date; timeoutMs: number }
  | { type: 'AckWork'; claimId: string; now: Date }
  | { type: 'NackWork'; claimId: string; now: Date; reason: string; retryAfterMs: number }
  | { type: 'ParkWork'; claimId: string; now: Date; reason: string }
  | { type: 'RequeueWork'; by: string; now: Date };

export interface WorkClaim {
  claimId: string;
  consumer: string;
  expiresAt: number;
}

export interface WorkItemState {
  status: 'none' | 'pending' | 'claimed' | 'acked' | 'parked';
  queue: string;
  itemId: string;
  payload: Record<string, unknown>;
  maxAttempts: number;
  /** Claims so far (each claim is an attempt, whether it ended in an ack, a nack or an expiry). */
  attempts: number;
  /** Epoch ms from which a pending item may be claimed (a nack's back-off). */
  availableAt: number;
  claim: WorkClaim | null;
  /** The claim that finished the item (acked or parked), so its holder's repeat changes nothing. */
  finishedBy: string | null;
  /** Why it was parked. */
  parkReason: string | null;
}

export const workItemStream = (queue: string, itemId: string) => `work-${queue}-${itemId}`;

/** Whether a claim made at `now` would take the item: pending and past its back-off, or claimed and expired. */
export function claimable(state: WorkItemState, now: number): boolean {
  if (state.status === 'pending') return state.availableAt <= now;
  return state.status === 'claimed' && state.claim !== null && state.claim.expiresAt <= now;
}

/** When the item may next be claimed (epoch ms), or null when it is finished. */
export function claimableFrom(state: WorkItemState): number | null {
  if (state.status === 'pending') return state.availableAt;
  if (state.status === 'claimed' && state.claim) return state.claim.expiresAt;
  return null;
}

const at = (iso: string) => Date.parse(iso);

/** An item waiting for its first claim: as enqueued, or as requeued (nothing of its earlier attempts kept). */
function pendingItem(item: { queue: string; item_id: string; payload: Record<string, unknown>; max_attempts: number }, availableAt: string): WorkItemState {
  return { ...workItemDecider.initialState(), status: 'pending', queue: item.queue, itemId: item.item_id, payload: item.payload, maxAttempts: item.max_attempts, availableAt: at(availableAt) };
}

function ownClaim(state: WorkItemState, claimId: string): boolean {
  return state.status === 'claimed' && state.claim?.claimId === claimId;
}

/** A claim that is no longer the item's: another node took the item over after it expired, or it was finished. */
function claimLost(state: WorkItemState, claimId: string): DomainError {
  return invalidState(`the claim ${claimId} on work item ${state.itemId} is no longer held`, { status: state.status, claim_id: state.claim?.claimId ?? null });
}

export const workItemDecider: Decider<WorkItemCommand, WorkItemEvent, WorkItemState> = {
  initialState: () => ({ status: 'none', queue: '', itemId: '', payload: {}, maxAttempts: 1, attempts: 0, availableAt: 0, claim: null, finishedBy: null, parkReason: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'WorkEnqueued':
        return pendingItem(event.data, event.data.enqueued_at);
      case 'WorkClaimed':
        return { ...state, status: 'claimed', attempts: event.data.attempt, claim: { claimId: event.data.claim_id, consumer: event.data.consumer, expiresAt: at(event.data.expires_at) } };
      case 'WorkClaimExtended':
        return state.claim ? { ...state, claim: { ...state.claim, expiresAt: at(event.data.expires_at) } } : state;
      case 'WorkAcked':
        return { ...state, status: 'acked', claim: null, finishedBy: event.data.claim_id };
      case 'WorkNacked':
        return { ...state, status: 'pending', claim: null, availableAt: at(event.data.available_at) };
      case 'WorkParked':
        return { ...state, status: 'parked', claim: null, finishedBy: event.data.claim_id, parkReason: event.data.reason };
      case 'WorkRequeued':
        // Put back by the operator: pending again as if just enqueued, its attempts starting over.
        return pendingItem(event.data, event.data.requeued_at);
    }
  },

  decide(command, state) {
    const { queue, itemId } = state;
    switch (command.type) {
      case 'EnqueueWork':
        if (!Number.isInteger(command.maxAttempts) || command.maxAttempts < 1) throw new DomainError('invalid_parameter', 'max_attempts must be a positive integer');
        // The same item enqueued again (a process manager's replay, the next leader) changes nothing.
        if (state.status !== 'none') return [];
        return [
          {
            type: 'WorkEnqueued',
            data: { queue: command.queue, item_id: command.itemId, payload: command.payload, max_attempts: command.maxAttempts, enqueued_at: command.now.toISOString() },
          },
        ];
      case 'ClaimWork': {
        const now = command.now.getTime();
        if (!claimable(state, now)) throw invalidState(`work item ${itemId || '(none)'} is not claimable now`, { status: state.status });
        const tookOver = state.status === 'claimed' ? state.claim!.consumer : null;
        if (tookOver !== null && state.attempts >= state.maxAttempts) {
          // Its holder stopped extending it on the last allowed attempt: parked, not tried again.
          return [{ type: 'WorkParked', data: { queue, item_id: itemId, claim_id: null, reason: `the claim of ${tookOver} expired on attempt ${state.attempts} of ${state.maxAttempts}`, parked_at: command.now.toISOString() } }];
        }
        return [
          {
            type: 'WorkClaimed',
            data: {
              queue,
              item_id: itemId,
              claim_id: command.claimId,
              consumer: command.consumer,
              attempt: state.attempts + 1,
              claimed_at: command.now.toISOString(),
              expires_at: new Date(now + command.timeoutMs).toISOString(),
              took_over: tookOver,
            },
          },
        ];
      }
      case 'ExtendClaim':
        // An expired claim nobody took over yet is still the holder's: every other claim would have appended first.
        if (!ownClaim(state, command.claimId)) throw claimLost(state, command.claimId);
        return [{ type: 'WorkClaimExtended', data: { queue, item_id: itemId, claim_id: command.claimId, expires_at: new Date(command.now.getTime() + command.timeoutMs).toISOString() } }];
      case 'AckWork':
        if (state.status === 'acked' && state.finishedBy === command.claimId) return [];
        if (!ownClaim(state, command.claimId)) throw claimLost(state, command.claimId);
        return [{ type: 'WorkAcked', data: { queue, item_id: itemId, claim_id: command.claimId, acked_at: command.now.toISOString() } }];
      case 'NackWork': {
        if (!ownClaim(state, command.claimId)) throw claimLost(state, command.claimId);
        if (state.attempts >= state.maxAttempts) {
          const reason = `${command.reason} (attempt ${state.attempts} of ${state.maxAttempts})`;
          return [{ type: 'WorkParked', data: { queue, item_id: itemId, claim_id: command.claimId, reason, parked_at: command.now.toISOString() } }];
        }
        const availableAt = new Date(command.now.getTime() + Math.max(0, command.retryAfterMs)).toISOString();
        return [{ type: 'WorkNacked', data: { queue, item_id: itemId, claim_id: command.claimId, reason: command.reason, available_at: availableAt } }];
      }
      case 'RequeueWork':
        if (state.status !== 'parked') throw invalidState(`work item ${itemId || '(none)'} is not parked`, { status: state.status });
        return [
          {
            type: 'WorkRequeued',
            data: { queue, item_id: itemId, payload: state.payload, max_attempts: state.maxAttempts, requeued_by: command.by, requeued_at: command.now.toISOString() },
          },
        ];
      case 'ParkWork':
        if (state.status === 'parked' && state.finishedBy === command.claimId) return [];
        if (!ownClaim(state, command.claimId)) throw claimLost(state, command.claimId);
        return [{ type: 'WorkParked', data: { queue, item_id: itemId, claim_id: command.claimId, reason: command.reason, parked_at: command.now.toISOString() } }];
    }
  },
};

/**
 * A work queue shared by competing consumers (a cluster's nodes): each item is worked on by one consumer at a time,
 * and an item whose consumer died goes to another. Every adapter passes one contract suite
 * (tests/infra/work-queue/contract.ts). The embedded adapter (event-store-queue.ts) keeps each item as a stream of
 * claim events with expected revisions; an EventStoreDB adapter would map the same calls onto a persistent
 * subscription (enqueue: append; claim: a delivered message; ack, nack with retry, nack with park).
 *
 * Delivery is at least once: a consumer that dies mid-item, or stalls past its claim timeout without extending,
 * loses the item to the next claimant. Work that must happen at most once (dialing a number) records that it
 * began in its own stream before the side effect, and the next claimant reads that record (processes/calling/).
 */
export interface WorkItemToEnqueue {
  /** Unique within the queue: enqueuing the same id again changes nothing. */
  id: string;
  payload: Record<string, unknown>;
  /** Claims allowed before the item is parked (default 5). An expired claim counts as an attempt. */
  maxAttempts?: number;
}

/** An item claimed by one consumer: it must ack, nack or park it, and extend the claim while it works. */
export interface ClaimedWork {
  queue: string;
  id: string;
  payload: Record<string, unknown>;
  /** 1 for the first claim; more after a nack or when a dead consumer's claim was taken over. */
  attempt: number;
  /** The consumer whose expired claim this one took over, or null. */
  tookOverFrom: string | null;
  /** Names this claim (ack, nack, park and extend need it). */
  claimId: string;
}

export interface ParkedWork {
  queue: string;
  id: string;
  payload: Record<string, unknown>;
  reason: string;
  attempts: number;
}

/** The claim is not this consumer's any more: it expired and another consumer took the item, or it was finished. */
export class ClaimLost extends Error {
  readonly code = 'claim_lost';
  constructor(
    readonly queue: string,
    readonly id: string,
  ) {
    super(`the claim on ${queue}/${id} was lost (it expired and another consumer took the item)`);
    this.name = 'ClaimLost';
  }
}

export interface WorkQueue {
  /** How long a claim lasts without `extend`. */
  readonly claimTimeoutMs: number;
  enqueue(queue: string, item: WorkItemToEnqueue): Promise<void>;
  /** Claims up to `max` items available now (oldest first) for `consumer`; fewer or none when there are none. */
  claim(queue: string, options: { consumer: string; max: number }): Promise<ClaimedWork[]>;
  /** Keeps a claim another `claimTimeoutMs`. Throws ClaimLost when it is not this claim's any more. */
  extend(item: ClaimedWork): Promise<void>;
  /** Done: never delivered again. Throws ClaimLost when another consumer took the item over meanwhile. */
  ack(item: ClaimedWork): Promise<void>;
  /** Failed: available again after `retryAfterMs`, or parked once its attempts are spent. */
  nack(item: ClaimedWork, options: { reason: string; retryAfterMs?: number }): Promise<void>;
  /** Set aside for the operator: never delivered again. */
  park(item: ClaimedWork, reason: string): Promise<void>;
  /** Items parked in a queue (oldest first). */
  parked(queue: string): Promise<ParkedWork[]>;
  /** The operator puts a parked item back: claimable at once, with a fresh set of attempts. Throws (`invalid_state`) when it is not parked. */
  requeue(queue: string, id: string, by: string): Promise<void>;
  /** Items not finished (pending or claimed). */
  unfinished(queue: string): Promise<number>;
  /**
   * Resolves when the item is finished on whichever node held it: `acked` (also for an id never enqueued),
   * `parked`, or `aborted` when the signal fires first. The leader's webhook admission holds a delivery's slot
   * until then (processes/webhooks/work-queue-delivery.ts).
   */
  waitUntilFinished(queue: string, id: string, signal: AbortSignal): Promise<'acked' | 'parked' | 'aborted'>;
  /** Resolves when an item may have become claimable (new work, a nack's back-off or a claim expiring), after `timeoutMs` at most, or on abort. */
  waitForWork(queue: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

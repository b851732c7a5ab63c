/**
 * The leader lease as pure data and choices (docs/operations.md, "Leader lease"). Two streams hold it:
 *
 * - `leadership-terms`: one `LeaderTermStarted` per takeover, appended with the revision the taker saw, so of two
 *   nodes taking an expired lease at once exactly one wins. A term is named by the revision of its event, and that
 *   revision fences the leader's singleton commands (the store refuses them once a newer term exists).
 * - `leadership-lease`: the holder's renewals (`LeaderLeaseRenewed`, fenced by its term, so a deposed leader cannot
 *   renew) and its release on a clean shutdown (`LeaderLeaseReleased`, so the next node need not wait for expiry).
 *   Renewals carry the leader's process checkpoints, from which the next leader resumes.
 *
 * Times are epoch milliseconds of the holder's wall clock: nodes must keep their clocks within `margin` of each
 * other (NTP), which the leader's early step-down (`isLeading`) absorbs.
 */

export const TERMS_STREAM = 'leadership-terms';
export const LEASE_STREAM = 'leadership-lease';

export type ProcessCheckpoints = Record<string, number>;

export type LeaderTermStarted = { type: 'LeaderTermStarted'; data: { node_id: string; expires_at: string } };
export type LeaderLeaseRenewed = { type: 'LeaderLeaseRenewed'; data: { node_id: string; term: number; expires_at: string; checkpoints: ProcessCheckpoints } };
export type LeaderLeaseReleased = { type: 'LeaderLeaseReleased'; data: { node_id: string; term: number; checkpoints: ProcessCheckpoints } };
export type LeaseEvent = LeaderLeaseRenewed | LeaderLeaseReleased;

/** The newest term and the newest lease event, as read from the two streams. */
export interface LeaseRecords {
  term: { revision: number; event: LeaderTermStarted } | null;
  lease: LeaseEvent | null;
}

/** Who holds the lease, until when, and where the processes stood at the last renewal. */
export interface Lease {
  term: number;
  holder: string;
  expiresAt: number;
  released: boolean;
  /** The newest checkpoints any leader published (possibly of the term before this one). */
  checkpoints: ProcessCheckpoints;
}

export interface LeaseTiming {
  /** How long a lease lasts without renewal. */
  ttlMs: number;
}

/** A leader renews once a third of its lease has passed, so two renewals may fail before it steps down. */
const RENEW_AFTER_FRACTION = 1 / 3;
/** A leader stops its singleton work this long before its lease expires: room for clock skew between nodes. */
export const stepDownMarginMs = (timing: LeaseTiming) => Math.floor(timing.ttlMs / 6);

export function currentLease({ term, lease }: LeaseRecords): Lease | null {
  if (term === null) return null;
  const checkpoints = lease?.data.checkpoints ?? {};
  const ofThisTerm = lease !== null && lease.data.term === term.revision ? lease : null;
  const startedUntil = Date.parse(term.event.data.expires_at);
  if (ofThisTerm?.type === 'LeaderLeaseReleased') {
    return { term: term.revision, holder: term.event.data.node_id, expiresAt: startedUntil, released: true, checkpoints };
  }
  const renewedUntil = ofThisTerm ? Date.parse(ofThisTerm.data.expires_at) : startedUntil;
  return { term: term.revision, holder: term.event.data.node_id, expiresAt: Math.max(startedUntil, renewedUntil), released: false, checkpoints };
}

export type LeaseAction =
  /** Start a new term: append LeaderTermStarted expecting the terms stream at `expectedTerm`. */
  | { kind: 'take'; expectedTerm: number | 'no_stream'; expiresAt: number; checkpoints: ProcessCheckpoints }
  /** Extend this node's term. */
  | { kind: 'renew'; term: number; expiresAt: number }
  /** This node leads and its lease is fresh enough. */
  | { kind: 'hold'; term: number }
  /** Another node leads (or none may, for a node that is no candidate). */
  | { kind: 'follow'; leader: string | null };

export interface LeaseNode {
  nodeId: string;
  /** `api` nodes never lead. */
  candidate: boolean;
}

export function decideLease(lease: Lease | null, node: LeaseNode, now: number, timing: LeaseTiming): LeaseAction {
  const expiresAt = now + timing.ttlMs;
  const alive = lease !== null && !lease.released && lease.expiresAt > now;
  if (alive && lease.holder === node.nodeId) {
    // Still within the margin: renewing keeps it; past it, this node has already stopped leading (isLeading) and
    // its next renewal would start work on a lease others may be about to take: it takes a new term instead.
    if (lease.expiresAt - now <= stepDownMarginMs(timing)) return { kind: 'follow', leader: lease.holder };
    const renewFrom = lease.expiresAt - timing.ttlMs * (1 - RENEW_AFTER_FRACTION);
    return now >= renewFrom ? { kind: 'renew', term: lease.term, expiresAt } : { kind: 'hold', term: lease.term };
  }
  if (alive) return { kind: 'follow', leader: lease.holder };
  if (!node.candidate) return { kind: 'follow', leader: null };
  return { kind: 'take', expectedTerm: lease?.term ?? 'no_stream', expiresAt, checkpoints: lease?.checkpoints ?? {} };
}

/** Whether `nodeId` may do singleton work now: it holds an unreleased lease that is not about to expire. */
export function isLeading(lease: Lease | null, nodeId: string, now: number, timing: LeaseTiming): boolean {
  return lease !== null && lease.holder === nodeId && !lease.released && now < lease.expiresAt - stepDownMarginMs(timing);
}

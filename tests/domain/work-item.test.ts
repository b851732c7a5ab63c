import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../domain/shared/decider.ts';
import { claimable, workItemDecider as decider, type WorkItemEvent } from '../../domain/work-item.ts';
import { given } from './given-when-then.ts';

const t0 = new Date('2026-03-01T10:00:00.000Z');
const plus = (ms: number) => new Date(t0.getTime() + ms);
const iso = (ms: number) => plus(ms).toISOString();
const base = { queue: 'calls', item_id: 'c1' };

const enqueued: WorkItemEvent = { type: 'WorkEnqueued', data: { ...base, payload: { call_id: 'c1' }, max_attempts: 2, enqueued_at: iso(0) } };
const claimedBy = (claimId: string, consumer: string, attempt: number, atMs: number, tookOver: string | null = null): WorkItemEvent => ({
  type: 'WorkClaimed',
  data: { ...base, claim_id: claimId, consumer, attempt, claimed_at: iso(atMs), expires_at: iso(atMs + 1_000), took_over: tookOver },
});
const claimA = claimedBy('a', 'node-a', 1, 0);

test('enqueues once; enqueuing the same item again changes nothing', () => {
  given(decider).when({ type: 'EnqueueWork', queue: 'calls', itemId: 'c1', payload: { call_id: 'c1' }, maxAttempts: 2, now: t0 }).then([enqueued]);
  given(decider, [enqueued]).when({ type: 'EnqueueWork', queue: 'calls', itemId: 'c1', payload: { call_id: 'other' }, maxAttempts: 2, now: plus(5) }).thenNothing();
  given(decider).when({ type: 'EnqueueWork', queue: 'calls', itemId: 'c1', payload: {}, maxAttempts: 0, now: t0 }).thenThrows('invalid_parameter');
});

test('a pending item is claimed for the claim timeout; a live claim refuses a second claimant', () => {
  given(decider, [enqueued]).when({ type: 'ClaimWork', claimId: 'a', consumer: 'node-a', now: t0, timeoutMs: 1_000 }).then([claimA]);
  given(decider, [enqueued, claimA]).when({ type: 'ClaimWork', claimId: 'b', consumer: 'node-b', now: plus(999), timeoutMs: 1_000 }).thenThrows('invalid_state');
  given(decider).when({ type: 'ClaimWork', claimId: 'a', consumer: 'node-a', now: t0, timeoutMs: 1_000 }).thenThrows('invalid_state');
});

test('an expired claim is taken over by the next claimant as a new attempt', () => {
  given(decider, [enqueued, claimA])
    .when({ type: 'ClaimWork', claimId: 'b', consumer: 'node-b', now: plus(1_000), timeoutMs: 1_000 })
    .then([claimedBy('b', 'node-b', 2, 1_000, 'node-a')]);
});

test('a claim that expires on the last attempt parks the item instead of a third try', () => {
  const claimB = claimedBy('b', 'node-b', 2, 1_000, 'node-a');
  given(decider, [enqueued, claimA, claimB])
    .when({ type: 'ClaimWork', claimId: 'c', consumer: 'node-c', now: plus(2_000), timeoutMs: 1_000 })
    .then([{ type: 'WorkParked', data: { ...base, claim_id: null, reason: 'the claim of node-b expired on attempt 2 of 2', parked_at: iso(2_000) } }]);
});

test('the holder extends its claim, even past expiry while nobody took it; a lost claim cannot', () => {
  given(decider, [enqueued, claimA]).when({ type: 'ExtendClaim', claimId: 'a', now: plus(1_500), timeoutMs: 1_000 }).then([{ type: 'WorkClaimExtended', data: { ...base, claim_id: 'a', expires_at: iso(2_500) } }]);
  const claimB = claimedBy('b', 'node-b', 2, 1_000, 'node-a');
  given(decider, [enqueued, claimA, claimB]).when({ type: 'ExtendClaim', claimId: 'a', now: plus(1_100), timeoutMs: 1_000 }).thenThrows('invalid_state');
  const extended = fold(decider, [enqueued, claimA, { type: 'WorkClaimExtended', data: { ...base, claim_id: 'a', expires_at: iso(5_000) } }]);
  assert.is(claimable(extended, plus(4_999).getTime()), false);
  assert.is(claimable(extended, plus(5_000).getTime()), true);
});

test('ack by the holder finishes the item; its repeat changes nothing; a taken-over claim cannot ack', () => {
  const acked: WorkItemEvent = { type: 'WorkAcked', data: { ...base, claim_id: 'a', acked_at: iso(10) } };
  given(decider, [enqueued, claimA]).when({ type: 'AckWork', claimId: 'a', now: plus(10) }).then([acked]);
  given(decider, [enqueued, claimA, acked]).when({ type: 'AckWork', claimId: 'a', now: plus(20) }).thenNothing();
  given(decider, [enqueued, claimA, acked]).when({ type: 'ClaimWork', claimId: 'b', consumer: 'node-b', now: plus(5_000), timeoutMs: 1_000 }).thenThrows('invalid_state');
  given(decider, [enqueued, claimA, claimedBy('b', 'node-b', 2, 1_000, 'node-a')]).when({ type: 'AckWork', claimId: 'a', now: plus(1_100) }).thenThrows('invalid_state');
});

test('nack makes the item claimable after its back-off, and parks it once attempts are spent', () => {
  const nacked: WorkItemEvent = { type: 'WorkNacked', data: { ...base, claim_id: 'a', reason: 'busy', available_at: iso(510) } };
  given(decider, [enqueued, claimA]).when({ type: 'NackWork', claimId: 'a', now: plus(10), reason: 'busy', retryAfterMs: 500 }).then([nacked]);
  const state = fold(decider, [enqueued, claimA, nacked]);
  assert.is(claimable(state, plus(509).getTime()), false);
  assert.is(claimable(state, plus(510).getTime()), true);
  const claimB = claimedBy('b', 'node-b', 2, 600);
  given(decider, [enqueued, claimA, nacked, claimB])
    .when({ type: 'NackWork', claimId: 'b', now: plus(700), reason: 'busy', retryAfterMs: 500 })
    .then([{ type: 'WorkParked', data: { ...base, claim_id: 'b', reason: 'busy (attempt 2 of 2)', parked_at: iso(700) } }]);
});

test('park by the holder sets the item aside for good', () => {
  const parked: WorkItemEvent = { type: 'WorkParked', data: { ...base, claim_id: 'a', reason: 'bad payload', parked_at: iso(10) } };
  given(decider, [enqueued, claimA]).when({ type: 'ParkWork', claimId: 'a', now: plus(10), reason: 'bad payload' }).then([parked]);
  given(decider, [enqueued, claimA, parked]).when({ type: 'ParkWork', claimId: 'a', now: plus(20), reason: 'bad payload' }).thenNothing();
  given(decider, [enqueued, claimA, parked]).when({ type: 'ClaimWork', claimId: 'b', consumer: 'node-b', now: plus(9_000), timeoutMs: 1_000 }).thenThrows('invalid_state');
});

test('the operator requeues a parked item: pending again with a fresh set of attempts; only a parked item', () => {
  const parked: WorkItemEvent = { type: 'WorkParked', data: { ...base, claim_id: 'a', reason: 'bad payload', parked_at: iso(10) } };
  const requeued: WorkItemEvent = { type: 'WorkRequeued', data: { ...base, payload: { call_id: 'c1' }, max_attempts: 2, requeued_by: 'cli', requeued_at: iso(50) } };
  given(decider, [enqueued, claimA, parked]).when({ type: 'RequeueWork', by: 'cli', now: plus(50) }).then([requeued]);
  const state = fold(decider, [enqueued, claimA, parked, requeued]);
  assert.equal([state.status, state.attempts, state.parkReason, claimable(state, plus(50).getTime())], ['pending', 0, null, true]);
  given(decider, [enqueued, claimA, parked, requeued]).when({ type: 'ClaimWork', claimId: 'b', consumer: 'node-b', now: plus(60), timeoutMs: 1_000 }).then([claimedBy('b', 'node-b', 1, 60)]);
  given(decider, [enqueued, claimA]).when({ type: 'RequeueWork', by: 'cli', now: plus(50) }).thenThrows('invalid_state');
  given(decider, [enqueued, claimA, parked, requeued]).when({ type: 'RequeueWork', by: 'cli', now: plus(60) }).thenThrows('invalid_state');
  // Alone, the event is the whole item (a node whose index starts after the parking learns it from this event).
  assert.equal(fold(decider, [requeued]).payload, { call_id: 'c1' });
});

test.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  currentLease,
  decideLease,
  isLeading,
  type LeaseAction,
  type LeaseRecords,
  type LeaderTermStarted,
  type LeaseEvent,
} from '../../../processes/leadership/lease-decision.ts';

const decisions = suite('leader lease decisions (given lease events, when a node looks at a time, then an action)');

const TTL = 6_000;
const timing = { ttlMs: TTL };
const T0 = Date.parse('2026-11-26T10:00:00Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const termStarted = (revision: number, node: string, expiresInMs: number): { revision: number; event: LeaderTermStarted } => ({
  revision,
  event: { type: 'LeaderTermStarted', data: { node_id: node, expires_at: at(expiresInMs) } },
});
const renewed = (term: number, node: string, expiresInMs: number, checkpoints: Record<string, number> = {}): LeaseEvent => ({
  type: 'LeaderLeaseRenewed',
  data: { node_id: node, term, expires_at: at(expiresInMs), checkpoints },
});
const released = (term: number, node: string, checkpoints: Record<string, number> = {}): LeaseEvent => ({ type: 'LeaderLeaseReleased', data: { node_id: node, term, checkpoints } });

function given(records: LeaseRecords) {
  return {
    when(node: string, elapsedMs: number, candidate = true) {
      return {
        then(expected: LeaseAction) {
          assert.equal(decideLease(currentLease(records), { nodeId: node, candidate }, T0 + elapsedMs, timing), expected);
        },
      };
    },
  };
}

decisions('no lease yet: a candidate takes the first term', () => {
  given({ term: null, lease: null }).when('a', 0).then({ kind: 'take', expectedTerm: 'no_stream', expiresAt: T0 + TTL, checkpoints: {} });
});

decisions('no lease yet: an api node (no candidate) follows nobody', () => {
  given({ term: null, lease: null }).when('a', 0, false).then({ kind: 'follow', leader: null });
});

decisions('a fresh term of another node: follow it', () => {
  given({ term: termStarted(0, 'a', TTL), lease: null }).when('b', 1_000).then({ kind: 'follow', leader: 'a' });
});

decisions('the holder holds while its lease is fresh, and renews once a third of it has passed', () => {
  const records = { term: termStarted(0, 'a', TTL), lease: null };
  given(records).when('a', 1_000).then({ kind: 'hold', term: 0 });
  given(records).when('a', 2_000).then({ kind: 'renew', term: 0, expiresAt: T0 + 2_000 + TTL });
});

decisions('a renewal of the current term extends the lease', () => {
  const records = { term: termStarted(3, 'a', TTL), lease: renewed(3, 'a', 5_000 + TTL) };
  given(records).when('b', 7_000).then({ kind: 'follow', leader: 'a' });
  given(records).when('a', 5_500).then({ kind: 'hold', term: 3 });
});

decisions('expired: another candidate takes it, expecting the term it saw, and resumes from the published checkpoints', () => {
  const records = { term: termStarted(3, 'a', TTL), lease: renewed(3, 'a', 4_000 + TTL, { dialer: 120 }) };
  given(records).when('b', 4_000 + TTL).then({ kind: 'take', expectedTerm: 3, expiresAt: T0 + 4_000 + 2 * TTL, checkpoints: { dialer: 120 } });
});

decisions('a renewal of an older term does not keep the newer term alive', () => {
  // b started term 4 after a's term 3; a's late renewal (fenced off in the store, but say it was read) is ignored.
  const records = { term: termStarted(4, 'b', TTL), lease: renewed(3, 'a', 60_000) };
  assert.equal(currentLease(records)?.holder, 'b');
  given(records).when('c', TTL).then({ kind: 'take', expectedTerm: 4, expiresAt: T0 + 2 * TTL, checkpoints: {} });
});

decisions('released: the next candidate takes over at once, without waiting for expiry', () => {
  const records = { term: termStarted(2, 'a', TTL), lease: released(2, 'a', { timers: 7 }) };
  given(records).when('b', 100).then({ kind: 'take', expectedTerm: 2, expiresAt: T0 + 100 + TTL, checkpoints: { timers: 7 } });
});

decisions('a holder too close to expiry does not renew (it already stepped down); once expired it takes a new term', () => {
  const records = { term: termStarted(0, 'a', TTL), lease: null };
  given(records).when('a', TTL - 500).then({ kind: 'follow', leader: 'a' });
  given(records).when('a', TTL).then({ kind: 'take', expectedTerm: 0, expiresAt: T0 + 2 * TTL, checkpoints: {} });
});

decisions('isLeading: the holder leads until a margin before expiry; nobody else does; a released lease leads nobody', () => {
  const lease = currentLease({ term: termStarted(0, 'a', TTL), lease: null });
  assert.ok(isLeading(lease, 'a', T0, timing));
  assert.ok(isLeading(lease, 'a', T0 + TTL - 1_001, timing));
  assert.not.ok(isLeading(lease, 'a', T0 + TTL - 1_000, timing), 'steps down a sixth of the lease before expiry');
  assert.not.ok(isLeading(lease, 'b', T0, timing));
  assert.not.ok(isLeading(currentLease({ term: termStarted(0, 'a', TTL), lease: released(0, 'a') }), 'a', T0, timing));
});

decisions.run();

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FencedOff, type EventStore } from '../../../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { createLogger } from '../../../infra/logger.ts';
import { fencedStore } from '../../../processes/leadership/fenced-store.ts';
import { LeaderLease, type LeadershipWork } from '../../../processes/leadership/leader-lease.ts';
import { LEASE_STREAM, TERMS_STREAM, type ProcessCheckpoints } from '../../../processes/leadership/lease-decision.ts';
import { event } from '../../infra/eventstore/contract.ts';

const lease = suite('leader lease loop on a shared embedded store');

const TTL = 6_000;
const logger = createLogger('silent');

/** A node: its own connection to the shared file, a lease loop on a clock the test moves, and a log of its work. */
function node(path: string, nodeId: string, clock: { now: number }, candidate = true) {
  const store = createSqliteEventStore(path, { synchronous: 'normal' });
  const log: string[] = [];
  let position = 0;
  // Ending, the work records a last result through the fenced store (as calls in flight do when the runner stops).
  const work: LeadershipWork = {
    async begin(term: number, published: ProcessCheckpoints) {
      log.push(`begin ${term} ${JSON.stringify(published)}`);
    },
    async end() {
      try {
        await singleton.append(`results-${nodeId}`, [event('LastResult')], { expectedRevision: 'any' });
        log.push('end, last result stored');
      } catch (error) {
        log.push(error instanceof FencedOff ? 'end, last result fenced off' : `end, ${String(error)}`);
      }
    },
    checkpoints: () => ({ dialer: (position += 10), [`by ${nodeId}`]: 1 }),
  };
  const loop = new LeaderLease({ store, logger }, work, { nodeId, candidate, ttlMs: TTL, pollMs: 60_000, now: () => clock.now });
  const singleton: EventStore = fencedStore(store, () => loop.fence);
  return {
    store,
    loop,
    log,
    singleton,
    async round() {
      await loop.tick();
      await loop.settled();
    },
  };
}

lease('one node leads; a paused leader is replaced after expiry and its late commands are refused; a clean stop hands over at once', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'lease-'));
  const path = join(directory, 'events.db');
  const clock = { now: Date.parse('2026-11-26T10:00:00Z') };
  const a = node(path, 'node-a', clock);
  const b = node(path, 'node-b', clock);
  const api = node(path, 'node-api', clock, false);
  try {
    await a.round();
    await b.round();
    await api.round();
    assert.equal([a.loop.leading, b.loop.leading, api.loop.leading], [true, false, false]);
    assert.equal(a.log, ['begin 0 {}']);
    await a.singleton.append('campaign-1', [event('Dialed')], { expectedRevision: 'any' });

    // A third of the lease later the leader renews, publishing where its processes stand.
    clock.now += 2_500;
    await a.round();
    const renewals = await a.store.readStream(LEASE_STREAM);
    assert.equal(renewals.map((e) => [e.type, e.data.term, e.data.checkpoints]), [['LeaderLeaseRenewed', 0, { dialer: 10, 'by node-a': 1 }]]);

    // a pauses (no rounds). While its lease lasts, b follows.
    clock.now += TTL - 1_000;
    await b.round();
    assert.not.ok(b.loop.leading);
    // Past the renewed expiry b takes term 1, resuming from a's published checkpoints.
    clock.now += 2_000;
    await b.round();
    assert.ok(b.loop.leading);
    assert.equal(b.log, ['begin 1 {"dialer":10,"by node-a":1}']);

    // a wakes up still believing it leads: its late singleton command is fenced off, nothing is stored.
    assert.ok(a.loop.leading, 'a has not looked at the lease yet');
    try {
      await a.singleton.append('campaign-1', [event('DialedTwice')], { expectedRevision: 'any' });
      assert.unreachable('fenced off');
    } catch (error) {
      assert.instance(error, FencedOff);
    }
    assert.equal((await a.store.readStream('campaign-1')).map((e) => e.type), ['Dialed']);
    // Its next round sees the newer term and stops its work; its renewal would have been fenced off too.
    await a.round();
    assert.not.ok(a.loop.leading);
    assert.equal(a.log, ['begin 0 {}', 'end, last result fenced off'], 'a deposed leader stops as fenced off');
    // A node that does not lead has no fence: the fenced store refuses every append.
    try {
      await api.singleton.append('campaign-1', [event('NotLeader')], { expectedRevision: 'any' });
      assert.unreachable('no term');
    } catch (error) {
      assert.instance(error, FencedOff);
    }

    // b stops cleanly: its work ends while its term still fences (its last result is stored), then it releases,
    // and a takes over at once (no waiting for expiry).
    await b.loop.stop();
    assert.equal(b.log, ['begin 1 {"dialer":10,"by node-a":1}', 'end, last result stored']);
    assert.not.ok(b.loop.leading);
    await a.round();
    assert.ok(a.loop.leading);
    assert.equal(a.log.at(-1), 'begin 2 {"dialer":10,"by node-b":1}', 'from the checkpoints b published on release');
    assert.equal((await a.store.readStream(TERMS_STREAM)).map((e) => e.data.node_id), ['node-a', 'node-b', 'node-a']);
    await api.round();
    assert.not.ok(api.loop.leading, 'an api node never leads');
  } finally {
    await a.loop.stop();
    await api.loop.stop();
    for (const each of [a, b, api]) await each.store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

lease('two candidates racing for an expired lease: exactly one wins the term', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'lease-race-'));
  const path = join(directory, 'events.db');
  const clock = { now: Date.parse('2026-11-26T10:00:00Z') };
  const nodes = ['x', 'y', 'z'].map((id) => node(path, id, clock));
  try {
    await Promise.all(nodes.map((each) => each.round()));
    assert.is(nodes.filter((each) => each.loop.leading).length, 1);
    clock.now += 2 * TTL;
    await Promise.all(nodes.map((each) => each.round()));
    // The old leader's round saw its lease expire (and stepped down) before taking a new term; one node leads.
    assert.is(nodes.filter((each) => each.loop.leading).length, 1);
    assert.is((await nodes[0]!.store.readStream(TERMS_STREAM)).length, 2);
  } finally {
    for (const each of nodes) {
      await each.loop.stop();
      await each.store.close();
    }
    rmSync(directory, { recursive: true, force: true });
  }
});

lease('a node joining late reads the newest renewal: past the first term\'s expiry but within the renewed lease, it follows', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'lease-late-'));
  const path = join(directory, 'events.db');
  const clock = { now: Date.parse('2026-11-26T10:00:00Z') };
  const a = node(path, 'node-a', clock);
  let late: ReturnType<typeof node> | null = null;
  try {
    await a.round();
    for (let renewal = 0; renewal < 3; renewal++) {
      clock.now += 2_500;
      await a.round();
    }
    assert.is((await a.store.readStream(LEASE_STREAM)).length, 3);
    clock.now += 2_000;
    late = node(path, 'node-late', clock);
    await late.round();
    assert.equal([a.loop.leading, late.loop.leading], [true, false]);
  } finally {
    await a.loop.stop();
    await late?.loop.stop();
    await a.store.close();
    await late?.store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

lease.run();

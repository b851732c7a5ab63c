import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LookupGate, type ResolvedAddress } from '../../../infra/outbound/lookup-gate.ts';

// The lookup gate: given lookups under way (some whose DNS never answers), who may start one now, and who waits.

/** A fake DNS: every lookup is recorded and answered (or not) by the test. */
function fakeDns() {
  const calls: string[] = [];
  const pending = new Map<string, Array<{ answer(addresses: ResolvedAddress[]): void; fail(error: Error): void }>>();
  return {
    calls,
    lookup(host: string): Promise<ResolvedAddress[]> {
      calls.push(host);
      if (host.startsWith('ok.')) return Promise.resolve([{ address: '192.0.2.1', family: 4 }]);
      return new Promise((answer, fail) => pending.set(host, [...(pending.get(host) ?? []), { answer, fail }]));
    },
    answer(host: string, address = '198.51.100.7') {
      for (const lookup of pending.get(host) ?? []) lookup.answer([{ address, family: 4 }]);
      pending.delete(host);
    },
    fail(host: string) {
      for (const lookup of pending.get(host) ?? []) lookup.fail(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      pending.delete(host);
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const deadline = (ms: number) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new Error(`deadline ${ms} ms`)), ms);
  return controller.signal;
};

test('given a lookup that never answers, when another lane resolves, then it gets the other slot at once; the hung one fails at its deadline and keeps its slot', async () => {
  const dns = fakeDns();
  const gate = new LookupGate(dns.lookup, { total: 2, perLane: 1 });
  const started = Date.now();
  const hung = gate.resolve('never.test', { lane: 'A', signal: deadline(500) });
  // Ordering, not wall time (the machine may be loaded): the second target resolves while the first still waits.
  let hungSettled = false;
  const hungOutcome = hung.then(
    () => assert.unreachable('the hung lookup should fail at its deadline'),
    (error: Error) => error,
  ).finally(() => (hungSettled = true));
  assert.equal(await gate.resolve('ok.test', { lane: 'B' }), [{ address: '192.0.2.1', family: 4 }]);
  assert.not.ok(hungSettled, 'the second target resolved at once, while the hung lookup waited');
  const error = await hungOutcome;
  assert.match((error as Error).message, /deadline 500 ms/);
  assert.ok(Date.now() - started >= 490, String(Date.now() - started));
  assert.is(gate.lookupsUnderWay, 1, 'getaddrinfo still holds its thread: the slot stays taken until it ends');
  dns.answer('never.test');
  await tick();
  assert.is(gate.lookupsUnderWay, 0);
});

test('given every slot held by lookups that never answer, when a third caller waits, then it gives up at its deadline and leaves the queue; a slot freed later serves the next caller', async () => {
  const dns = fakeDns();
  const gate = new LookupGate(dns.lookup, { total: 2, perLane: 1 });
  void gate.resolve('never-1.test', { lane: 'A' }).catch(() => undefined);
  void gate.resolve('never-2.test', { lane: 'B' }).catch(() => undefined);
  const started = Date.now();
  try {
    await gate.resolve('ok.test', { lane: 'C', signal: deadline(100) });
    assert.unreachable('no slot was free');
  } catch (error) {
    assert.match((error as Error).message, /deadline 100 ms/);
    assert.ok(Date.now() - started < 1_000);
  }
  assert.is(gate.queued, 0, 'the caller that gave up left the queue');
  assert.is(gate.lookupsUnderWay, 2, 'never more than the limit, however slow the DNS');
  assert.equal(dns.calls, ['never-1.test', 'never-2.test'], 'the waiting caller never started a lookup');
  const next = gate.resolve('ok.test', { lane: 'C' });
  dns.fail('never-1.test');
  assert.equal(await next, [{ address: '192.0.2.1', family: 4 }], 'a failed lookup frees its slot');
  dns.answer('never-2.test');
});

test('given one lane holding its share with hung lookups, then its further names wait while other lanes take turns', async () => {
  const dns = fakeDns();
  const gate = new LookupGate(dns.lookup, { total: 2, perLane: 1 });
  const a = ['a-1.test', 'a-2.test', 'a-3.test'].map((host) => gate.resolve(host, { lane: 'A' }).catch((error: Error) => error));
  await tick();
  assert.equal(dns.calls, ['a-1.test'], 'lane A holds one slot, its other names wait');
  assert.is(gate.queued, 2);
  assert.ok(await gate.resolve('ok.b.test', { lane: 'B' }));
  assert.ok(await gate.resolve('ok.c.test', { lane: 'C' }));
  dns.answer('a-1.test');
  await tick();
  assert.equal(dns.calls, ['a-1.test', 'ok.b.test', 'ok.c.test', 'a-2.test'], 'then lane A goes on, one at a time');
  dns.answer('a-2.test');
  await tick();
  dns.answer('a-3.test');
  assert.is((await Promise.all(a)).length, 3);
});

test('given a host already being looked up, then further callers join that lookup instead of taking a slot', async () => {
  const dns = fakeDns();
  const gate = new LookupGate(dns.lookup, { total: 2, perLane: 1 });
  const answers = Promise.all([1, 2, 3, 4, 5].map((n) => gate.resolve('hooks.example.test', { lane: `L${n}` })));
  await tick();
  assert.equal(dns.calls, ['hooks.example.test']);
  dns.answer('hooks.example.test', '203.0.113.9');
  assert.equal((await answers).map((addresses) => addresses[0]!.address), Array(5).fill('203.0.113.9'));
  assert.is(gate.lookupsUnderWay, 0);
});

test('given an aborted signal, then nothing is looked up', async () => {
  const dns = fakeDns();
  const gate = new LookupGate(dns.lookup);
  const controller = new AbortController();
  controller.abort(new Error('gone'));
  try {
    await gate.resolve('ok.test', { signal: controller.signal });
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, 'gone');
  }
  assert.equal(dns.calls, []);
});

test.run();

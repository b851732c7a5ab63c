/**
 * The contract every WorkQueue adapter passes. `embedded.test.ts` runs it against the event-store adapter on the
 * embedded store; `eventstoredb.test.ts` is where an EventStoreDB adapter (persistent subscriptions) plugs in, and
 * runs only when EVENTSTORE_URL is set.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ClaimLost, type ClaimedWork, type WorkQueue } from '../../../infra/work-queue/port.ts';

export interface WorkQueueFixture {
  /** A queue as one node sees it; nodes of one fixture share one backend. Claims last `claimTimeoutMs`. */
  node(name: string): WorkQueue;
  /** Lets `ms` pass for claim timeouts and back-offs (a moved clock, or a real wait for a remote engine). */
  elapse(ms: number): Promise<void>;
  cleanup(): Promise<void>;
}

export function defineWorkQueueContract(name: string, open: (options: { claimTimeoutMs: number }) => Promise<WorkQueueFixture>): void {
  const contract = suite<{ fixture: WorkQueueFixture }>(`work queue contract: ${name}`);
  const TIMEOUT = 1_000;
  contract.before.each(async (context) => {
    context.fixture = await open({ claimTimeoutMs: TIMEOUT });
  });
  contract.after.each(async (context) => {
    await context.fixture.cleanup();
  });

  contract('an enqueued item is claimed by one consumer with its payload; enqueuing its id again changes nothing', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    await a.enqueue('calls', { id: 'c1', payload: { call_id: 'c1' } });
    await b.enqueue('calls', { id: 'c1', payload: { call_id: 'other' } });
    const [claimed, ...more] = await a.claim('calls', { consumer: 'a', max: 10 });
    assert.equal(more, []);
    assert.equal([claimed!.id, claimed!.payload, claimed!.attempt, claimed!.tookOverFrom], ['c1', { call_id: 'c1' }, 1, null]);
    assert.equal(await b.claim('calls', { consumer: 'b', max: 10 }), [], 'a live claim is nobody else\'s');
    assert.equal(await b.claim('other', { consumer: 'b', max: 10 }), [], 'queues are separate');
    assert.is(await b.unfinished('calls'), 1);
  });

  contract('an acknowledged item is never delivered again', async ({ fixture }) => {
    const a = fixture.node('a');
    await a.enqueue('calls', { id: 'c1', payload: {} });
    const [claimed] = await a.claim('calls', { consumer: 'a', max: 1 });
    await a.ack(claimed!);
    await a.ack(claimed!);
    await fixture.elapse(TIMEOUT * 2);
    assert.equal(await fixture.node('b').claim('calls', { consumer: 'b', max: 10 }), []);
    assert.is(await a.unfinished('calls'), 0);
  });

  contract('two nodes claiming at once: every item is claimed exactly once', async ({ fixture }) => {
    const nodes = [fixture.node('a'), fixture.node('b'), fixture.node('c')];
    const ids = Array.from({ length: 60 }, (_, index) => `c${index}`);
    for (const id of ids) await nodes[0]!.enqueue('calls', { id, payload: { id } });
    const claimedBy = new Map<string, string[]>();
    await Promise.all(
      nodes.map(async (node, index) => {
        for (let round = 0; round < 40; round++) {
          for (const item of await node.claim('calls', { consumer: `n${index}`, max: 3 })) {
            claimedBy.set(item.id, [...(claimedBy.get(item.id) ?? []), `n${index}`]);
            await node.ack(item);
          }
        }
      }),
    );
    assert.equal([...claimedBy.keys()].sort(), [...ids].sort());
    assert.equal([...claimedBy.values()].filter((holders) => holders.length !== 1), []);
  });

  contract('a claim that is not extended expires: another node takes the item over, and the old holder has lost it', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    await a.enqueue('calls', { id: 'c1', payload: {} });
    const [first] = await a.claim('calls', { consumer: 'a', max: 1 });
    await fixture.elapse(TIMEOUT / 2);
    assert.equal(await b.claim('calls', { consumer: 'b', max: 1 }), [], 'not before the timeout');
    await fixture.elapse(TIMEOUT);
    const [second] = await b.claim('calls', { consumer: 'b', max: 1 });
    assert.equal([second?.id, second?.attempt, second?.tookOverFrom], ['c1', 2, 'a']);
    assert.instance(await a.ack(first!).catch((error: unknown) => error), ClaimLost);
    assert.instance(await a.extend(first!).catch((error: unknown) => error), ClaimLost);
    await b.ack(second!);
  });

  contract('a claim extended before it expires stays with its holder', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    await a.enqueue('calls', { id: 'c1', payload: {} });
    const [claimed] = await a.claim('calls', { consumer: 'a', max: 1 });
    for (let i = 0; i < 3; i++) {
      await fixture.elapse(TIMEOUT / 2);
      await a.extend(claimed!);
    }
    assert.equal(await b.claim('calls', { consumer: 'b', max: 1 }), []);
    await a.ack(claimed!);
  });

  contract('a nacked item comes back after its back-off and is parked once its attempts are spent', async ({ fixture }) => {
    const a = fixture.node('a');
    await a.enqueue('jobs', { id: 'j1', payload: { n: 1 }, maxAttempts: 2 });
    const [first] = await a.claim('jobs', { consumer: 'a', max: 1 });
    await a.nack(first!, { reason: 'speech engine busy', retryAfterMs: TIMEOUT / 2 });
    assert.equal(await a.claim('jobs', { consumer: 'a', max: 1 }), [], 'not during the back-off');
    await fixture.elapse(TIMEOUT / 2 + 50);
    const [second] = await fixture.node('b').claim('jobs', { consumer: 'b', max: 1 });
    assert.is(second?.attempt, 2);
    await fixture.node('b').nack(second!, { reason: 'speech engine busy' });
    await fixture.elapse(TIMEOUT * 2);
    assert.equal(await a.claim('jobs', { consumer: 'a', max: 1 }), []);
    const parked = await a.parked('jobs');
    assert.equal(parked.map(({ id, attempts, payload }) => ({ id, attempts, payload })), [{ id: 'j1', attempts: 2, payload: { n: 1 } }]);
    assert.match(parked[0]!.reason, /speech engine busy/);
    assert.is(await a.unfinished('jobs'), 0);
  });

  contract('a parked item is set aside for the operator, never delivered again', async ({ fixture }) => {
    const a = fixture.node('a');
    await a.enqueue('jobs', { id: 'j1', payload: {} });
    const [claimed] = await a.claim('jobs', { consumer: 'a', max: 1 });
    await a.park(claimed!, 'the recording is unreadable');
    await fixture.elapse(TIMEOUT * 2);
    assert.equal(await fixture.node('b').claim('jobs', { consumer: 'b', max: 1 }), []);
    assert.equal((await fixture.node('b').parked('jobs')).map((item) => item.reason), ['the recording is unreadable']);
  });

  contract('the operator requeues a parked item: any node claims it again with a fresh set of attempts; an item not parked is refused', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    await a.enqueue('jobs', { id: 'j1', payload: { job_id: 'j1' }, maxAttempts: 1 });
    const [claimed] = await a.claim('jobs', { consumer: 'a', max: 1 });
    await a.nack(claimed!, { reason: 'the disk was full' });
    assert.equal((await b.parked('jobs')).map((item) => item.id), ['j1']);
    await b.requeue('jobs', 'j1', 'operator');
    assert.equal(await b.parked('jobs'), []);
    assert.is(await a.unfinished('jobs'), 1);
    const [again] = await a.claim('jobs', { consumer: 'a', max: 1 });
    assert.equal([again?.id, again?.payload, again?.attempt], ['j1', { job_id: 'j1' }, 1]);
    try {
      await b.requeue('jobs', 'j1', 'operator');
      assert.unreachable('a claimed item is not parked');
    } catch (error) {
      assert.is((error as { code?: string }).code, 'invalid_state');
    }
  });

  contract('a waiting consumer wakes up when another node enqueues', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    let claimed: ClaimedWork[] = [];
    const waiting = (async () => {
      for (let round = 0; round < 50 && claimed.length === 0; round++) {
        await a.waitForWork('calls', 10_000);
        claimed = await a.claim('calls', { consumer: 'a', max: 1 });
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await b.enqueue('calls', { id: 'c9', payload: {} });
    await waiting;
    assert.equal(claimed.map((item) => item.id), ['c9']);
  });

  contract('a node waiting for an item another node works on sees it finish: acked, parked, or the wait aborted', async ({ fixture }) => {
    const a = fixture.node('a');
    const b = fixture.node('b');
    for (const id of ['d1', 'd2', 'd3']) await a.enqueue('deliveries', { id, payload: {} });
    const claimed = new Map((await b.claim('deliveries', { consumer: 'b', max: 3 })).map((item) => [item.id, item]));
    const never = new AbortController();
    const acked = a.waitUntilFinished('deliveries', 'd1', never.signal);
    const parked = a.waitUntilFinished('deliveries', 'd2', never.signal);
    const stopped = new AbortController();
    const aborted = a.waitUntilFinished('deliveries', 'd3', stopped.signal);
    let settled = false;
    void acked.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.is(settled, false, 'still claimed: not finished');
    await b.ack(claimed.get('d1')!);
    await b.park(claimed.get('d2')!, 'the receiver is gone');
    stopped.abort();
    assert.equal(await Promise.all([acked, parked, aborted]), ['acked', 'parked', 'aborted']);
    assert.is(await a.waitUntilFinished('deliveries', 'never-enqueued', never.signal), 'acked', 'nothing to wait for');
  });

  contract.run();
}

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeliveryQueue } from '../../../processes/webhooks/delivery-queue.ts';

// The queue over time: attempts are fake work the test finishes (or never finishes: a dead receiver).

function harness(limits = { total: 64, perWorkspace: 16, perWebhook: 8 }) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const queue = new DeliveryQueue(
    (deliveryId) =>
      new Promise<void>((resolve) => {
        started.push(deliveryId);
        finish.set(deliveryId, resolve);
      }),
    limits,
  );
  return { queue, started, done: (deliveryId: string) => finish.get(deliveryId)!() };
}
const flush = () => new Promise((resolve) => setImmediate(resolve));

test('given workspace A with 20 webhooks whose receivers never answer, when workspace B queues a delivery, then it starts at once', () => {
  const { queue, started } = harness();
  for (let event = 0; event < 4; event++) for (let n = 0; n < 20; n++) queue.enqueue('ws_a', `wh_a${n}`, `dlv_a${n}_${event}`);
  assert.is(queue.runningFor('ws_a'), 16, 'A holds its cap, not all 64 slots');
  queue.enqueue('ws_b', 'wh_b', 'dlv_b');
  assert.is(started.at(-1), 'dlv_b');
  assert.is(queue.runningFor('ws_b'), 1);
  assert.is(queue.runningFor(), 17);
});

test('given two workspaces with backlogs, then they take turns, and within a workspace its webhooks take turns', async () => {
  const { queue, started, done } = harness({ total: 1, perWorkspace: 1, perWebhook: 1 });
  queue.enqueue('ws_z', 'wh_z', 'plug');
  for (const deliveryId of ['a1_0', 'a1_1']) queue.enqueue('ws_a', 'wh_a1', deliveryId);
  for (const deliveryId of ['a2_0', 'a2_1']) queue.enqueue('ws_a', 'wh_a2', deliveryId);
  for (const deliveryId of ['b_0', 'b_1']) queue.enqueue('ws_b', 'wh_b', deliveryId);
  assert.equal(started, ['plug']);
  for (let n = 0; n < 6; n++) {
    done(started.at(-1)!);
    await flush();
  }
  assert.equal(started.slice(1), ['a1_0', 'b_0', 'a2_0', 'b_1', 'a1_1', 'a2_1']);
  done(started.at(-1)!);
  await queue.idle();
});

test('given a full queue, when attempts end, then the freed slots go round the workspaces in turn', async () => {
  const { queue, started, done } = harness({ total: 2, perWorkspace: 2, perWebhook: 2 });
  queue.enqueue('ws_a', 'wh_a1', 'a_0');
  queue.enqueue('ws_a', 'wh_a1', 'a_1');
  for (let n = 2; n < 5; n++) queue.enqueue('ws_a', 'wh_a2', `a_${n}`);
  for (let n = 0; n < 3; n++) queue.enqueue('ws_b', 'wh_b1', `b_${n}`);
  for (let n = 0; n < 3; n++) queue.enqueue('ws_c', 'wh_c1', `c_${n}`);
  assert.equal(started, ['a_0', 'a_1']);
  for (const deliveryId of ['a_0', 'a_1']) done(deliveryId);
  await flush();
  assert.equal(started.slice(2), ['a_2', 'b_0'], 'A (first in turn order, its other webhook), then B');
  for (const deliveryId of ['a_2', 'b_0']) done(deliveryId);
  await flush();
  assert.equal(started.slice(4), ['c_0', 'a_3'], 'then C, then A again');
});

test('given a dead workspace at its cap, when its attempts end, then it gets its turn again (nothing is dropped) and the queue drains', async () => {
  const { queue, started, done } = harness({ total: 8, perWorkspace: 2, perWebhook: 1 });
  for (let n = 0; n < 4; n++) queue.enqueue('ws_a', `wh_a${n}`, `a_${n}`);
  queue.enqueue('ws_b', 'wh_b', 'b_0');
  assert.equal(started, ['a_0', 'a_1', 'b_0']);
  for (const deliveryId of ['a_0', 'a_1', 'b_0']) done(deliveryId);
  await flush();
  assert.equal(started.slice(3), ['a_2', 'a_3']);
  for (const deliveryId of ['a_2', 'a_3']) done(deliveryId);
  await queue.idle();
  assert.is(queue.size, 0);
});

test('a delivery asked for again while it runs runs once more afterwards, in its workspace', async () => {
  const { queue, started, done } = harness();
  queue.enqueue('ws_a', 'wh_a', 'dlv_1');
  queue.enqueue('ws_a', 'wh_a', 'dlv_1');
  queue.enqueue('ws_a', 'wh_a', 'dlv_1');
  assert.equal(started, ['dlv_1']);
  done('dlv_1');
  await flush();
  assert.equal(started, ['dlv_1', 'dlv_1']);
  assert.is(queue.runningFor('ws_a'), 1);
  done('dlv_1');
  await queue.idle();
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { USAGE_HALF_LIFE_MS, WorkspaceTurns, type Turn } from '../../../infra/worker-threads/workspace-turns.ts';

// A freed slot goes to the waiting workspace that used the slots least lately: small tasks are not held to one
// per large task of a neighbour.

function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** Takes a turn for `owner`; the promise settles when granted. */
function request(turns: WorkspaceTurns, owner: string, granted: string[], signal?: AbortSignal): Promise<Turn> {
  return turns.take(owner, signal).then((turn) => {
    granted.push(owner);
    return turn;
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a workspace of small tasks goes before one of large tasks, every time it waits (not one task each in turn)', async () => {
  const time = clock();
  const turns = new WorkspaceTurns(1, time.now);
  const granted: string[] = [];
  // A holds the slot for a second, three times over; B's five small tasks arrive meanwhile.
  let running = await request(turns, 'A', granted);
  const a = [request(turns, 'A', granted), request(turns, 'A', granted)];
  const b = Array.from({ length: 5 }, () => request(turns, 'B', granted));
  time.advance(1_000);
  running.end();
  // Each of B's tasks takes 5 ms; A has used a second, so B's whole queue goes first.
  for (let index = 0; index < 5; index++) {
    await settle();
    running = await b[index]!;
    time.advance(5);
    running.end();
  }
  await settle();
  assert.equal(granted, ['A', 'B', 'B', 'B', 'B', 'B', 'A']);
  (await a[0]!).end();
  (await a[1]!).end();
  assert.is(turns.waitingCount, 0);
});

test('two busy workspaces share the slot by time: the one with less use lately goes next', async () => {
  const time = clock();
  const turns = new WorkspaceTurns(1, time.now);
  for (const [owner, ms] of [['A', 300], ['B', 100]] as const) {
    const turn = await turns.take(owner);
    time.advance(ms);
    turn.end();
  }
  const granted: string[] = [];
  const holder = await turns.take('C');
  const queued: Record<string, Promise<Turn>[]> = {
    A: [request(turns, 'A', granted), request(turns, 'A', granted)],
    B: [request(turns, 'B', granted), request(turns, 'B', granted), request(turns, 'B', granted)],
  };
  holder.end();
  for (let index = 0; index < 5; index++) {
    await settle();
    const owner = granted.at(-1)!;
    const turn = await queued[owner]!.shift()!;
    time.advance(100);
    turn.end();
  }
  // B (100 ms) runs until it has used as much as A (300 ms); then they alternate, the one used longer ago first.
  assert.equal(granted, ['B', 'B', 'A', 'B', 'A']);
});

test('use is forgotten with time: a workspace busy long ago is not held back now', async () => {
  const time = clock();
  const turns = new WorkspaceTurns(1, time.now);
  const turn = await turns.take('A');
  time.advance(10_000);
  turn.end();
  assert.ok(Math.abs(turns.usedLately('A') - 10_000) < 1);
  time.advance(USAGE_HALF_LIFE_MS);
  assert.ok(Math.abs(turns.usedLately('A') - 5_000) < 1, `halved after a half-life: ${turns.usedLately('A')}`);
  // Ten half-lives later A's ten seconds count ~10 ms: less than B's 50 ms of just now.
  time.advance(9 * USAGE_HALF_LIFE_MS);
  const b = await turns.take('B');
  time.advance(50);
  b.end();
  const granted: string[] = [];
  const holder = await turns.take('C');
  const waiting = [request(turns, 'B', granted), request(turns, 'A', granted)];
  holder.end();
  await settle();
  assert.equal(granted, ['A'], `A's use (${turns.usedLately('A').toFixed(1)}) is now below B's (${turns.usedLately('B').toFixed(1)})`);
  (await waiting[1]!).end();
  (await waiting[0]!).end();
});

test('equal use: round robin; ending a turn twice gives back one slot; an aborted wait leaves the queue', async () => {
  const time = clock();
  const turns = new WorkspaceTurns(1, time.now);
  const granted: string[] = [];
  const holder = await turns.take('X');
  const controller = new AbortController();
  const aborted = request(turns, 'A', granted, controller.signal);
  const others = [request(turns, 'B', granted), request(turns, 'C', granted)];
  controller.abort(new Error('client went away'));
  assert.is(await aborted.then(() => 'granted', (error: Error) => error.message), 'client went away');
  assert.is(turns.waitingCount, 2);
  holder.end();
  holder.end();
  await settle();
  assert.equal(granted, ['B'], 'one slot, one grant');
  (await others[0]!).end();
  await settle();
  assert.equal(granted, ['B', 'C']);
  (await others[1]!).end();
});

test.run();

// Requests whose bodies may be large take turns (http/middleware/large-body-turns.ts): read one at a time per
// workspace, handled one at a time server-wide, workspaces in turn.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LARGE_BODY_BYTES, MAX_BODY_BYTES } from '../../http/middleware/json-body.ts';
import { LargeBodyTurns } from '../../http/middleware/large-body-turns.ts';

function request(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/v1/campaigns', { method: 'POST', headers });
}

/** Something that runs until it is told to finish, recording when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { run: async () => { log.push(name); await done; return name; }, finish };
}

const settle = async () => {
  for (let index = 0; index < 5; index++) await new Promise((resolve) => setImmediate(resolve));
};

test('a declared body over the large size, or one of undeclared length (chunked), takes a turn; a small one, or one over the limit, does not', () => {
  assert.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(LARGE_BODY_BYTES + 1) })));
  assert.ok(LargeBodyTurns.mayBeLarge(request({ 'transfer-encoding': 'chunked' })));
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(LARGE_BODY_BYTES) })));
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': '120' })));
  // Over the limit: refused at once (413), never queued.
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(MAX_BODY_BYTES + 1) })));
});

test('handled one at a time; when one ends, the next turn goes to another workspace; a workspace\'s next body is read only once its previous one has its turn', async () => {
  const turns = new LargeBodyTurns();
  const reads: string[] = [];
  const handled: string[] = [];
  const read = (name: string) => async () => {
    reads.push(name);
    return name;
  };
  const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => held(handled, name));
  const results = [
    turns.run('A', undefined, read('a1'), a1!.run),
    turns.run('A', undefined, read('a2'), a2!.run),
    turns.run('A', undefined, read('a3'), a3!.run),
    turns.run('B', undefined, read('b1'), b1!.run),
  ];
  await settle();
  assert.equal(handled, ['a1']);
  assert.equal([...reads].sort(), ['a1', 'a2', 'b1'], 'A\'s third body stays unread while its second waits for a turn');
  assert.is(turns.inFlight, 1);
  assert.is(turns.waiting, 2);
  a1!.finish();
  await settle();
  assert.equal(handled, ['a1', 'b1'], 'B waited behind one of A\'s, not all three');
  b1!.finish();
  await settle();
  a2!.finish();
  await settle();
  a3!.finish();
  assert.equal(await Promise.all(results), ['a1', 'a2', 'a3', 'b1']);
  assert.equal(handled, ['a1', 'b1', 'a2', 'a3']);
  assert.is(turns.inFlight + turns.waiting, 0);
});

test('an upload that trickles holds its own workspace\'s queue, never another\'s turn', async () => {
  const turns = new LargeBodyTurns();
  const handled: string[] = [];
  let arrive!: (body: string) => void;
  const trickling = turns.run('A', undefined, () => new Promise<string>((resolve) => (arrive = resolve)), async (body) => {
    handled.push(body);
    return body;
  });
  const nextOfA = turns.run('A', undefined, async () => 'a2', async (body) => {
    handled.push(body);
    return body;
  });
  const ofB = await turns.run('B', undefined, async () => 'b1', async (body) => {
    handled.push(body);
    return body;
  });
  assert.is(ofB, 'b1');
  assert.equal(handled, ['b1'], 'A\'s second waits behind A\'s upload; B did not');
  arrive('a1');
  assert.equal(await Promise.all([trickling, nextOfA]), ['a1', 'a2']);
});

test('a request whose client leaves while it waits leaves the queue without running; a failing one gives its turn back', async () => {
  const turns = new LargeBodyTurns();
  const handled: string[] = [];
  const first = held(handled, 'first');
  const running = turns.run('A', undefined, async () => 'first', first.run);
  await settle();
  const gone = new AbortController();
  const waiting = turns.run('B', gone.signal, async () => 'gone', held(handled, 'gone').run);
  await settle();
  gone.abort(new Error('Client connection prematurely closed.'));
  let refused = false;
  await waiting.catch(() => (refused = true));
  assert.ok(refused, 'the abandoned request is refused');
  first.finish();
  await running;
  await turns
    .run('A', undefined, async () => 'failing', async () => {
      throw new Error('invalid body');
    })
    .catch(() => undefined);
  const after = held(handled, 'after');
  const next = turns.run('B', undefined, async () => 'after', after.run);
  await settle();
  after.finish();
  assert.is(await next, 'after');
  assert.equal(handled, ['first', 'after'], 'the abandoned request never ran');
  assert.is(turns.inFlight + turns.waiting, 0);
});

test.run();

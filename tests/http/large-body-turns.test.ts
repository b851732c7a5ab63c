// Requests whose bodies may be large take turns, one at a time, workspaces in turn (http/middleware/large-body-turns.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LARGE_BODY_BYTES, MAX_BODY_BYTES } from '../../http/middleware/json-body.ts';
import { LargeBodyTurns } from '../../http/middleware/large-body-turns.ts';

function request(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/v1/campaigns', { method: 'POST', headers });
}

/** A piece of work that runs until it is told to finish, recording when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => { log.push(name); await done; return name; }, finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a declared body over the large size, or one of undeclared length (chunked), takes a turn; a small one, or one over the limit, does not', () => {
  assert.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(LARGE_BODY_BYTES + 1) })));
  assert.ok(LargeBodyTurns.mayBeLarge(request({ 'transfer-encoding': 'chunked' })));
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(LARGE_BODY_BYTES) })));
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': '120' })));
  // Over the limit: refused at once (413), never queued.
  assert.not.ok(LargeBodyTurns.mayBeLarge(request({ 'content-length': String(MAX_BODY_BYTES + 1) })));
});

test('one at a time; when it ends, the next turn goes to another workspace before the same one goes again', async () => {
  const turns = new LargeBodyTurns();
  const started: string[] = [];
  const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => held(started, name));
  const results = [turns.run('A', undefined, a1!.work), turns.run('A', undefined, a2!.work), turns.run('A', undefined, a3!.work), turns.run('B', undefined, b1!.work)];
  await settle();
  assert.equal(started, ['a1']);
  a1!.finish();
  await settle();
  assert.equal(started, ['a1', 'b1'], 'B waited behind one of A\'s, not all three');
  b1!.finish();
  await settle();
  a2!.finish();
  await settle();
  a3!.finish();
  assert.equal(await Promise.all(results), ['a1', 'a2', 'a3', 'b1']);
  assert.equal(started, ['a1', 'b1', 'a2', 'a3']);
});

test('a request whose client leaves while it waits leaves the queue without running; a failing one gives its turn back', async () => {
  const turns = new LargeBodyTurns();
  const started: string[] = [];
  const first = held(started, 'first');
  const running = turns.run('A', undefined, first.work);
  const gone = new AbortController();
  const waiting = turns.run('B', gone.signal, held(started, 'gone').work);
  gone.abort(new Error('Client connection prematurely closed.'));
  let refused = false;
  await waiting.catch(() => (refused = true));
  assert.ok(refused, 'the abandoned request is refused');
  first.finish();
  await running;
  const failing = turns.run('A', undefined, async () => {
    throw new Error('invalid body');
  });
  await failing.catch(() => undefined);
  const after = held(started, 'after');
  const next = turns.run('B', undefined, after.work);
  await settle();
  after.finish();
  assert.is(await next, 'after');
  assert.equal(started, ['first', 'after'], 'the abandoned request never ran');
});

test.run();

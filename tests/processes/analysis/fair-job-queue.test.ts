import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FairJobQueue, workspaceCap, type QueuedJob } from '../../../processes/analysis/fair-job-queue.ts';

// The queue's choices: given the jobs queued (and those that ended), which job starts next.

type LaneName = 'audio' | 'transcript';
const audio = (jobId: string, workspaceId: string): QueuedJob<LaneName> => ({ jobId, workspaceId, lane: 'audio' });
const transcript = (jobId: string, workspaceId: string): QueuedJob<LaneName> => ({ jobId, workspaceId, lane: 'transcript' });

function given(sizes: { audio: number; transcript?: number }, ...jobs: Array<QueuedJob<LaneName>>): FairJobQueue<LaneName> {
  const queue = new FairJobQueue<LaneName>({ transcript: sizes.transcript ?? 1, audio: sizes.audio });
  for (const job of jobs) queue.add(job);
  return queue;
}

/** Starts every job the queue lets start now, in its order. */
function started(queue: FairJobQueue<LaneName>): string[] {
  const ids: string[] = [];
  for (let job = queue.next(); job !== undefined; job = queue.next()) ids.push(job.jobId);
  return ids;
}

/** `count` jobs `prefix1`... of one workspace. */
function many(prefix: string, workspaceId: string, count: number, lane: LaneName = 'audio'): Array<QueuedJob<LaneName>> {
  return Array.from({ length: count }, (_, index) => ({ jobId: `${prefix}${index + 1}`, workspaceId, lane }));
}

test('the cap: all slots of a lane but one per workspace, and the one slot of a lane of one', () => {
  assert.equal([1, 2, 3, 4, 8].map(workspaceCap), [1, 1, 2, 3, 7]);
});

test('given two workspaces with jobs waiting, then they take the free slots in turn, whoever queued first or most', () => {
  const queue = given({ audio: 4 }, ...many('a', 'A', 3), ...many('b', 'B', 2));
  assert.equal(started(queue), ['a1', 'b1', 'a2', 'b2']);
  queue.finish('b1');
  assert.equal(started(queue), ['a3']);
});

test('given three workspaces, then round-robin: each served once before any is served twice', () => {
  const queue = given({ audio: 10 }, ...many('a', 'A', 3), ...many('b', 'B', 2), audio('c1', 'C'));
  assert.equal(started(queue), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test('given one workspace alone, then it holds all slots but one; the held-back slot goes at once to the next workspace that submits', () => {
  const queue = given({ audio: 3 }, ...many('a', 'A', 5));
  assert.equal(started(queue), ['a1', 'a2']);
  queue.add(audio('b1', 'B'));
  assert.equal(started(queue), ['b1']);
  queue.finish('a1');
  assert.equal(started(queue), ['a3']);
});

test('given a lane of two, then a workspace runs one job at a time and another workspace still finds the second slot', () => {
  const queue = given({ audio: 2 }, ...many('a', 'A', 3));
  assert.equal(started(queue), ['a1']);
  queue.add(audio('b1', 'B'));
  assert.equal(started(queue), ['b1']);
  queue.finish('a1');
  assert.equal(started(queue), ['a2']);
});

test('given a slot frees, then it goes to the waiting workspace with the fewest jobs running, not to the one served longest ago', () => {
  // A holds its cap (3 of 4), C the fourth slot; then B, A and C queue more.
  const queue = given({ audio: 4 }, ...many('a', 'A', 3), audio('c1', 'C'));
  assert.equal(started(queue), ['a1', 'c1', 'a2', 'a3']);
  queue.add(audio('b1', 'B'));
  queue.add(audio('a4', 'A'));
  queue.add(audio('c2', 'C'));
  queue.finish('a1');
  assert.equal(started(queue), ['b1'], 'B runs nothing; A still runs two');
  queue.finish('c1');
  assert.equal(started(queue), ['c2'], 'C and B now run one each, A two');
  queue.finish('b1');
  assert.equal(started(queue), ['a4']);
});

test('given the audio lane full, then transcript jobs still start in their own lane; and audio jobs never take transcript slots', () => {
  const queue = given({ audio: 1, transcript: 2 }, ...many('a', 'A', 3), ...many('t', 'A', 3, 'transcript'), transcript('bt1', 'B'), audio('b1', 'B'));
  assert.equal(started(queue).sort(), ['a1', 'bt1', 't1']);
  assert.is(queue.waiting, 5);
  queue.finish('t1');
  assert.equal(started(queue), ['t2']);
  queue.finish('a1');
  assert.equal(started(queue), ['b1'], "B's audio job goes before A's second: B runs nothing in the lane");
});

test('a job queued twice runs once: adding it again while it waits or runs changes nothing; once finished it may be queued again', () => {
  const queue = given({ audio: 2 });
  assert.ok(queue.add(audio('a1', 'A')));
  assert.not.ok(queue.add(audio('a1', 'A')));
  assert.not.ok(queue.add(transcript('a1', 'A')), 'the same id in another lane is the same job');
  assert.is(queue.waiting, 1);
  assert.equal(started(queue), ['a1']);
  assert.not.ok(queue.add(audio('a1', 'A')));
  assert.equal(started(queue), []);
  queue.finish('a1');
  queue.finish('a1');
  assert.equal([queue.waiting, queue.running], [0, 0]);
  assert.ok(queue.add(audio('a1', 'A')));
  assert.equal(started(queue), ['a1']);
});

test('finishing a job that is only waiting, or unknown, changes nothing; a lane needs at least one slot', () => {
  const queue = given({ audio: 1 }, audio('a1', 'A'), audio('a2', 'A'));
  assert.equal(started(queue), ['a1']);
  queue.finish('a2');
  queue.finish('nobody');
  assert.equal([queue.waiting, queue.running], [1, 1]);
  assert.equal(started(queue), []);
  assert.throws(() => new FairJobQueue({ audio: 0 }), /positive integer/);
});

test.run();

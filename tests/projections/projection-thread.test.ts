import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { ProjectionThread } from '../../projections/projection-thread.ts';
import { ReadModelLanes } from '../../projections/read-model-lanes.ts';
import { allProjections, readModelProjections, searchProjections } from '../../projections/index.ts';
import { testRuntime } from '../support/runtime.ts';
import { niceByThread, threadsOfThisProcess } from '../support/proc-threads.ts';

const BOOTSTRAP = new URL('../../infra/worker-threads/typescript-worker.mjs', import.meta.url).href;
const PROJECTION_WORKER = new URL('../../projection-worker.ts', import.meta.url).href;
const CRASHING_ONCE = new URL('../support/crashing-projection-worker.ts', import.meta.url).href;

async function createWorkspace(runtime: ReturnType<typeof testRuntime>['runtime'], workspaceId: string) {
  return runtime.commands.handle(
    workspaceDecider,
    workspaceStream(workspaceId),
    { type: 'CreateWorkspace', workspaceId, name: workspaceId, now: runtime.clock.now() },
    { workspaceId, actor: 'test', now: runtime.clock.now() },
  );
}

test('the server applies events on the projection thread: read-your-writes and status work from the main thread', async () => {
  const { runtime, remove } = testRuntime({ projectionThread: true });
  assert.instance(runtime.projections, ReadModelLanes);
  await runtime.start();
  try {
    const created = await createWorkspace(runtime, 'ws_thread');
    assert.ok(await runtime.projections.waitForPosition(created.position, 20_000), 'the worker reported the position');
    const row = runtime.readDb.prepare('SELECT name FROM workspaces WHERE workspace_id = ?').get('ws_thread') as { name: string } | undefined;
    assert.is(row?.name, 'ws_thread');
    // The search index is a lane of its own (search.db, its own thread): a search waits for it to catch up.
    assert.ok(await runtime.projections.waitForSearchIndex(20_000), 'the search lane thread reached the read lane');
    const statuses = await runtime.projections.status();
    assert.ok(statuses.every((status) => status.lag === 0), JSON.stringify(statuses));
    assert.ok(statuses.some((status) => status.name === 'transcript_search'), 'the search lane reports its own status');
  } finally {
    await runtime.close();
    remove();
  }
});

test('a write wakes the waiting projection worker at once, not at its next poll of the file (every 100 ms)', async () => {
  const { runtime, remove } = testRuntime();
  const thread = new ProjectionThread(new ProjectionRunner(runtime.store, runtime.readDb, allProjections), runtime.store, { bootstrap: BOOTSTRAP, workerModule: PROJECTION_WORKER, settings: runtime.config });
  thread.start();
  try {
    for (let waited = 0; !thread.applyingOnWorker; waited += 50) {
      assert.ok(waited < 60_000, 'the worker started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const prompt: number[] = [];
    for (let index = 0; index < 10; index++) {
      await new Promise((resolve) => setTimeout(resolve, 20)); // the worker is waiting for events
      const created = await createWorkspace(runtime, `ws_woken_${index}`);
      const started = performance.now();
      assert.ok(await thread.waitForPosition(created.position, 5_000));
      prompt.push(performance.now() - started);
    }
    // Polling alone would apply within 25 ms a quarter of the time.
    assert.ok(prompt.filter((ms) => ms < 25).length >= 8, `applied after ${prompt.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  } finally {
    await thread.stop();
    await runtime.close();
    remove();
  }
});

test('SEARCH_INDEX_THREAD_NICE: the search lane\'s thread runs at the nice value given; the read lane\'s and this thread keep theirs', async () => {
  const { runtime, remove } = testRuntime();
  const before = niceByThread();
  const settings = { ...runtime.config, SEARCH_INDEX_THREAD_NICE: 7 };
  const lanes = [
    new ProjectionThread(new ProjectionRunner(runtime.store, runtime.readDb, readModelProjections), runtime.store, { bootstrap: BOOTSTRAP, workerModule: PROJECTION_WORKER, settings, lane: 'read' }),
    new ProjectionThread(new ProjectionRunner(runtime.store, runtime.searchDb, searchProjections), runtime.store, { bootstrap: BOOTSTRAP, workerModule: PROJECTION_WORKER, settings, lane: 'search' }),
  ];
  for (const lane of lanes) lane.start();
  try {
    for (let waited = 0; !lanes.every((lane) => lane.applyingOnWorker); waited += 50) {
      assert.ok(waited < 60_000, 'the workers started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const started = [...threadsOfThisProcess()].filter(([tid]) => !before.has(tid)).map(([, thread]) => thread);
    assert.is(started.filter(({ nice }) => nice === 7).length, 1, `new threads: ${JSON.stringify(started)}`);
    // Named for `top -H`: the lowered one is the search index's.
    assert.equal(started.filter(({ name }) => name === 'search-index').map(({ nice }) => nice), [7], JSON.stringify(started));
    assert.equal(started.filter(({ name }) => name === 'read-models').length, 1, JSON.stringify(started));
    assert.is(niceByThread().get(process.pid), before.get(process.pid));
  } finally {
    await Promise.all(lanes.map((lane) => lane.stop()));
    await runtime.close();
    remove();
  }
});

test('a projection thread that dies is started again and carries on from the checkpoints', async () => {
  const { runtime, remove } = testRuntime();
  const runner = new ProjectionRunner(runtime.store, runtime.readDb, allProjections);
  const thread = new ProjectionThread(runner, runtime.store, { bootstrap: BOOTSTRAP, workerModule: CRASHING_ONCE, settings: runtime.config });
  thread.start();
  try {
    const created = await createWorkspace(runtime, 'ws_restarted');
    assert.ok(await thread.waitForPosition(created.position, 30_000), 'the restarted worker applied the event');
    const row = runtime.readDb.prepare('SELECT name FROM workspaces WHERE workspace_id = ?').get('ws_restarted');
    assert.ok(row);
  } finally {
    await thread.stop();
    await runtime.close();
    remove();
  }
});

test.run();

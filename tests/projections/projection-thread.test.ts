import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { workspaceDecider, workspaceStream } from '../../domain/workspace.ts';
import { ProjectionRunner } from '../../projections/runner.ts';
import { ProjectionThread } from '../../projections/projection-thread.ts';
import { ReadModelLanes } from '../../projections/read-model-lanes.ts';
import { allProjections } from '../../projections/index.ts';
import { testRuntime } from '../support/runtime.ts';

const BOOTSTRAP = new URL('../../infra/worker-threads/typescript-worker.mjs', import.meta.url).href;
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

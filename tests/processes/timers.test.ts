import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime, RuntimePorts } from '../../composition.ts';
import { timerDecider, timerStream } from '../../domain/timer.ts';
import type { ManualClock } from '../../infra/clock/manual.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import type { ProcessManager } from '../../processes/process-manager.ts';
import { eventually, testRuntime } from '../support/runtime.ts';

/** A process manager that records every TimerFired it sees, as the retry and webhook processes will. */
function recorder(seen: RecordedEvent[]): (ports: RuntimePorts) => ProcessManager[] {
  return () => [{ name: 'timer-recorder', eventTypes: ['TimerFired'], handle: async (event) => void seen.push(event as RecordedEvent) }];
}

async function firedEvents(runtime: Runtime, timerId: string): Promise<number> {
  return (await runtime.store.readStream(timerStream(timerId))).filter((event) => event.type === 'TimerFired').length;
}

test('a timer due in four hours fires once the manual clock has moved four hours, exactly once, across a restart', async () => {
  const seenBefore: RecordedEvent[] = [];
  const first = testRuntime({ processes: recorder(seenBefore) });
  await first.runtime.start();
  const now = first.runtime.clock.now();
  await first.runtime.commands.handle(
    timerDecider,
    timerStream('retry-1'),
    { type: 'ScheduleTimer', timerId: 'retry-1', kind: 'test', dueAt: new Date(now.getTime() + 4 * 3600_000), payload: { contact: 7 } },
    { workspaceId: 'ws_1', actor: 'test', now },
  );
  await first.runtime.projections.catchUp();
  (first.runtime.clock as ManualClock).advance(3 * 3600);
  await first.runtime.timers.fireDue();
  assert.is(await firedEvents(first.runtime, 'retry-1'), 0, 'not due after three hours');
  await first.runtime.close();

  // Restart on the same DATA_DIR: the clock and the pending timer are still there.
  const seenAfter: RecordedEvent[] = [];
  const second = testRuntime({ dataDir: first.dataDir, processes: recorder(seenAfter) });
  await second.runtime.start();
  assert.equal(second.runtime.clock.now().toISOString(), new Date(now.getTime() + 3 * 3600_000).toISOString());
  (second.runtime.clock as ManualClock).advance(3600);
  await eventually(async () => (await firedEvents(second.runtime, 'retry-1')) === 1, 5_000, 'the timer to fire');
  await eventually(() => seenAfter.length === 1, 5_000, 'the process manager to see it');
  assert.equal(seenAfter[0]!.data.payload, { contact: 7 });
  assert.is(seenAfter[0]!.metadata.workspace_id, 'ws_1');
  // More clock moves and scheduler rounds never fire it again.
  (second.runtime.clock as ManualClock).advance(3600);
  await second.runtime.timers.fireDue();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is(await firedEvents(second.runtime, 'retry-1'), 1);
  assert.is(seenAfter.length, 1);
  await second.runtime.close();

  // A third start replays nothing: the process manager's checkpoint is past the event.
  const seenThird: RecordedEvent[] = [];
  const third = testRuntime({ dataDir: first.dataDir, processes: recorder(seenThird) });
  await third.runtime.start();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.is(seenThird.length, 0);
  await third.runtime.close();
  first.remove();
});

test('a cancelled timer never fires', async () => {
  const { runtime, remove } = testRuntime();
  await runtime.start();
  const now = runtime.clock.now();
  const context = { workspaceId: 'ws_1', actor: 'test', now };
  await runtime.commands.handle(timerDecider, timerStream('t-2'), { type: 'ScheduleTimer', timerId: 't-2', kind: 'test', dueAt: new Date(now.getTime() + 60_000), payload: {} }, context);
  await runtime.commands.handle(timerDecider, timerStream('t-2'), { type: 'CancelTimer', now, reason: 'deleted' }, context);
  await runtime.projections.catchUp();
  (runtime.clock as ManualClock).advance(120);
  await runtime.timers.fireDue();
  assert.is(await firedEvents(runtime, 't-2'), 0);
  await runtime.close();
  remove();
});

test.run();

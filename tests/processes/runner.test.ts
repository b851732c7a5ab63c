import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Runtime } from '../../composition.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import type { ProcessManager } from '../../processes/process-manager.ts';
import { cli } from '../support/server.ts';
import { eventually, testRuntime } from '../support/runtime.ts';

// What the process runner does with failures: infrastructure failures are retried until they pass (never
// skipped), logic failures go to the dead-letter list, which the operator CLI shows and retries.

const metadata = { workspace_id: 'ws_1', actor: 'test', correlation_id: 'c', causation_id: null, occurred_at: '2026-03-01T10:00:00.000Z', schema_version: 1 };

async function append(runtime: Runtime, stream: string, type: string, data: Record<string, unknown> = {}): Promise<number> {
  return (await runtime.store.append(stream, [{ type, data, metadata }], { expectedRevision: 'any' })).position;
}

/** A manager that runs `behaviour` on each Probe event and records what it handled. */
function probe(behaviour: (event: RecordedEvent, attempt: number) => void) {
  const handled: string[] = [];
  const attempts = new Map<string, number>();
  const manager: ProcessManager = {
    name: 'probe',
    eventTypes: ['Probe'],
    async handle(event) {
      const recorded = event as RecordedEvent;
      const attempt = (attempts.get(recorded.id) ?? 0) + 1;
      attempts.set(recorded.id, attempt);
      behaviour(recorded, attempt);
      handled.push(String(recorded.data.name));
    },
  };
  return { manager, handled, attempts };
}

test('an infrastructure failure is retried until it passes, however long: the event is never skipped', async () => {
  // 12 failures: the old runner gave up (and skipped the event) after 8.
  const { manager, handled, attempts } = probe((event, attempt) => {
    if (event.data.name === 'flaky' && attempt <= 12) throw new Error('SQLITE_BUSY: database is locked');
  });
  const { runtime, remove } = testRuntime({ processes: () => [manager], processRunner: { backoff: { baseMs: 1, maxMs: 5 } } });
  await runtime.start();
  try {
    await append(runtime, 'probe-1', 'Probe', { name: 'flaky' });
    await append(runtime, 'probe-1', 'Probe', { name: 'after' });
    await eventually(() => handled.includes('after'), 10_000, 'the next event');
    assert.equal(handled, ['flaky', 'after']);
    assert.is([...attempts.values()][0], 13);
    const [status] = await runtime.processes.status();
    assert.equal([status!.retries, status!.dead_letters], [12, 0]);
  } finally {
    await runtime.close();
    remove();
  }
});

test('a logic failure goes to the dead-letter list and the manager moves on; the operator CLI lists it and retries it', async () => {
  let fixed = false;
  const { manager, handled } = probe((event) => {
    if (event.data.name === 'poison' && !fixed) throw new DomainError('invalid_state', 'not expected here');
  });
  const { runtime, dataDir, remove } = testRuntime({ processes: () => [manager] });
  await runtime.start();
  try {
    const poison = await append(runtime, 'probe-2', 'Probe', { name: 'poison' });
    await append(runtime, 'probe-2', 'Probe', { name: 'healthy' });
    await eventually(() => handled.includes('healthy'), 10_000, 'the event after the poison');
    assert.ok(runtime.processes.checkpoint('probe') > poison, 'the checkpoint moved past the dead letter');

    const listed = await cli(dataDir, ['processes', 'dead-letters', '--json']);
    assert.is(listed.code, 0, listed.stderr);
    const [letter] = JSON.parse(listed.stdout) as Array<{ id: number; process: string; position: number; event_type: string; error: string; status: string }>;
    assert.equal([letter!.process, letter!.position, letter!.event_type, letter!.status], ['probe', poison, 'Probe', 'dead']);
    assert.match(letter!.error, /invalid_state: not expected here/);

    fixed = true;
    const retried = await cli(dataDir, ['processes', 'retry', String(letter!.id), '--json']);
    assert.is(retried.code, 0, retried.stderr);
    assert.is((JSON.parse(retried.stdout) as { status: string }).status, 'resolved');
    assert.equal(handled, ['healthy', 'poison']);
    const refused = await cli(dataDir, ['processes', 'retry', String(letter!.id)]);
    assert.is(refused.code, 2, 'a resolved letter is not retried again');
    const status = await cli(dataDir, ['processes', 'status', '--json']);
    assert.equal((JSON.parse(status.stdout) as Array<{ name: string; dead_letters: number }>).map((row) => [row.name, row.dead_letters]), [['probe', 0]]);
  } finally {
    await runtime.close();
    remove();
  }
});

test('a manager reads past other types without handling them: no backlog, and its checkpoint follows within a second', async () => {
  const { manager, handled } = probe(() => undefined);
  const { runtime, dataDir, remove } = testRuntime({ processes: () => [manager] });
  await runtime.start();
  try {
    await append(runtime, 'probe-1', 'Probe', { name: 'first' });
    for (let index = 0; index < 50; index++) await append(runtime, `other-${index}`, 'SomethingElse');
    const head = await runtime.store.headPosition();
    await eventually(async () => (await runtime.processes.status())[0]!.backlog === 0, 5_000, 'no backlog past events of other types');
    assert.equal(handled, ['first']);
    await eventually(() => runtime.processes.checkpoint('probe') === head, 5_000, 'the saved checkpoint moved past them');
  } finally {
    await runtime.close();
  }
  // Started again, it handles nothing twice and goes on with the next event of its type.
  const again = probe(() => undefined);
  const restarted = testRuntime({ dataDir, processes: () => [again.manager] });
  await restarted.runtime.start();
  try {
    await append(restarted.runtime, 'probe-1', 'Probe', { name: 'second' });
    await eventually(() => again.handled.includes('second'), 5_000, 'the next event');
    assert.equal(again.handled, ['second']);
  } finally {
    await restarted.runtime.close();
    remove();
  }
});

test.run();

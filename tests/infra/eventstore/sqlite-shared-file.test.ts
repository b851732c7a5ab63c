/**
 * The embedded store shared by several processes (cluster nodes on one EVENTSTORE_FILE): optimistic concurrency
 * and fencing must hold between processes, not only between the appends of one process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FencedOff, WrongExpectedVersion } from '../../../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { projectDirectory } from '../../support/server.ts';
import { event } from './contract.ts';

const shared = suite('sqlite event store shared by processes');

const APPENDS_PER_WRITER = 150;

// Read the stream's revision, append with it as the expected revision, and on a conflict read again: the
// increment loop every command handler runs. `seen` records the revision the writer decided on.
const COUNTER_WRITER = `
import { createSqliteEventStore } from './infra/eventstore/sqlite.ts';
import { WrongExpectedVersion } from './infra/eventstore/port.ts';
const [path, writer, count] = process.argv.slice(1);
const store = createSqliteEventStore(path, { synchronous: 'normal' });
const metadata = { workspace_id: null, actor: writer, correlation_id: 'c', causation_id: null, occurred_at: new Date().toISOString(), schema_version: 1 };
let conflicts = 0;
for (let index = 0; index < Number(count); index++) {
  for (;;) {
    const last = (await store.readStream('counter')).at(-1);
    const seen = last ? last.revision : -1;
    try {
      await store.append('counter', [{ type: 'Incremented', data: { writer, index, seen }, metadata }], { expectedRevision: seen === -1 ? 'no_stream' : seen });
      break;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
      conflicts++;
    }
  }
}
await store.close();
process.stdout.write(JSON.stringify({ conflicts }));
`;

function runWriter(path: string, writer: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', COUNTER_WRITER, path, writer, String(APPENDS_PER_WRITER)], {
      cwd: projectDirectory,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

shared('two processes appending to one stream with expected revisions: no lost update, no duplicate revision', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-shared-'));
  const path = join(directory, 'events.db');
  try {
    // Create the file (and its table) first, so the writers do not race to create it.
    const setup = createSqliteEventStore(path);
    await setup.close();
    const results = await Promise.all([runWriter(path, 'one'), runWriter(path, 'two')]);
    assert.equal(results.map((r) => r.code), [0, 0]);
    const store = createSqliteEventStore(path);
    try {
      const events = await store.readStream('counter');
      assert.equal(events.map((e) => e.revision), Array.from({ length: 2 * APPENDS_PER_WRITER }, (_, index) => index));
      // Every append was decided on the revision just before it: no writer overwrote another's increment.
      for (const recorded of events) assert.is(recorded.data.seen, recorded.revision - 1, `revision ${recorded.revision}`);
      for (const writer of ['one', 'two']) {
        const indexes = events.filter((e) => e.data.writer === writer).map((e) => e.data.index);
        assert.equal(indexes, Array.from({ length: APPENDS_PER_WRITER }, (_, index) => index), `${writer}: each increment once, in order`);
      }
    } finally {
      await store.close();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

shared('a fenced append is refused once another connection moved the fence stream, and leaves nothing behind', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-fence-'));
  const path = join(directory, 'events.db');
  const oldLeader = createSqliteEventStore(path);
  const newLeader = createSqliteEventStore(path);
  try {
    await oldLeader.append('terms', [event('TermStarted')], { expectedRevision: 'no_stream' });
    const fence = { stream: 'terms', revision: 0 };
    await oldLeader.append('work', [event('Done', { by: 'old' })], { expectedRevision: 'any', fence });
    // Another node starts term 1.
    await newLeader.append('terms', [event('TermStarted')], { expectedRevision: 0 });
    const head = await oldLeader.headPosition();
    try {
      await oldLeader.append('work', [event('Done', { by: 'old, late' })], { expectedRevision: 'any', fence });
      assert.unreachable('the old term is fenced off');
    } catch (error) {
      assert.instance(error, FencedOff);
      assert.is((error as FencedOff).actual, 1);
    }
    assert.is(await oldLeader.headPosition(), head, 'nothing appended');
    await newLeader.append('work', [event('Done', { by: 'new' })], { expectedRevision: 'any', fence: { stream: 'terms', revision: 1 } });
    assert.equal((await newLeader.readStream('work')).map((e) => e.data.by), ['old', 'new']);
  } finally {
    await oldLeader.close();
    await newLeader.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

shared('in one group commit, a fenced-off append fails alone: the others of the group are stored', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'es-fence-group-'));
  const store = createSqliteEventStore(join(directory, 'events.db'));
  try {
    await store.append('terms', [event('TermStarted'), event('TermStarted')], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      store.append('a', [event('A')], { expectedRevision: 'no_stream' }),
      store.append('b', [event('B')], { expectedRevision: 'no_stream', fence: { stream: 'terms', revision: 0 } }),
      store.append('c', [event('C')], { expectedRevision: 'no_stream', fence: { stream: 'terms', revision: 1 } }),
      store.append('a', [event('Stale')], { expectedRevision: 'no_stream' }),
    ]);
    assert.equal(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    assert.instance((outcomes[1] as PromiseRejectedResult).reason, FencedOff);
    assert.instance((outcomes[3] as PromiseRejectedResult).reason, WrongExpectedVersion);
    const all = await store.readAll({ after: 0, limit: 10 });
    assert.equal(all.map((e) => e.position), [1, 2, 3, 4], 'gap-free');
    assert.equal(all.map((e) => e.type), ['TermStarted', 'TermStarted', 'A', 'C']);
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
});

shared.run();

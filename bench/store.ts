/**
 * npm run bench:store — the embedded event store over 1,000,000 events of ~300 bytes of JSON:
 *   - append throughput, batches of 100 events per append (1M events) and of 1 (a 20,000-event sample: one
 *     transaction per event is fsync-bound, 1M of them would take minutes and say nothing new);
 *   - read-all throughput;
 *   - projection catch-up into a realistic read model (calls with status, disposition and counters);
 *   - the limit: raw better-sqlite3 inserts of equivalent rows into an equivalent table, batches of 100, same pragmas.
 * Prints each figure and its ratio to the raw insert. Env: BENCH_EVENTS (default 1000000), EVENTSTORE_SYNC (full).
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openReadModelDatabase } from '../composition.ts';
import type { EventToAppend, RecordedEvent } from '../infra/eventstore/port.ts';
import { createSqliteEventStore } from '../infra/eventstore/sqlite.ts';
import type { Projection } from '../projections/projection.ts';
import { ProjectionRunner } from '../projections/runner.ts';

const TOTAL = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const SINGLE_SAMPLE = Math.min(20_000, TOTAL);
const synchronous = process.env.EVENTSTORE_SYNC === 'normal' ? 'normal' : 'full';
const directory = mkdtempSync(join(tmpdir(), 'bench-store-'));

const dispositions = ['interested', 'not_interested', 'callback', 'not_reachable', 'dnd', 'escalated'];
function realisticEvent(index: number): EventToAppend {
  const callId = `cal_${(index >> 2).toString(36).padStart(20, '0')}`;
  const kind = index % 4;
  const type = ['CallPlaced', 'CallAnswered', 'CallConversationRecorded', 'CallEnded'][kind]!;
  const data: Record<string, unknown> =
    kind === 0
      ? { call_id: callId, campaign_id: 'cmp_01jd8k3m9q2x7c4v5b6n8p0r2t', contact: { phone: `+9198${String(index).padStart(8, '0')}`, name: 'Ravi Kumar' }, language: 'hi-IN', started_at: '2026-03-01T10:00:00.000Z' }
      : kind === 1
        ? { call_id: callId, answered_at: '2026-03-01T10:00:04.000Z', ring_seconds: 4 }
        : kind === 2
          ? { call_id: callId, turns: [{ speaker: 'agent', text: 'Namaste Ravi ji, loan renewal ke baare mein', start: 0, end: 3.2 }] }
          : { call_id: callId, status: 'completed', disposition: dispositions[index % 6], duration_seconds: 42, ended_at: '2026-03-01T10:00:46.000Z' };
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { workspace_id: 'ws_01jd8k3m9q2x7c4v5b6n8p0r2t', actor: 'dialer', correlation_id: randomUUID(), causation_id: null, occurred_at: '2026-03-01T10:00:00.000Z', schema_version: 1 },
  };
}

const callsProjection: Projection = {
  name: 'bench_calls',
  version: 1,
  tables: ['bench_calls'],
  eventTypes: ['CallPlaced', 'CallAnswered', 'CallConversationRecorded', 'CallEnded'],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS bench_calls (call_id TEXT PRIMARY KEY, workspace_id TEXT, phone TEXT, status TEXT,
      disposition TEXT, duration_seconds INTEGER, turns INTEGER NOT NULL DEFAULT 0, started_at TEXT, ended_at TEXT);
      CREATE INDEX IF NOT EXISTS bench_calls_disposition ON bench_calls (workspace_id, disposition);`);
  },
  prepare(db) {
    const placed = db.prepare(`INSERT INTO bench_calls (call_id, workspace_id, phone, status, started_at) VALUES (?, ?, ?, 'in_progress', ?)`);
    const answered = db.prepare(`UPDATE bench_calls SET status = 'answered' WHERE call_id = ?`);
    const turns = db.prepare(`UPDATE bench_calls SET turns = turns + ? WHERE call_id = ?`);
    const ended = db.prepare(`UPDATE bench_calls SET status = ?, disposition = ?, duration_seconds = ?, ended_at = ? WHERE call_id = ?`);
    return (event: RecordedEvent) => {
      const data = event.data as Record<string, any>;
      if (event.type === 'CallPlaced') placed.run(data.call_id, event.metadata.workspace_id, data.contact.phone, data.started_at);
      else if (event.type === 'CallAnswered') answered.run(data.call_id);
      else if (event.type === 'CallConversationRecorded') turns.run(data.turns.length, data.call_id);
      else ended.run(data.status, data.disposition, data.duration_seconds, data.ended_at, data.call_id);
    };
  },
};

function rate(count: number, milliseconds: number): number {
  return Math.round((count / milliseconds) * 1000);
}

function line(label: string, perSecond: number, limit: number, extra = ''): void {
  console.log(`${label.padEnd(44)} ${String(perSecond).padStart(9)} events/s   ${(perSecond / limit).toFixed(2)}× raw insert${extra}`);
}

/** The limit: raw inserts of the same rows into the same table shape, same pragmas, batches of 100. */
function measureRawInsert(file: string): number {
  const raw = new Database(join(directory, file));
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${synchronous.toUpperCase()}`);
  raw.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
    revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision))`);
  const insert = raw.prepare('INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  const insertBatch = raw.transaction((events: EventToAppend[], base: number) => {
    events.forEach((event, offset) => {
      const index = base + offset;
      insert.run(event.id, `call-${index >> 2}`, index & 3, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata));
    });
  });
  const started = performance.now();
  for (let base = 0; base < TOTAL; base += 100) {
    insertBatch.immediate(Array.from({ length: Math.min(100, TOTAL - base) }, (_, offset) => realisticEvent(base + offset)), base);
  }
  const perSecond = rate(TOTAL, performance.now() - started);
  raw.close();
  return perSecond;
}

async function main(): Promise<void> {
  const sample = realisticEvent(3);
  console.log(`bench:store — ${TOTAL.toLocaleString('en')} events, ~${JSON.stringify(sample.data).length + JSON.stringify(sample.metadata).length} bytes of JSON each, synchronous=${synchronous}`);

  // The machine is noisy: measure the limit before and after the store, and compare against the better of the two.
  const rawBefore = measureRawInsert('raw-before.db');
  const store = createSqliteEventStore(join(directory, 'events.db'), { synchronous });
  // Batches of 100: each append is one call aggregate's worth of events on its own stream.
  let started = performance.now();
  for (let base = 0; base < TOTAL; base += 100) {
    const events = Array.from({ length: Math.min(100, TOTAL - base) }, (_, offset) => realisticEvent(base + offset));
    await store.append(`batch-${base / 100}`, events, { expectedRevision: 'no_stream' });
  }
  const batchedRate = rate(TOTAL, performance.now() - started);

  const singles = createSqliteEventStore(join(directory, 'singles.db'), { synchronous });
  started = performance.now();
  for (let index = 0; index < SINGLE_SAMPLE; index++) {
    await singles.append(`call-${index >> 2}`, [realisticEvent(index)], { expectedRevision: (index & 3) === 0 ? 'no_stream' : (index & 3) - 1 });
  }
  const singleRate = rate(SINGLE_SAMPLE, performance.now() - started);
  await singles.close();

  started = performance.now();
  let read = 0;
  for (let after = 0; ; ) {
    const events = await store.readAll({ after, limit: 1_000 });
    if (events.length === 0) break;
    read += events.length;
    after = events[events.length - 1]!.position;
  }
  const readRate = rate(read, performance.now() - started);

  const rawAfter = measureRawInsert('raw-after.db');
  const rawRate = Math.max(rawBefore, rawAfter);
  line(`raw better-sqlite3 insert, batches of 100 (limit; runs ${rawBefore}, ${rawAfter})`, rawRate, rawRate);
  line('append, batches of 100 (expected revision)', batchedRate, rawRate);
  line(`append, batches of 1 (${SINGLE_SAMPLE.toLocaleString('en')} sample)`, singleRate, rawRate);
  line('read all (batches of 1,000)', readRate, rawRate);

  const readDb = openReadModelDatabase(join(directory, 'read.db'));
  const runner = new ProjectionRunner(store, readDb, [callsProjection]);
  started = performance.now();
  await runner.catchUp();
  const catchUpMs = performance.now() - started;
  const rows = readDb.prepare('SELECT count(*) AS n FROM bench_calls').get() as { n: number };
  line('projection catch-up (calls read model)', rate(TOTAL, catchUpMs), rawRate, `   ${(catchUpMs / 1000).toFixed(1)} s for ${TOTAL.toLocaleString('en')} events, ${rows.n.toLocaleString('en')} calls`);
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  readDb.close();
  await store.close();
  rmSync(directory, { recursive: true, force: true });
}

await main();

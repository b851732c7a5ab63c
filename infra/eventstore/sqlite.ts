import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Subject } from 'rxjs/internal/Subject';
import type { Observable } from 'rxjs';
import {
  WrongExpectedVersion,
  type AppendResult,
  type EventStore,
  FencedOff,
  type EventToAppend,
  type ExpectedRevision,
  type Fence,
  type ReadAllOptions,
  type RecordedEvent,
  type StreamInfo,
} from './port.ts';
import { followAll } from './follow.ts';
import { takeTopLevelField } from './top-level-field.ts';
import { WAL_SAFETY_CAP_PAGES } from './wal-checkpoints.ts';

/**
 * The embedded event store: one SQLite file in WAL mode. The global position is the table's integer key, so
 * it only grows, and (stream, revision) is unique, which is the optimistic-concurrency guard even between two
 * processes (the server and the operator CLI) appending to the same file: the loser of a race gets a
 * constraint error, mapped to WrongExpectedVersion. Appends take the write lock up front (BEGIN IMMEDIATE), so
 * positions are assigned and committed in one order and a reader never sees position n+1 before n.
 *
 * Group commit: appends called in the same event-loop turn are written in one transaction (one fsync with
 * `synchronous = full`), each in its own savepoint, so each keeps its own expected-revision check and its own
 * WrongExpectedVersion without failing the others. Callers are answered only after the commit.
 */
export interface SqliteEventStoreOptions {
  /** `full` (default) fsyncs every commit; `normal` may lose the last commits on power loss, never on a crash. */
  synchronous?: 'full' | 'normal';
  /** How often followers check the file for events appended by another process. */
  crossProcessPollMs?: number;
  /**
   * How long a woken follower lets further appends accumulate before it reads, so that one `readAll` picks up
   * a batch instead of a single event (default 1 ms).
   */
  wakeCoalesceMs?: number;
  /** Extra `PRAGMA` statements for the connection, e.g. `max_page_count = 50` (tests fill the disk with it). */
  pragmas?: readonly string[];
  /**
   * `inline` (default): SQLite checkpoints the WAL inside the commit that fills it. `elsewhere`: another connection
   * checkpoints (`startWalCheckpoints`, on the projection thread), and this one only past a safety cap.
   */
  walCheckpoints?: 'inline' | 'elsewhere';
}

interface PendingAppend {
  stream: string;
  events: EventToAppend[];
  expected: ExpectedRevision;
  fence: Fence | undefined;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

interface EventHeader {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
}

interface EventBody {
  data: string;
  metadata: string;
}

type EventRow = EventHeader & EventBody;

export function createSqliteEventStore(path: string, options: SqliteEventStoreOptions = {}): EventStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
  db.pragma('busy_timeout = 10000');
  if (options.walCheckpoints === 'elsewhere') db.pragma(`wal_autocheckpoint = ${WAL_SAFETY_CAP_PAGES}`);
  for (const pragma of options.pragmas ?? []) db.pragma(pragma);
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      stream TEXT NOT NULL,
      revision INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      metadata TEXT NOT NULL,
      UNIQUE (stream, revision)
    );
  `);

  const selectStreamRevision = db.prepare<[string], { revision: number | null }>(
    'SELECT max(revision) AS revision FROM events WHERE stream = ?',
  );
  const insertEvent = db.prepare<[string, string, number, string, string, string]>(
    'INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const selectStream = db.prepare<[string, number, number], EventRow>(
    'SELECT * FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?',
  );
  // Without `data`: each follower reads every event, most only look at the type, and a campaign's data is megabytes.
  // Without `metadata` too: the table stores it after `data`, and reading a column that follows a large value walks
  // every overflow page of that value (a megabyte of data: ~0.5 ms, for each follower: the process managers on the
  // event loop and each read-model lane). The readers that use an event read both in one lookup.
  const selectAll = db.prepare<[number, number], EventHeader>('SELECT position, id, stream, revision, type FROM events WHERE position > ? ORDER BY position LIMIT ?');
  // A follower of a few types (a process manager) gets only those: skipping the others here, in SQLite, costs a
  // fraction of making each an object in JavaScript for every follower (issue 12: a neighbour's event rate times
  // fourteen process managers was an eighth of the event loop). `type` precedes `data` in the row: no overflow page
  // is read to test it.
  const selectAllOfTypes = db.prepare<[number, number, string, number], EventHeader>(
    'SELECT position, id, stream, revision, type FROM events WHERE position > ? AND position <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT ?',
  );
  const typeLists = new WeakMap<ReadonlySet<string>, string>();
  const selectBody = db.prepare<[number], EventBody>('SELECT data, metadata FROM events WHERE position = ?');
  const selectHead = db.prepare<[], { position: number | null }>('SELECT max(position) AS position FROM events');

  /**
   * Each move of the head this store sees, with the types appended when it appended them itself (a commit of its own
   * group) and `null` when it cannot tell (another process appended: seen by polling the head).
   */
  const appended = new Subject<{ head: number; types: ReadonlySet<string> | null }>();
  let lastKnownHead = (selectHead.get()?.position ?? 0) as number;
  /**
   * What a waiter for a few types (waitForEvents with `types`) needs to know without reading the table: the position of
   * this store's last append of each type, and the highest position whose type it does not know (written before it
   * opened, or by another process). Bounded by the number of event types.
   */
  const lastAppendedOfType = new Map<string, number>();
  let untypedUpTo = lastKnownHead;
  const pollMs = options.crossProcessPollMs ?? 100;
  const coalesceMs = options.wakeCoalesceMs ?? 1;
  let closed = false;
  let pending: PendingAppend[] = [];
  let flushScheduled: NodeJS.Immediate | null = null;

  const appendTransaction = db.transaction(
    (stream: string, events: EventToAppend[], expected: ExpectedRevision, fence: Fence | undefined): AppendResult => {
      if (fence) {
        // Inside the write lock: no other process can move the fence stream between this check and the commit.
        const fenceRevision = selectStreamRevision.get(fence.stream)?.revision ?? null;
        if (fenceRevision !== fence.revision) throw new FencedOff(fence, fenceRevision ?? 'no_stream');
      }
      const current = selectStreamRevision.get(stream)?.revision ?? null;
      checkExpectedRevision(stream, expected, current);
      let revision = current ?? -1;
      let position = 0;
      for (const event of events) {
        revision += 1;
        const result = insertEvent.run(
          event.id ?? randomUUID(),
          stream,
          revision,
          event.type,
          event.serializedData ?? JSON.stringify(event.data),
          JSON.stringify(event.metadata),
        );
        position = Number(result.lastInsertRowid);
      }
      return { nextExpectedRevision: revision, position };
    },
  );

  // Called inside the group's BEGIN IMMEDIATE: better-sqlite3 runs a nested transaction function as a
  // SAVEPOINT, rolled back alone when it throws, so a refused append leaves neither rows nor a position gap.
  function appendOne(item: PendingAppend): AppendResult {
    try {
      return appendTransaction(item.stream, item.events, item.expected, item.fence);
    } catch (error) {
      // Another process won the race between our check and our insert.
      if (isUniqueRevisionViolation(error)) {
        const actual = selectStreamRevision.get(item.stream)?.revision ?? null;
        throw new WrongExpectedVersion(item.stream, item.expected, actual ?? 'no_stream');
      }
      throw error;
    }
  }

  function flush(): void {
    flushScheduled = null;
    const group = pending;
    pending = [];
    if (group.length === 0) return;
    if (closed) {
      for (const item of group) item.reject(new Error('the event store is closed'));
      return;
    }
    const outcomes: Array<{ ok: true; result: AppendResult } | { ok: false; error: unknown }> = [];
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    try {
      for (const item of group) {
        try {
          outcomes.push({ ok: true, result: appendOne(item) });
        } catch (error) {
          // Only a revision conflict is this append's own refusal. Anything else (SQLITE_FULL, IOERR, NOMEM) may
          // have rolled the whole transaction back, taking the group's earlier appends with it, after which
          // the later ones would commit one by one outside any transaction: the group fails as a whole instead.
          if (!(error instanceof WrongExpectedVersion) && !(error instanceof FencedOff)) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      // An append or the commit failed (disk full, I/O error): nothing of the group is stored, and every caller
      // learns it (a caller told "stored" finds its events; a caller told "failed" finds none).
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const item of group) item.reject(error);
      return;
    }
    let head = 0;
    let first = Number.MAX_SAFE_INTEGER;
    const types = new Set<string>();
    group.forEach((item, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) {
        const { position } = outcome.result;
        // An append's positions are consecutive (written under one write lock): its first is derived from its last.
        const firstOfItem = position - item.events.length + 1;
        head = Math.max(head, position);
        first = Math.min(first, firstOfItem);
        item.events.forEach((event, offset) => {
          types.add(event.type);
          lastAppendedOfType.set(event.type, firstOfItem + offset);
        });
        item.resolve(outcome.result);
      } else {
        item.reject(outcome.error);
      }
    });
    if (head === 0) return;
    // The group's positions are consecutive (one write lock); a gap before them is another process's appends.
    if (first > lastKnownHead + 1) untypedUpTo = Math.max(untypedUpTo, first - 1);
    if (head > lastKnownHead) lastKnownHead = head;
    appended.next({ head, types });
  }

  function readAllSync({ after, limit, types, upTo, detach }: ReadAllOptions): RecordedEvent[] {
    if (closed) throw new Error('the event store is closed');
    let rows: EventHeader[];
    if (types === undefined) {
      rows = selectAll.all(after, limit);
      if (upTo !== undefined) rows = rows.filter((row) => row.position <= upTo);
    } else {
      let typeList = typeLists.get(types);
      if (typeList === undefined) typeLists.set(types, (typeList = JSON.stringify([...types])));
      rows = selectAllOfTypes.all(after, upTo ?? Number.MAX_SAFE_INTEGER, typeList, limit);
    }
    return rows.map((row) => toRecordedEvent(row, () => selectBody.get(row.position)!, detach?.get(row.type)));
  }

  function headSync(): number {
    const head = (selectHead.get()?.position ?? 0) as number;
    if (head > lastKnownHead) {
      // Not from a commit of this store's: another process appended, types unknown.
      lastKnownHead = head;
      untypedUpTo = head;
      appended.next({ head, types: null });
    }
    return head;
  }

  const store: EventStore = {
    append(stream, events, { expectedRevision, fence }) {
      if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
      if (closed) return Promise.reject(new Error('the event store is closed'));
      return new Promise<AppendResult>((resolve, reject) => {
        pending.push({ stream, events, expected: expectedRevision, fence, resolve, reject });
        // setImmediate, not a microtask: appends made by other callbacks of this turn join the same group.
        flushScheduled ??= setImmediate(flush);
      });
    },

    async readStream(stream, options = {}) {
      return selectStream.all(stream, options.fromRevision ?? 0, options.limit ?? -1).map((row) => toRecordedEvent(row, () => row));
    },

    async readAll(options) {
      return readAllSync(options);
    },

    subscribeAll({ after }): Observable<RecordedEvent> {
      return followAll(store, after);
    },

    waitForEvents(after, timeoutMs, signal, types) {
      // Whether an event after `after` may exist that this waiter wants: with `types`, one of those types or one whose
      // type this store does not know; a follower of a few types then sleeps through the appends of all the others.
      const mayHaveNews = (): boolean => {
        if (headSync() <= after) return false;
        if (types === undefined || untypedUpTo > after) return true;
        for (const type of types) if ((lastAppendedOfType.get(type) ?? 0) > after) return true;
        return false;
      };
      return new Promise<void>((resolve) => {
        if (closed || signal?.aborted || mayHaveNews()) return resolve();
        const cleanups: Array<() => void> = [];
        const finish = () => {
          for (const cleanup of cleanups) cleanup();
          resolve();
        };
        let coalescing: NodeJS.Timeout | null = null;
        const subscription = appended.subscribe((move) => {
          if (move.head <= after || coalescing) return;
          // Of other types only, and no position before it that this store cannot type (a gap another process filled).
          if (types !== undefined && move.types !== null && untypedUpTo <= after && !intersects(move.types, types)) return;
          // Let the appends that follow this one (the other commands of the same burst) land before the read.
          if (closed || coalesceMs <= 0) return finish();
          coalescing = setTimeout(finish, coalesceMs);
        });
        cleanups.push(() => {
          if (coalescing) clearTimeout(coalescing);
        });
        cleanups.push(() => subscription.unsubscribe());
        // Another process may have appended: look at the file now and then.
        const poll = setInterval(() => {
          if (closed || mayHaveNews()) finish();
        }, pollMs);
        cleanups.push(() => clearInterval(poll));
        const timeout = setTimeout(finish, timeoutMs);
        cleanups.push(() => clearTimeout(timeout));
        if (signal) {
          signal.addEventListener('abort', finish, { once: true });
          cleanups.push(() => signal.removeEventListener('abort', finish));
        }
      });
    },

    async headPosition() {
      return headSync();
    },

    async listStreams(options = {}): Promise<StreamInfo[]> {
      const prefix = options.prefix ?? '';
      const rows = db
        .prepare<[string, string, number], StreamInfo>(
          `SELECT stream, max(revision) AS revision, count(*) AS events FROM events
           WHERE stream >= ? AND stream < ? GROUP BY stream ORDER BY stream LIMIT ?`,
        )
        .all(prefix, prefix + '\uffff', options.limit ?? -1);
      return rows;
    },

    async ping() {
      try {
        db.prepare('SELECT 1').get();
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      if (closed) return;
      // Appends already accepted are written, not dropped.
      if (flushScheduled) {
        clearImmediate(flushScheduled);
        flush();
      }
      closed = true;
      appended.next({ head: Number.MAX_SAFE_INTEGER, types: null });
      appended.complete();
      db.close();
    },
  };
  return store;
}

function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [smaller, larger] = a.size <= b.size ? [a, b] : [b, a];
  for (const value of smaller) if (larger.has(value)) return true;
  return false;
}

function checkExpectedRevision(stream: string, expected: ExpectedRevision, current: number | null): void {
  const actual = current ?? 'no_stream';
  if (expected === 'any') return;
  if (expected === 'no_stream' && current !== null) throw new WrongExpectedVersion(stream, expected, actual);
  if (expected === 'stream_exists' && current === null) throw new WrongExpectedVersion(stream, expected, actual);
  if (typeof expected === 'number' && expected !== current) throw new WrongExpectedVersion(stream, expected, actual);
}

function isUniqueRevisionViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('events.stream')
  );
}

/**
 * `data` and `metadata` are read (`readBody`, once for both) and parsed when first used, by the readers that use them:
 * a process manager skips most events by their type alone, and each of them reads every event (a 4-hour transcript,
 * 1,000 campaign contacts would otherwise be read and parsed by each on the event loop).
 */
function toRecordedEvent(header: EventHeader, readBody: () => EventBody, detachedField?: string): RecordedEvent {
  // The texts are kept only until parsed: a parsed megabyte need not stay in memory twice.
  let texts: Partial<EventBody> | undefined;
  const text = (field: keyof EventBody): string => {
    texts ??= readBody();
    const value = texts[field]!;
    texts[field] = undefined;
    return value;
  };
  let parsed: Record<string, unknown> | undefined;
  let parsedMetadata: RecordedEvent['metadata'] | undefined;
  const event = {
    id: header.id,
    stream: header.stream,
    revision: header.revision,
    position: header.position,
    type: header.type,
  } as RecordedEvent;
  Object.defineProperty(event, 'metadata', {
    enumerable: true,
    configurable: true,
    get: () => (parsedMetadata ??= JSON.parse(text('metadata')) as RecordedEvent['metadata']),
    set: (value: RecordedEvent['metadata']) => (parsedMetadata = value),
  });
  // With a detached field (ReadAllOptions.detach), the field is cut out of the text once, for both getters.
  let split: { rest: string; value: string | null } | undefined;
  const splitOnce = (field: string) => {
    if (split === undefined) {
      const json = text('data');
      split = takeTopLevelField(json, field) ?? { rest: json, value: null };
    }
    return split;
  };
  Object.defineProperty(event, 'data', {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= JSON.parse(detachedField === undefined ? text('data') : splitOnce(detachedField).rest) as Record<string, unknown>),
    set: (value: Record<string, unknown>) => (parsed = value),
  });
  if (detachedField !== undefined) {
    Object.defineProperty(event, 'detached', {
      enumerable: true,
      configurable: true,
      get: () => ({ [detachedField]: splitOnce(detachedField).value }),
    });
  }
  return event;
}

import type {
  AllStreamResolvedEvent,
  AppendResult as EsdbAppendResult,
  Filter,
  ResolvedEvent,
  StreamingRead,
} from '@eventstore/db-client';
import { Observable } from 'rxjs/internal/Observable';
import { esdbClient } from './esdb-client.ts';
import { FencedOff, type AppendResult, type EventStore, type RecordedEvent, type StreamInfo } from './port.ts';
import {
  isStreamNotFound,
  positionOf,
  streamOfLink,
  toAppendError,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toReadPosition,
  toRecordedEvent,
  type EsdbResolvedEvent,
} from './esdb-mapping.ts';

/**
 * The EventStoreDB adapter (`EVENTSTORE_URL`, an `esdb://` connection string), for production scale and
 * clustering. Translation to and from the client lives in `esdb-mapping.ts`; this file only drives the client.
 *
 * Limits worth knowing:
 * - Positions are ESDB commit positions as JS numbers: exact up to 2^53 bytes of transaction log (see mapping).
 * - `readAll({after})` and `subscribeAll({after})` need `after` to be 0 or the position of an event (which is
 *   all our callers ever pass: checkpoints are positions they were given). ESDB cannot start a read in the
 *   middle of a log record.
 * - Client 6.2.1 cannot filter `readAll` on the server, so reads of `$all` skip system events here; on a busy
 *   cluster whose log is mostly system events (stats, projections) that costs bandwidth, not correctness.
 * - `listStreams` uses the `$streams` system projection when it exists (start the server with
 *   `--run-projections=System --start-standard-projections`); otherwise it scans all of `$all`, which is fine
 *   for operator commands on small stores and slow on large ones. Event counts assume streams are never
 *   truncated (`$maxCount`, `$tb`), which we never set: count = last revision + 1.
 * - Reading `$all` and `$streams` needs a user allowed to read them (`$admins` by default on a secure cluster).
 */
export interface EsdbEventStoreOptions {
  /**
   * Confines the store to streams whose ESDB name starts with this prefix (stripped on read). Lets several
   * stores share one database, which the contract suite uses to give each test an empty store. Reads of `$all`
   * skip other prefixes client-side, so `headPosition` of a store with few events of its own scans far back.
   */
  streamPrefix?: string;
  /** How long `ping` waits for an answer. */
  pingTimeoutMs?: number;
}

export function createEsdbEventStore(connectionString: string, options: EsdbEventStoreOptions = {}): EventStore {
  const prefix = options.streamPrefix ?? '';
  if (prefix.startsWith('$')) throw new Error('streamPrefix must not start with $ (reserved for system streams)');
  const pingTimeoutMs = options.pingTimeoutMs ?? 3_000;
  const { BACKWARDS, END, EventStoreDBClient, FORWARDS, START, excludeSystemEvents, streamNameFilter } = esdbClient();
  const client = EventStoreDBClient.connectionString(connectionString);
  let closed = false;
  // Live subscriptions and waiters, ended by close() so that nobody hangs on a disposed client.
  const onClose = new Set<() => void>();

  function ours(resolved: EsdbResolvedEvent): RecordedEvent | null {
    return toRecordedEvent(resolved, prefix);
  }

  /** The server-side filter for subscriptions; the client side filters again with `ours`. */
  function subscriptionFilter(): Filter {
    return prefix ? streamNameFilter({ prefixes: [prefix] }) : excludeSystemEvents();
  }

  /**
   * Visits a read until `visit` returns false, then cancels the gRPC call: leaving the loop only destroys the
   * Node stream, and the server would otherwise keep streaming into it.
   */
  async function scan<E>(read: StreamingRead<E>, visit: (event: E) => boolean): Promise<void> {
    for await (const event of read) {
      if (!visit(event)) {
        await read.cancel();
        break;
      }
    }
  }

  async function readOwnStream(
    stream: string,
    readOptions: { fromRevision?: number; limit?: number; backwards?: boolean },
  ): Promise<RecordedEvent[]> {
    const limit = readOptions.limit ?? Number.MAX_SAFE_INTEGER;
    if (limit <= 0) return [];
    const events: RecordedEvent[] = [];
    const read = client.readStream(prefix + stream, {
      direction: readOptions.backwards ? BACKWARDS : FORWARDS,
      fromRevision:
        readOptions.fromRevision !== undefined ? BigInt(readOptions.fromRevision) : readOptions.backwards ? END : START,
      maxCount: limit,
    });
    try {
      await scan(read, (resolved: ResolvedEvent) => {
        const event = ours(resolved);
        if (event) events.push(event);
        return true;
      });
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  async function headPosition(): Promise<number> {
    let head = 0;
    // Backwards from the end, past the system events ESDB writes on its own (stats, projection checkpoints).
    await scan(client.readAll({ direction: BACKWARDS, fromPosition: END }), (resolved: AllStreamResolvedEvent) => {
      const event = ours(resolved);
      if (!event) return true;
      head = event.position;
      return false;
    });
    return head;
  }

  async function listFromStreamsProjection(): Promise<string[] | null> {
    const names: string[] = [];
    try {
      await scan(client.readStream('$streams', { resolveLinkTos: false }), (resolved: ResolvedEvent) => {
        const name = streamOfLink(resolved);
        if (name !== null) names.push(name);
        return true;
      });
    } catch (error) {
      if (isStreamNotFound(error)) return null;
      throw error;
    }
    return names;
  }

  async function listByScanning(): Promise<Map<string, StreamInfo>> {
    const streams = new Map<string, StreamInfo>();
    await scan(client.readAll({ direction: FORWARDS, fromPosition: START }), (resolved: AllStreamResolvedEvent) => {
      const event = ours(resolved);
      if (!event) return true;
      const info = streams.get(event.stream);
      if (info) {
        info.revision = Math.max(info.revision, event.revision);
        info.events += 1;
      } else {
        streams.set(event.stream, { stream: event.stream, revision: event.revision, events: 1 });
      }
      return true;
    });
    return streams;
  }

  const store: EventStore = {
    async append(stream, events, { expectedRevision, fence }): Promise<AppendResult> {
      if (events.length === 0) throw new Error('append needs at least one event');
      if (fence) {
        // EventStoreDB has no condition on another stream in an append: the fence is checked just before it, which
        // leaves a window of one round trip in which a new leader's term and the old leader's command may cross
        // (docs/operations.md, "Failure modes"). The embedded store checks it inside the append's transaction.
        const [last] = await readOwnStream(fence.stream, { backwards: true, limit: 1 });
        const actual = last?.revision ?? null;
        if (actual !== fence.revision) throw new FencedOff(fence, actual ?? 'no_stream');
      }
      let result: EsdbAppendResult;
      try {
        result = await client.appendToStream(prefix + stream, events.map(toEsdbEvent), {
          expectedRevision: toEsdbExpectedRevision(expectedRevision),
        });
      } catch (error) {
        throw toAppendError(error, stream, expectedRevision);
      }
      const nextExpectedRevision = Number(result.nextExpectedRevision);
      // The server reports the last event's position; should it not, the event itself knows it.
      const position = result.position
        ? positionOf({ commitPosition: result.position.commit })
        : ((await readOwnStream(stream, { backwards: true, limit: 1 }))[0]?.position ?? 0);
      return { nextExpectedRevision, position };
    },

    readStream(stream, readOptions = {}) {
      return readOwnStream(stream, readOptions);
    },

    async readAll({ after, limit, types, upTo }) {
      if (limit <= 0) return [];
      const events: RecordedEvent[] = [];
      // Reads from a position include the event at it; `after` is exclusive, so it is skipped here. Client 6.2.1
      // cannot filter `readAll` by type on the server (see above): `types` filters here, `upTo` ends the read.
      // `detach` is not applied: the client hands over `data` already parsed, so readers get it whole (fieldAsJson).
      await scan(client.readAll({ direction: FORWARDS, fromPosition: toReadPosition(after) }), (resolved: AllStreamResolvedEvent) => {
        const event = ours(resolved);
        if (event === null || event.position <= after) return true;
        if (upTo !== undefined && event.position > upTo) return false;
        if (types === undefined || types.has(event.type)) events.push(event);
        return events.length < limit;
      });
      return events;
    },

    subscribeAll({ after }): Observable<RecordedEvent> {
      return new Observable<RecordedEvent>((subscriber) => {
        if (closed) {
          subscriber.complete();
          return;
        }
        let last = after;
        const subscription = client.subscribeToAll({
          fromPosition: toReadPosition(after),
          filter: subscriptionFilter(),
          resolveLinkTos: false,
        });
        subscription.on('data', (resolved: AllStreamResolvedEvent) => {
          try {
            const event = ours(resolved);
            // `> last` keeps delivery exactly once and in order even if the server repeats the start position.
            if (event && event.position > last) {
              last = event.position;
              subscriber.next(event);
            }
          } catch (error) {
            subscriber.error(error);
          }
        });
        subscription.on('error', (error: Error) => subscriber.error(error));
        // A catch-up subscription never ends by itself: an end we did not ask for is a dropped subscription.
        subscription.on('end', () => {
          if (closed) subscriber.complete();
          else subscriber.error(new Error('EventStoreDB subscription to $all ended unexpectedly'));
        });
        const completeOnClose = () => subscriber.complete();
        onClose.add(completeOnClose);
        return () => {
          onClose.delete(completeOnClose);
          subscription.removeAllListeners('data');
          subscription.unsubscribe().catch(() => undefined);
        };
      });
    },

    waitForEvents(after, timeoutMs, signal) {
      return new Promise<void>((resolve) => {
        if (closed || signal?.aborted) return resolve();
        // A catch-up subscription from `after`: its first event of ours is proof that something newer exists,
        // whether it was appended before this call or after, so there is no gap between checking and waiting.
        const subscription = client.subscribeToAll({
          fromPosition: toReadPosition(after),
          filter: subscriptionFilter(),
          resolveLinkTos: false,
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', finish);
          onClose.delete(finish);
          subscription.removeAllListeners('data');
          subscription.unsubscribe().catch(() => undefined);
          resolve();
        };
        subscription.on('data', (resolved: AllStreamResolvedEvent) => {
          const event = ours(resolved);
          if (event && event.position > after) finish();
        });
        // On error keep sleeping until the timeout: the caller's next read reports the error, and resolving now
        // would turn an unreachable server into a busy loop.
        subscription.on('error', () => undefined);
        const timer = setTimeout(finish, timeoutMs);
        signal?.addEventListener('abort', finish, { once: true });
        onClose.add(finish);
      });
    },

    headPosition,

    async listStreams(listOptions = {}): Promise<StreamInfo[]> {
      const wanted = prefix + (listOptions.prefix ?? '');
      const limit = listOptions.limit ?? Number.MAX_SAFE_INTEGER;
      const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const linked = await listFromStreamsProjection();
      if (linked === null) {
        const scanned = await listByScanning();
        return [...scanned.values()]
          .filter((info) => (prefix + info.stream).startsWith(wanted))
          .sort((a, b) => byName(a.stream, b.stream))
          .slice(0, limit);
      }
      const names = [...new Set(linked)]
        .filter((name) => name.startsWith(wanted) && !name.startsWith('$'))
        .map((name) => name.slice(prefix.length))
        .sort(byName);
      const streams: StreamInfo[] = [];
      for (const name of names) {
        if (streams.length >= limit) break;
        const [last] = await readOwnStream(name, { backwards: true, limit: 1 });
        // A deleted stream keeps its link in `$streams` but has nothing left to read.
        if (last) streams.push({ stream: name, revision: last.revision, events: last.revision + 1 });
      }
      return streams;
    },

    async ping() {
      if (closed) return false;
      const read = client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), pingTimeoutMs);
      });
      const answered = scan(read, () => true).then(
        () => true,
        () => false,
      );
      const alive = await Promise.race([answered, timedOut]);
      clearTimeout(timer);
      if (!alive) {
        // Cancelling the call does not end the Node stream it feeds; destroying it ends the pending scan.
        read.cancel().catch(() => undefined);
        read.destroy();
      }
      return alive;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const end of [...onClose]) end();
      onClose.clear();
      await client.dispose();
    },
  };
  return store;
}

import type { Observable } from 'rxjs';

/**
 * The event store port. Two adapters implement it (`sqlite.ts`, the embedded default, and `esdb.ts`
 * for EventStoreDB) and both pass the same contract suite (`tests/infra/eventstore/contract.ts`).
 *
 * Positions are global, strictly increasing integers (> 0). `after: 0` means "from the beginning".
 * Revisions are per stream and start at 0 for the first event of a stream.
 */

export interface EventMetadata {
  workspace_id: string | null;
  /** API key id, `cli`, or the name of the process that caused the event. */
  actor: string;
  correlation_id: string;
  causation_id: string | null;
  occurred_at: string;
  schema_version: number;
}

export interface EventToAppend {
  /** Optional unique event id (uuid). Generated when absent. */
  id?: string;
  type: string;
  data: Record<string, unknown>;
  /**
   * `data` already serialised (`JSON.stringify(data)`, made where the event was decided: a large command decided on
   * a worker thread, commands/decisions-off-thread.ts). A store that writes JSON writes it as it is instead of
   * serialising `data` again on the event loop.
   */
  serializedData?: string;
  metadata: EventMetadata;
}

/**
 * An event as the store holds it. Readers that know which events they handle name them: `Recorded<CallEvent>` is
 * a union narrowed by `type`, so `event.data` needs no cast. The store only promises the stored JSON; that it has
 * the shape of the current event type is the upcasters' job (domain/upcasters.ts), applied on every read.
 */
export interface RecordedEvent<Type extends string = string, Data extends object = Record<string, unknown>> {
  id: string;
  stream: string;
  revision: number;
  position: number;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  /**
   * The fields a reader asked to have detached (`ReadAllOptions.detach`), each as JSON text (null when the event has
   * none), and absent from `data`. Absent when the store did not detach: an adapter may always leave `data` whole,
   * so readers take such a field with `fieldAsJson` (detached-field.ts), which serves both cases.
   */
  detached?: Readonly<Record<string, string | null>>;
}

/** The recorded form of each event of a union of domain events (`{type, data}`), as a union narrowed by `type`. */
export type Recorded<Event extends { type: string; data: object }> = Event extends unknown ? RecordedEvent<Event['type'], Event['data']> : never;

/** `no_stream`: the stream must not exist; `stream_exists`: it must; `any`: no check; a number: the exact revision of the stream's last event. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last appended event. */
  nextExpectedRevision: number;
  /** Global position of the last appended event. */
  position: number;
}

export interface StreamInfo {
  stream: string;
  revision: number;
  events: number;
}

export class WrongExpectedVersion extends Error {
  readonly code = 'wrong_expected_version';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`Wrong expected version for stream ${stream}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersion';
  }
}

/**
 * A condition on another stream, checked in the same transaction as the append: the append happens only while
 * `stream` is at exactly `revision`. The leader lease (processes/leadership/) fences singleton work with it: a
 * leader's commands carry the revision of the term it won, so once another node has started a newer term, a late
 * command of the old leader (paused, partitioned) is refused instead of competing with the new one.
 */
export interface Fence {
  stream: string;
  revision: number;
}

/** The append was refused because its fence stream moved on (another node took the lease). */
export class FencedOff extends Error {
  readonly code = 'fenced_off';
  constructor(
    readonly fence: Fence,
    readonly actual: number | 'no_stream',
  ) {
    super(`Fenced off: ${fence.stream} is at ${String(actual)}, this writer's term is ${fence.revision}`);
    this.name = 'FencedOff';
  }
}

export interface ReadAllOptions {
  after: number;
  limit: number;
  types?: ReadonlySet<string>;
  upTo?: number;
  /**
   * Per event type, one top-level field of `data` the reader takes as JSON text (`RecordedEvent.detached`) instead
   * of parsed: a reader that only stores a 4,000-segment transcript need not parse it (milliseconds, on the lane
   * every write's read-your-writes waits for).
   */
  detach?: ReadonlyMap<string, string>;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  fence?: Fence;
}

export interface EventStore {
  append(stream: string, events: EventToAppend[], options: AppendOptions): Promise<AppendResult>;
  /** Events of one stream in revision order, optionally from a revision (inclusive). Empty when the stream does not exist. */
  readStream(stream: string, options?: { fromRevision?: number; limit?: number }): Promise<RecordedEvent[]>;
  /**
   * Events of all streams with position > `after`, in global order. `types`: only events of these types; `upTo`:
   * only positions up to it (inclusive), which bounds the scan of a filtered read (a reader following only a few
   * types reads `upTo` a little past `after`, then goes on from `upTo`: see `followAllBatches`).
   */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catches up from `after` (exclusive), then stays live: every event exactly once, in global order. */
  subscribeAll(options: { after: number }): Observable<RecordedEvent>;
  /**
   * Resolves once an event with position > `after` may exist, or when `timeoutMs` passed, or when `signal` aborts.
   * Used by pull-based followers (projection and process runners) to sleep between batches. With `types`, it may go on
   * sleeping through events of other types (a follower of a few types: `followAllBatches`); a store that cannot tell
   * types apart resolves as without them.
   */
  waitForEvents(after: number, timeoutMs: number, signal?: AbortSignal, types?: ReadonlySet<string>): Promise<void>;
  /** Position of the newest event (0 when empty). */
  headPosition(): Promise<number>;
  /** Streams whose name starts with `prefix` (all when omitted), with their last revision and event count. */
  listStreams(options?: { prefix?: string; limit?: number }): Promise<StreamInfo[]>;
  /** Whether the store answers (for `/ready`). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

import { randomUUID } from 'node:crypto';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { CURRENT_SCHEMA_VERSION } from '../../domain/upcasters.ts';
import {
  claimable,
  claimableFrom,
  WORK_ITEM_EVENT_TYPES,
  workItemDecider,
  workItemStream,
  type WorkItemCommand,
  type WorkItemEvent,
  type WorkItemState,
} from '../../domain/work-item.ts';
import { WrongExpectedVersion, type EventStore, type RecordedEvent } from '../eventstore/port.ts';
import { ClaimLost, type ClaimedWork, type ParkedWork, type WorkItemToEnqueue, type WorkQueue } from './port.ts';

export const DEFAULT_MAX_ATTEMPTS = 5;
const READ_BATCH = 1_000;
const WORK_TYPES = new Set<string>(WORK_ITEM_EVENT_TYPES);

interface IndexedItem {
  state: WorkItemState;
  revision: number;
  /** Global position of its WorkEnqueued: where a restarted index must read from to see it again. */
  enqueuedAt: number;
}

/** Where a node's index starts reading after a restart (a node's own record, e.g. in its state.db). */
export interface IndexStart {
  load(): number;
  save(position: number): void;
}

export interface EventStoreWorkQueueOptions {
  claimTimeoutMs: number;
  /** Wall-clock epoch milliseconds (tests move it). Claims compare times of different nodes: keep them in NTP sync. */
  now?: () => number;
  /** Names the writer in the events' metadata. */
  nodeId?: string;
  /**
   * Where this node's index starts: without it, the first event of the store. With it, the index records, as it
   * reads, the position of the oldest unfinished item's WorkEnqueued (everything before is acked or parked) and a
   * restart reads from there, not from the beginning. Parked items before that mark are then not listed.
   */
  indexStart?: IndexStart;
}

/** Longest wait between looks at an item another node works on (appends by other processes are polled anyway). */
const FINISHED_LOOK_MS = 1_000;

/** How often the index's start mark is saved at most. */
const SAVE_START_EVERY_MS = 1_000;

/**
 * The embedded work queue: each item a stream (`work-<queue>-<id>`, domain/work-item.ts) in the shared event store,
 * every claim and outcome appended with the stream's expected revision, so of two nodes claiming one item exactly
 * one wins and the other moves on to the next. Which items are unfinished is kept in memory, folded from the store's
 * work events as they arrive (`readAll` from the start: one pass over the store when a node starts; memory grows
 * with the unfinished and parked items only).
 */
export class EventStoreWorkQueue implements WorkQueue {
  readonly claimTimeoutMs: number;
  private readonly now: () => number;
  private readonly queues = new Map<string, Map<string, IndexedItem>>();
  private readonly parkedItems = new Map<string, Map<string, IndexedItem>>();
  private position = 0;
  private catchingUp: Promise<void> | null = null;
  private savedStart = -1;
  private startSavedAt = 0;

  constructor(
    private readonly store: Pick<EventStore, 'append' | 'readStream' | 'readAll' | 'waitForEvents'>,
    private readonly options: EventStoreWorkQueueOptions,
  ) {
    this.claimTimeoutMs = options.claimTimeoutMs;
    this.now = options.now ?? Date.now;
    this.position = options.indexStart?.load() ?? 0;
    this.savedStart = this.position;
  }

  async enqueue(queue: string, item: WorkItemToEnqueue): Promise<void> {
    if (!/^[a-z][a-z0-9_]*$/.test(queue)) throw new Error(`queue names are lower-case words: ${queue}`);
    await this.act(queue, item.id, { type: 'EnqueueWork', queue, itemId: item.id, payload: item.payload, maxAttempts: item.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, now: new Date(this.now()) });
  }

  async claim(queue: string, { consumer, max }: { consumer: string; max: number }): Promise<ClaimedWork[]> {
    if (max <= 0) return [];
    await this.catchUp();
    const now = this.now();
    const candidates = [...(this.queues.get(queue)?.entries() ?? [])].filter(([, item]) => claimable(item.state, now));
    // Nodes start at different places in the list, so that claiming at once they rarely collide on one item.
    const offset = candidates.length === 0 ? 0 : Math.floor(Math.random() * Math.min(candidates.length, 16));
    const claimed: ClaimedWork[] = [];
    for (let i = 0; i < candidates.length && claimed.length < max; i++) {
      const [id, item] = candidates[(i + offset) % candidates.length]!;
      const claimId = randomUUID();
      let events: WorkItemEvent[];
      try {
        events = workItemDecider.decide({ type: 'ClaimWork', claimId, consumer, now: new Date(now), timeoutMs: this.claimTimeoutMs }, item.state);
      } catch (error) {
        if (error instanceof DomainError) continue;
        throw error;
      }
      try {
        await this.append(queue, id, events, item.revision);
      } catch (error) {
        // Another node claimed (or finished) it since this node read it: the next item.
        if (error instanceof WrongExpectedVersion) continue;
        throw error;
      }
      const [event] = events;
      if (event?.type === 'WorkClaimed') {
        claimed.push({ queue, id, payload: item.state.payload, attempt: event.data.attempt, tookOverFrom: event.data.took_over, claimId });
      }
    }
    return claimed;
  }

  async extend(item: ClaimedWork): Promise<void> {
    await this.ownCommand(item, { type: 'ExtendClaim', claimId: item.claimId, now: new Date(this.now()), timeoutMs: this.claimTimeoutMs });
  }

  async ack(item: ClaimedWork): Promise<void> {
    await this.ownCommand(item, { type: 'AckWork', claimId: item.claimId, now: new Date(this.now()) });
  }

  async nack(item: ClaimedWork, { reason, retryAfterMs = 0 }: { reason: string; retryAfterMs?: number }): Promise<void> {
    await this.ownCommand(item, { type: 'NackWork', claimId: item.claimId, now: new Date(this.now()), reason, retryAfterMs });
  }

  async park(item: ClaimedWork, reason: string): Promise<void> {
    await this.ownCommand(item, { type: 'ParkWork', claimId: item.claimId, now: new Date(this.now()), reason });
  }

  async parked(queue: string): Promise<ParkedWork[]> {
    await this.catchUp();
    return [...(this.parkedItems.get(queue)?.values() ?? [])].map(({ state }) => ({ queue, id: state.itemId, payload: state.payload, reason: state.parkReason ?? '', attempts: state.attempts }));
  }

  async requeue(queue: string, id: string, by: string): Promise<void> {
    await this.act(queue, id, { type: 'RequeueWork', by, now: new Date(this.now()) });
  }

  async unfinished(queue: string): Promise<number> {
    await this.catchUp();
    return this.queues.get(queue)?.size ?? 0;
  }

  async waitUntilFinished(queue: string, id: string, signal: AbortSignal): Promise<'acked' | 'parked' | 'aborted'> {
    for (;;) {
      await this.catchUp();
      if (!this.queues.get(queue)?.has(id)) return this.parkedItems.get(queue)?.has(id) ? 'parked' : 'acked';
      if (signal.aborted) return 'aborted';
      await this.store.waitForEvents(this.position, FINISHED_LOOK_MS, signal);
    }
  }

  async waitForWork(queue: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    await this.catchUp();
    let next = Number.POSITIVE_INFINITY;
    for (const { state } of this.queues.get(queue)?.values() ?? []) next = Math.min(next, claimableFrom(state) ?? next);
    const wait = Math.min(timeoutMs, next - this.now());
    if (wait <= 0) return;
    await this.store.waitForEvents(this.position, wait, signal);
  }

  async close(): Promise<void> {
    await this.catchingUp;
  }

  /** A command of a claim's holder, decided on the item's stream as it is now (a stale index would only cost a conflict). */
  private async ownCommand(item: ClaimedWork, command: WorkItemCommand): Promise<void> {
    try {
      await this.act(item.queue, item.id, command);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'invalid_state') throw new ClaimLost(item.queue, item.id);
      throw error;
    }
  }

  /** Reads the item's stream, decides, appends with its revision; a conflict reads again (another node wrote first). */
  private async act(queue: string, id: string, command: WorkItemCommand): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const recorded = await this.store.readStream(workItemStream(queue, id));
      const state = fold(workItemDecider, recorded.map(asWorkEvent));
      const events = workItemDecider.decide(command, state);
      if (events.length === 0) return;
      try {
        await this.append(queue, id, events, recorded.at(-1)?.revision ?? -1);
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersion) || attempt >= 3) throw error;
      }
    }
  }

  private async append(queue: string, id: string, events: WorkItemEvent[], revision: number): Promise<void> {
    const occurredAt = new Date(this.now()).toISOString();
    const actor = `work-queue:${this.options.nodeId ?? 'node'}`;
    await this.store.append(
      workItemStream(queue, id),
      events.map((event) => ({
        id: randomUUID(),
        type: event.type,
        data: event.data,
        metadata: { workspace_id: null, actor, correlation_id: randomUUID(), causation_id: null, occurred_at: occurredAt, schema_version: CURRENT_SCHEMA_VERSION },
      })),
      { expectedRevision: revision < 0 ? 'no_stream' : revision },
    );
  }

  /** Folds the work events appended since the last call into the index (one reader at a time). */
  private catchUp(): Promise<void> {
    this.catchingUp ??= (async () => {
      try {
        for (;;) {
          const batch = await this.store.readAll({ after: this.position, limit: READ_BATCH });
          for (const event of batch) {
            if (WORK_TYPES.has(event.type)) this.index(event);
            this.position = event.position;
          }
          if (batch.length < READ_BATCH) break;
          // The embedded store answers at once: without a turn of the event loop, a long catch-up (a node's
          // start) would hold up every request and timer until it is done.
          await new Promise((resolve) => setImmediate(resolve));
        }
        this.saveStart();
      } finally {
        this.catchingUp = null;
      }
    })();
    return this.catchingUp;
  }

  private saveStart(): void {
    const { indexStart } = this.options;
    if (!indexStart || Date.now() - this.startSavedAt < SAVE_START_EVERY_MS) return;
    let start = this.position;
    for (const items of this.queues.values()) for (const item of items.values()) start = Math.min(start, item.enqueuedAt - 1);
    if (start === this.savedStart) return;
    indexStart.save(start);
    this.savedStart = start;
    this.startSavedAt = Date.now();
  }

  private index(recorded: RecordedEvent): void {
    const event = asWorkEvent(recorded);
    const { queue, item_id: id } = event.data;
    let items = this.queues.get(queue);
    if (!items) this.queues.set(queue, (items = new Map()));
    let known = items.get(id);
    if (!known && event.type === 'WorkRequeued') {
      // Back from the parked items; a node whose index starts after the parking builds it from this event alone.
      known = this.parkedItems.get(queue)?.get(id);
      this.parkedItems.get(queue)?.delete(id);
    }
    if (!known && event.type !== 'WorkEnqueued' && event.type !== 'WorkRequeued') return;
    const item = known ?? { state: workItemDecider.initialState(), revision: -1, enqueuedAt: recorded.position };
    if (recorded.revision <= item.revision) return;
    item.state = workItemDecider.evolve(item.state, event);
    item.revision = recorded.revision;
    if (item.state.status === 'pending' || item.state.status === 'claimed') {
      items.set(id, item);
      return;
    }
    items.delete(id);
    if (item.state.status === 'parked') {
      let parked = this.parkedItems.get(queue);
      if (!parked) this.parkedItems.set(queue, (parked = new Map()));
      parked.set(id, item);
    }
  }
}

/** The work streams are written by this adapter only (their events carry their shape's current version). */
function asWorkEvent(recorded: RecordedEvent): WorkItemEvent {
  if (!WORK_TYPES.has(recorded.type)) throw new Error(`unexpected event ${recorded.type} in ${recorded.stream}`);
  return { type: recorded.type, data: recorded.data } as WorkItemEvent;
}

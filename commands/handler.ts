import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Decider, DomainEvent } from '../domain/shared/decider.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { CURRENT_SCHEMA_VERSION } from '../domain/upcasters.ts';
import { WrongExpectedVersion, type EventMetadata, type EventStore } from '../infra/eventstore/port.ts';
import { eventFromJson, offThreadDeciderFor, type DecisionsOffThread } from './decisions-off-thread.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { estimatedStateBytes } from './state-bytes.ts';

/** Who and what caused a command: becomes the metadata of every event it appends. */
export interface CommandContext {
  workspaceId: string | null;
  /** API key id, `cli`, or a process name. */
  actor: string;
  correlationId?: string;
  causationId?: string | null;
  now: Date;
}

/** A stream folded as it is now: its state, revision (-1: no stream) and the position of its last event (0: none). */
export interface LoadedState<State> {
  state: State;
  revision: number;
  position: number;
}

export interface CommandResult<Event extends DomainEvent<string, object>, State> {
  /** The events appended (empty when the command changed nothing). */
  events: Event[];
  /** Global position of the last appended event, or of nothing (0) when no event was appended. */
  position: number;
  /** Revision of the stream after the command (-1: the stream does not exist). */
  revision: number;
  state: State;
}

/**
 * A refusal the caller said it expects (`tolerate`), returned instead of thrown: a process manager that re-issues
 * a command after a restart learns `already_exists`, a timer that fires after its campaign ended learns
 * `invalid_state`. Any refusal not listed is thrown as usual.
 */
export interface Refused {
  refused: DomainError;
}

export interface HandleOptions {
  /** DomainError codes that are an expected answer here (returned as `{refused}`), e.g. `['already_exists']`. */
  tolerate: readonly string[];
}

export function wasRefused<Result extends object>(result: Result | Refused): result is Refused {
  return 'refused' in result;
}

/** The command handler as the rest of the service sees it (a port: tests may hand in their own). */
export type Commands = Pick<CommandHandler, 'handle' | 'load'>;

interface CachedState {
  state: unknown;
  revision: number;
  /** Global position of the stream's last event (0: none). */
  position: number;
  /** The decider's estimate (`sizeOf`), or the generic one (state-bytes.ts). */
  bytes: number;
}

const MAX_CONFLICT_RETRIES = 20;
/** A command that appends this many events is a large one (campaign creation: one event per 1,000 contacts). */
const MANY_EVENTS = 8;
/** Folded states kept, all streams together (about 60 running 100,000-contact campaigns; see `sizeOf`). */
export const DEFAULT_STATE_CACHE_BYTES = 64 * 1024 * 1024;

/** A folded state's size for the cache: its decider's own estimate, or a walk of the state (state-bytes.ts). */
function stateBytes<State>(decider: Pick<Decider<unknown, DomainEvent<string, object>, State>, 'sizeOf'>, state: State): number {
  return decider.sizeOf ? decider.sizeOf(state) : estimatedStateBytes(state);
}

/**
 * The generic command handler: load the stream, fold it, decide, append with the revision it was folded at, and
 * retry on a version conflict (another writer, e.g. the operator CLI, appended in between).
 *
 * Two things keep it fast and quiet under load: commands on the same stream in this process run one after
 * another (so they don't conflict with each other), and the folded state of recently used streams is cached with
 * its revision, so a command reads only the events appended since (a 100,000-contact campaign is folded once,
 * not on every call outcome). The cache holds at most `cacheBytes` of states by their estimated sizes (the decider's `sizeOf`, else a walk),
 * least recently used first out, so many or large aggregates cannot exhaust the heap: the states being worked on
 * stay, the rest are folded again when next needed.
 */
export class CommandHandler {
  private readonly cache = new Map<string, CachedState>();
  private cachedBytes = 0;
  private readonly queues = new KeyedQueue<string>();

  constructor(
    private readonly store: EventStore,
    private readonly cacheBytes = DEFAULT_STATE_CACHE_BYTES,
    /** Where large commands on new streams are decided (commands/decisions-off-thread.ts); none: all at once, here. */
    private readonly elsewhere: DecisionsOffThread | null = null,
  ) {}

  /** How many bytes of folded states the cache holds now (by the deciders' estimates). */
  get cachedStateBytes(): number {
    return this.cachedBytes;
  }

  handle<Command, Event extends DomainEvent<string, object>, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
  ): Promise<CommandResult<Event, State>>;
  handle<Command, Event extends DomainEvent<string, object>, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
    options: HandleOptions,
  ): Promise<CommandResult<Event, State> | Refused>;
  handle<Command, Event extends DomainEvent<string, object>, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
    options?: HandleOptions,
  ): Promise<CommandResult<Event, State> | Refused> {
    const handled = this.inStreamOrder(stream, () => this.handleNow(decider, stream, command, context));
    if (!options) return handled;
    return handled.catch((error: unknown) => {
      if (error instanceof DomainError && options.tolerate.includes(error.code)) return { refused: error };
      throw error;
    });
  }

  /**
   * Loads and folds a stream without deciding anything (for reads that need the aggregate's own state). It waits
   * its turn behind the commands on the stream: large aggregates evolve their cached state in place, so a read
   * folding the same cached state while a command is between its append and its evolve would apply events twice.
   */
  load<Event extends DomainEvent<string, object>, State>(
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve' | 'sizeOf'>,
    stream: string,
  ): Promise<LoadedState<State>> {
    return this.inStreamOrder(stream, () => this.loadNow(decider, stream));
  }

  /** Runs `work` after everything queued before it on the same stream, in this process. */
  private inStreamOrder<Result>(stream: string, work: () => Promise<Result>): Promise<Result> {
    return this.queues.run(stream, work);
  }

  private async loadNow<Event extends DomainEvent<string, object>, State>(
    decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve' | 'sizeOf'>,
    stream: string,
  ): Promise<LoadedState<State>> {
    const cached = this.cache.get(stream);
    let state = (cached?.state as State | undefined) ?? decider.initialState();
    let revision = cached?.revision ?? -1;
    let position = cached?.position ?? 0;
    const events = await this.store.readStream(stream, { fromRevision: revision + 1 });
    for (const event of events) {
      state = decider.evolve(state, { type: event.type, data: event.data } as Event);
      revision = event.revision;
      position = event.position;
    }
    this.remember(stream, { state, revision, position, bytes: stateBytes(decider, state) });
    return { state, revision, position };
  }

  private async handleNow<Command, Event extends DomainEvent<string, object>, State>(
    decider: Decider<Command, Event, State>,
    stream: string,
    command: Command,
    context: CommandContext,
  ): Promise<CommandResult<Event, State>> {
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await this.loadNow(decider, stream);
      const { events, serialized, folded } = await this.decideNow(decider, command, state, revision, context);
      if (events.length === 0) return { events, position: 0, revision, state };
      const metadata = this.metadata(context);
      try {
        const appended = await this.store.append(
          stream,
          events.map((event, index) => {
            const id = randomUUID();
            if (!serialized) return { id, type: event.type, data: event.data as Record<string, unknown>, metadata };
            // Decided elsewhere: the store writes the JSON; only a store that wants objects (EventStoreDB) parses it.
            return { id, type: event.type, get data() { return event.data as Record<string, unknown>; }, serializedData: serialized[index], metadata };
          }),
          { expectedRevision: revision === -1 ? 'no_stream' : revision },
        );
        // The append's commit just took its turn of the event loop: evolving many events (a large campaign's
        // contacts, 1,000 per event) takes milliseconds more, so the requests waiting get a turn first.
        if (events.length >= MANY_EVENTS && !folded) await nextTurn();
        let next = folded ?? state;
        if (!folded) for (const event of events) next = decider.evolve(next, event);
        this.remember(stream, { state: next, revision: appended.nextExpectedRevision, position: appended.position, bytes: stateBytes(decider, next) });
        return { events, position: appended.position, revision: appended.nextExpectedRevision, state: next };
      } catch (error) {
        // Large aggregates may evolve their state in place: never trust a cached state after a failed append.
        this.forget(stream);
        if (!(error instanceof WrongExpectedVersion) || attempt >= MAX_CONFLICT_RETRIES) throw error;
      }
    }
  }

  /**
   * Decides here, or, for a large command on a new stream, on the decision thread, which answers the events as
   * JSON (appended as they are; their data parsed here only if a caller reads it) and the state they fold to.
   */
  private async decideNow<Command, Event extends DomainEvent<string, object>, State>(
    decider: Decider<Command, Event, State>,
    command: Command,
    state: State,
    revision: number,
    context: CommandContext,
  ): Promise<{ events: Event[]; serialized: string[] | null; folded: State | null }> {
    const elsewhere = revision === -1 && this.elsewhere ? offThreadDeciderFor(decider as Decider<unknown, Event, unknown>, command) : null;
    if (!elsewhere) return { events: decider.decide(command, state), serialized: null, folded: null };
    const decision = await this.elsewhere!.decide(elsewhere, command, context.workspaceId);
    if ('refused' in decision) throw new DomainError(decision.refused.code, decision.refused.message, decision.refused.details);
    return {
      events: decision.events.map((event) => eventFromJson<Event>(event)),
      serialized: decision.events.map((event) => event.json),
      folded: decision.events.length > 0 ? (decision.state as State) : null,
    };
  }

  private metadata(context: CommandContext): EventMetadata {
    const correlationId = context.correlationId ?? randomUUID();
    return {
      workspace_id: context.workspaceId,
      actor: context.actor,
      correlation_id: correlationId,
      causation_id: context.causationId ?? null,
      occurred_at: context.now.toISOString(),
      schema_version: CURRENT_SCHEMA_VERSION,
    };
  }

  private remember(stream: string, entry: CachedState): void {
    this.forget(stream);
    // A state larger than the whole budget is folded on every use rather than pushing everything else out.
    if (entry.bytes > this.cacheBytes) return;
    this.cache.set(stream, entry);
    this.cachedBytes += entry.bytes;
    for (const [oldest, cached] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break;
      this.cache.delete(oldest);
      this.cachedBytes -= cached.bytes;
    }
  }

  private forget(stream: string): void {
    const cached = this.cache.get(stream);
    if (!cached) return;
    this.cache.delete(stream);
    this.cachedBytes -= cached.bytes;
  }
}

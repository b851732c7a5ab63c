/**
 * Commands too large to decide on the event loop. Creating a campaign of 20,000 contacts validates every contact
 * (about 35 ms) and serialising its 21 events takes another 20 ms: two turns of the event loop in which every other
 * workspace's request waits (issue 12: one tenant must not slow the others). Such a command is decided on a worker
 * thread instead (infra/worker-threads/decision-pool.ts), which hands back the events already serialised and the
 * state they fold to. The command handler appends the JSON as it is and caches the state: the contacts never become
 * objects on the event loop's heap (20,000 of them, parsed and serialised, made the young generation's collections
 * copy megabytes). The state crosses cheaply: a campaign keeps its contacts in typed arrays (contact-table.ts).
 *
 * Only a command on a stream that does not exist yet goes there: the thread starts from the decider's initial
 * state, so nothing but the command crosses to it. The append still expects `no_stream`, so a stream created
 * meanwhile (another process) makes the handler fold and decide again, on the event loop, like any conflict.
 */
import { campaignDecider } from '../domain/campaign.ts';
import type { CampaignCommand } from '../domain/campaign/types.ts';
import { fold, type Decider, type DomainEvent } from '../domain/shared/decider.ts';
import { DomainError } from '../domain/shared/errors.ts';

/** Below this many contacts a campaign is decided at once: the thread's round trip would cost more than it saves. */
export const CONTACTS_DECIDED_OFF_THREAD = 2_000;

interface OffThreadDecider<Command> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  decider: Decider<Command, any, any>;
  /** Whether this command, on a new stream, is worth the trip to the thread. */
  worthIt(command: Command): boolean;
}

/** The deciders a worker thread may run, by name: the name is what crosses to the thread. */
export const OFF_THREAD_DECIDERS = {
  campaign: {
    decider: campaignDecider,
    worthIt: (command) => command.type === 'CreateCampaign' && command.data.contacts.length >= CONTACTS_DECIDED_OFF_THREAD,
  } satisfies OffThreadDecider<CampaignCommand>,
};

export type OffThreadDeciderName = keyof typeof OFF_THREAD_DECIDERS;

/** An event decided elsewhere: its type and its data as JSON. */
export interface SerializedEvent {
  type: string;
  json: string;
}

/**
 * What the thread answers: the events and the state they fold to from the initial state, or the decider's refusal
 * (a DomainError does not survive the crossing).
 */
export type OffThreadDecision = { events: SerializedEvent[]; state: unknown } | { refused: Pick<DomainError, 'code' | 'message' | 'details'> };

/** The port the command handler decides large commands through (a worker pool in the server; none in most tests). */
export interface DecisionsOffThread {
  /** Decides `command` on the named decider's initial state; workspaces take turns for the thread. */
  decide(name: OffThreadDeciderName, command: unknown, workspaceId: string | null): Promise<OffThreadDecision>;
}

/** The name under which `decider` runs off the thread for `command`, or null when it is decided at once. */
export function offThreadDeciderFor(decider: Decider<unknown, DomainEvent<string, object>, unknown>, command: unknown): OffThreadDeciderName | null {
  for (const [name, entry] of Object.entries(OFF_THREAD_DECIDERS) as Array<[OffThreadDeciderName, OffThreadDecider<unknown>]>) {
    if (entry.decider === decider) return entry.worthIt(command) ? name : null;
  }
  return null;
}

/** Runs on the thread: decide on the initial state, serialise each event's data, fold the state. */
export function decideOffThread(name: OffThreadDeciderName, command: unknown): OffThreadDecision {
  const { decider } = OFF_THREAD_DECIDERS[name] as OffThreadDecider<unknown>;
  try {
    const events = decider.decide(command, decider.initialState()) as Array<DomainEvent<string, object>>;
    return { events: events.map((event) => ({ type: event.type, json: JSON.stringify(event.data) })), state: fold(decider, events) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { refused: { code: error.code, message: error.message, details: error.details } };
  }
}

/** An event decided elsewhere, as the command handler returns it: its data parsed only if someone reads it. */
export function eventFromJson<Event extends DomainEvent<string, object>>(serialized: SerializedEvent): Event {
  let data: object | undefined;
  return {
    type: serialized.type,
    get data() {
      return (data ??= JSON.parse(serialized.json) as object);
    },
  } as Event;
}

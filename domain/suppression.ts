import type { Decider, DomainEvent } from './shared/decider.ts';
import { DomainError } from './shared/errors.ts';
import { E164_DESCRIPTION, isE164 } from './shared/phone.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * The do-not-call list of a workspace (stream `suppression-<workspace_id>`). A number gets on it from a call
 * whose disposition is `dnd` (the customer asked never to be called again) or by the API; only the API takes it
 * off. The dialer checks it before every attempt: a suppressed contact becomes final `dnd` without a call.
 * Adding a number that is already listed changes nothing (no event), so replays and repeated requests are safe.
 */
/**
 * `call_outcome`: a call ended `dnd`; `opt_out`: the compliance check found the person asking, in the transcript,
 * not to be called again (issue 14, in-dpdp); `api`: POST /v1/suppressions.
 */
export type SuppressionSource = 'call_outcome' | 'opt_out' | 'api';

export interface SuppressNumber {
  type: 'SuppressNumber';
  data: { phone: string; source: SuppressionSource; call_id?: string | null; reason?: string | null; at: string };
}
export interface UnsuppressNumber {
  type: 'UnsuppressNumber';
  data: { phone: string; at: string };
}
export type SuppressionCommand = SuppressNumber | UnsuppressNumber;

export type NumberSuppressed = DomainEvent<
  'NumberSuppressed',
  { phone: string; source: SuppressionSource; call_id: string | null; reason: string | null; suppressed_at: string }
>;
export type NumberUnsuppressed = DomainEvent<'NumberUnsuppressed', { phone: string; unsuppressed_at: string }>;
export type SuppressionEvent = NumberSuppressed | NumberUnsuppressed;

export interface SuppressionEntry {
  source: SuppressionSource;
  suppressed_at: string;
}

export interface SuppressionState {
  numbers: Map<string, SuppressionEntry>;
}

export function initialSuppressionState(): SuppressionState {
  return { numbers: new Map() };
}

/** In place, like the campaign: a workspace's list can be long. */
export function evolveSuppression(state: SuppressionState, event: SuppressionEvent): SuppressionState {
  if (event.type === 'NumberSuppressed') {
    state.numbers.set(event.data.phone, { source: event.data.source, suppressed_at: event.data.suppressed_at });
  } else state.numbers.delete(event.data.phone);
  return state;
}

export function decideSuppression(command: SuppressionCommand, state: SuppressionState): SuppressionEvent[] {
  const { phone, at } = command.data;
  if (!isE164(phone)) {
    throw new DomainError('invalid_parameter', `phone: expected ${E164_DESCRIPTION}`, { field: 'phone', provided: phone, expected: E164_DESCRIPTION });
  }
  if (command.type === 'SuppressNumber') {
    if (state.numbers.has(phone)) return [];
    const { source, call_id = null, reason = null } = command.data;
    return [{ type: 'NumberSuppressed', data: { phone, source, call_id, reason, suppressed_at: at } }];
  }
  if (!state.numbers.has(phone)) {
    throw new DomainError('resource_not_found', `${phone} is not on the do-not-call list.`, { resource_type: 'suppressed_number', id: phone });
  }
  return [{ type: 'NumberUnsuppressed', data: { phone, unsuppressed_at: at } }];
}

export function isSuppressed(state: SuppressionState, phone: string): boolean {
  return state.numbers.has(phone);
}

/** On the list because its owner asked not to be called again (a `dnd` outcome or a detected opt-out), not by the API. */
export function hasOptedOut(state: SuppressionState, phone: string): boolean {
  const source = state.numbers.get(phone)?.source;
  return source === 'call_outcome' || source === 'opt_out';
}

/**
 * For the command handler's cache: about 200 bytes a number (the map's entry, the number, the entry and its
 * timestamp), counted without walking a list that can hold hundreds of thousands of them on every command.
 */
export function suppressionStateBytes(state: SuppressionState): number {
  return 1_024 + 200 * state.numbers.size;
}

export const suppressionDecider: Decider<SuppressionCommand, SuppressionEvent, SuppressionState> = {
  initialState: initialSuppressionState,
  evolve: evolveSuppression,
  decide: decideSuppression,
  sizeOf: suppressionStateBytes,
};

/** One list per workspace: the stream is named after the workspace. */
const suppressionStreams = streamCategory('suppression');
export const suppressionStream = suppressionStreams.stream;
export const suppressionWorkspaceIdOf = suppressionStreams.idOf;

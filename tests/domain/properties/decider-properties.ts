import * as fc from 'fast-check';
import * as assert from 'uvu/assert';
import { fold, type Decider, type DomainEvent } from '../../../domain/shared/decider.ts';
import { DomainError } from '../../../domain/shared/errors.ts';

/**
 * The properties every decider must have, checked over random sequences of its commands (plausible and invalid
 * ones mixed, all aimed at one stream):
 *
 * - `decide` refuses only with a DomainError (anything else would reach a client as a 500 or kill a process manager);
 * - `decide` never changes the state it is given (campaign and suppression states are evolved in place, so a
 *   mutating decide would corrupt the command handler's cached state on a refusal);
 * - the events it returns survive the event store (JSON): folding the stored form gives the same state;
 * - `evolve` is deterministic: folding the same events twice gives equal states, equal to the state built step by
 *   step;
 * - the decider's own invariants hold after every accepted command.
 */
export interface Invariant<Event, State> {
  name: string;
  /** A message when the invariant is broken, else null. `before` is a fresh fold of the events before `events`. */
  broken(after: State, before: State, events: Event[]): string | null;
}

export interface DeciderSpecification<Command, Event extends DomainEvent<string, object>, State> {
  decider: Decider<Command, Event, State>;
  /** One command: the sequence generator strings several together. */
  command: fc.Arbitrary<Command>;
  /** A command (or a few) that let a sequence get past the creation step: prepended to most sequences. */
  opening?: fc.Arbitrary<Command> | fc.Arbitrary<Command[]>;
  invariants?: Array<Invariant<Event, State>>;
  maxCommands?: number;
}

/** Enough sequences to find the usual slips, few enough that all deciders run in seconds. */
export const RUNS_PER_DECIDER = 200;

export function checkDeciderProperties<Command, Event extends DomainEvent<string, object>, State>(
  specification: DeciderSpecification<Command, Event, State>,
): void {
  const { command, opening, maxCommands = 20 } = specification;
  const sequence = opening
    ? fc.oneof(
        { weight: 1, arbitrary: fc.array(command, { maxLength: maxCommands, size: 'max' }) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(opening as fc.Arbitrary<Command | Command[]>, fc.array(command, { maxLength: maxCommands, size: 'max' }))
            .map(([first, rest]) => [...(Array.isArray(first) ? first : [first]), ...rest]),
        },
      )
    : fc.array(command, { maxLength: maxCommands, size: 'max' });
  eventTypeCounts.clear();
  fc.assert(
    fc.property(sequence, (commands) => runSequence(specification, commands)),
    { numRuns: RUNS_PER_DECIDER, includeErrorInReport: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
  );
}

/** With DECIDER_STATS set: how many events of each type the accepted commands produced (is the generator reaching deep states?). */
const eventTypeCounts = new Map<string, number>();
process.on('exit', () => {
  if (eventTypeCounts.size > 0) process.stdout.write(`${JSON.stringify(Object.fromEntries(eventTypeCounts))}\n`);
});

function runSequence<Command, Event extends DomainEvent<string, object>, State>(
  { decider, invariants = [] }: DeciderSpecification<Command, Event, State>,
  commands: Command[],
): void {
  let state = decider.initialState();
  const accepted: Event[] = [];
  const stats = process.env.DECIDER_STATS ? eventTypeCounts : null;
  for (const command of commands) {
    const snapshot = canonical(state);
    let events: Event[];
    try {
      events = decider.decide(command, state);
    } catch (error) {
      if (!(error instanceof DomainError)) {
        throw new Error(`decide threw ${describe(error)} for ${JSON.stringify(command)}`);
      }
      assert.ok(typeof error.code === 'string' && error.code.length > 0, 'a refusal has a code');
      assert.equal(canonical(state), snapshot, `a refused ${typeOf(command)} changed the state`);
      continue;
    }
    assert.equal(canonical(state), snapshot, `deciding ${typeOf(command)} changed the state`);
    assert.ok(Array.isArray(events), 'decide returns an array');
    const before = fold(decider, accepted);
    accepted.push(...events);
    if (stats) for (const event of events) stats.set(event.type, (stats.get(event.type) ?? 0) + 1);
    state = fold(decider, events, state);
    for (const invariant of invariants) {
      const message = invariant.broken(state, before, events);
      if (message !== null) throw new Error(`invariant "${invariant.name}" broken after ${JSON.stringify(command)}: ${message}`);
    }
  }
  const once = canonical(fold(decider, accepted));
  assert.equal(canonical(fold(decider, accepted)), once, 'folding the same events twice gives the same state');
  assert.equal(canonical(state), once, 'the state built step by step is the state of a fresh fold');
  const stored = JSON.parse(JSON.stringify(accepted)) as Event[];
  assert.equal(canonical(fold(decider, stored)), once, 'the events as stored (JSON) fold to the same state');
}

/**
 * A plain, comparable form of a state: maps become sorted entry lists, typed arrays plain arrays, dates ISO text,
 * undefined members disappear (as they do in JSON). NaN stays NaN, so an event that carried one would show up as
 * a difference against its stored form (null).
 */
export function canonical(value: unknown): unknown {
  if (value instanceof Map) return { map: [...value.entries()].map(([key, member]) => [canonical(key), canonical(member)]).sort(byJson) };
  if (value instanceof Set) return { set: [...value].map(canonical).sort(byJson) };
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) result[key] = canonical(member);
    }
    return result;
  }
  return value;
}

function byJson(left: unknown, right: unknown): number {
  const a = JSON.stringify(left);
  const b = JSON.stringify(right);
  return a < b ? -1 : a > b ? 1 : 0;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function typeOf(command: unknown): string {
  return (command as { type?: string }).type ?? 'command';
}

/**
 * A decider: the pure heart of an aggregate. No I/O, no clock, no randomness: time and ids arrive on the command.
 * `decide` returns the events a command causes, or throws a DomainError.
 */
export interface DomainEvent<Type extends string = string, Data extends object = Record<string, unknown>> {
  type: Type;
  data: Data;
}

export interface Decider<Command, Event extends DomainEvent<string, object>, State> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /**
   * Roughly how many bytes a folded state holds: the command handler keeps folded states within a byte budget.
   * Without it the handler walks the state (commands/state-bytes.ts); give one where a walk would cost more than a
   * formula, for states that are large and regular (a campaign's contact table, a job's transcript).
   */
  sizeOf?(state: State): number;
}

export function fold<Event extends DomainEvent<string, object>, State>(
  decider: Pick<Decider<unknown, Event, State>, 'initialState' | 'evolve'>,
  events: Iterable<Event>,
  state: State = decider.initialState(),
): State {
  let current = state;
  for (const event of events) current = decider.evolve(current, event);
  return current;
}

/**
 * Narrows an event read from a stream to the event type of its name. Sound because every read passes through the
 * upcasters (domain/upcasters.ts), which give stored data its type's current shape: the one guarantee readers of
 * events rely on, here for code that picks events out of a stream by hand.
 */
export function isEventOfType<Event extends DomainEvent<string, object>, Type extends Event['type']>(
  event: { type: string; data: object },
  ...types: Type[]
): event is Extract<Event, { type: Type }> {
  return (types as string[]).includes(event.type);
}

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

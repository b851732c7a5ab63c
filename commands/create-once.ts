import type { Decider, DomainEvent } from '../domain/shared/decider.ts';
import { wasRefused, type CommandContext, type Commands } from './handler.ts';

export interface Created<State> {
  state: State;
  /** Where to wait for read-your-writes: the append, or the existing stream's last event. */
  position: number;
  /** False when the aggregate already existed under this id. */
  created: boolean;
}

/**
 * Creates an aggregate whose id may be derived from the request (`Idempotency-Key`: http/resource-id.ts). When the
 * stream already exists, the request is the retry of one whose first run appended and then died before it could
 * answer (a crash, a lost connection): the aggregate as it exists is the answer, and nothing is created twice. The
 * deciders refuse a second creation with `already_exists`.
 */
export async function createOnce<Command, Event extends DomainEvent<string, object>, State>(
  commands: Commands,
  decider: Decider<Command, Event, State>,
  stream: string,
  command: Command,
  context: CommandContext,
): Promise<Created<State>> {
  const result = await commands.handle(decider, stream, command, context, { tolerate: ['already_exists'] });
  if (!wasRefused(result)) return { state: result.state, position: result.position, created: true };
  const existing = await commands.load(decider, stream);
  return { state: existing.state, position: existing.position, created: false };
}

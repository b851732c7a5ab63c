import * as assert from 'uvu/assert';
import { fold, type Decider, type DomainEvent } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/errors.ts';

/**
 * Given/when/then over a decider, on plain data:
 *   given(decider, [events]).when(command).then([events])
 *   given(decider, [events]).when(command).thenThrows('invalid_state')
 */
export function given<Command, Event extends DomainEvent<string, object>, State>(decider: Decider<Command, Event, State>, events: Event[] = []) {
  return {
    when(command: Command) {
      const run = () => decider.decide(command, fold(decider, events));
      return {
        then(expected: Event[]): Event[] {
          const actual = run();
          assert.equal(actual, expected);
          return actual;
        },
        thenThrows(code: string, details?: Record<string, unknown>): DomainError {
          try {
            const produced = run();
            assert.unreachable(`expected ${code}, but the decider produced ${JSON.stringify(produced)}`);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            assert.is(error.code, code, error.message);
            if (details) for (const [key, value] of Object.entries(details)) assert.equal(error.details[key], value);
            return error;
          }
          throw new Error('unreachable');
        },
        /** For commands that must change nothing (idempotent repeats). */
        thenNothing(): void {
          assert.equal(run(), []);
        },
      };
    },
  };
}

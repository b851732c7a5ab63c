import type { Database } from 'better-sqlite3';
import type { Commands } from '../commands/handler.ts';
import type { Clock } from '../infra/clock/port.ts';
import type { ReadYourWrites } from './read-your-writes.ts';

/**
 * What a resource's routes are built from: the command handler to write, the read models to answer GETs, the clock
 * for ids and timestamps, and read-your-writes for responses after a write. A route module that needs more (the
 * recording links, the secret box) asks for it beside these; none gets the whole service.
 */
export interface ResourcePorts {
  commands: Commands;
  clock: Clock;
  /** The read models (projections/): every GET answers from them. */
  readDb: Database;
  readYourWrites: ReadYourWrites;
}

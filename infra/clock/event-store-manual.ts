import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CURRENT_SCHEMA_VERSION } from '../../domain/upcasters.ts';
import { WrongExpectedVersion, type EventStore } from '../eventstore/port.ts';
import { assertForward, ManualClock } from './manual.ts';

export const MANUAL_CLOCK_STREAM = 'manual-clock';
const movedData = z.object({ now: z.string().datetime({ offset: true }) });
/** How often a node looks for a move made on another node. */
const FOLLOW_EVERY_MS = 100;

/**
 * The manual clock of a cluster (CLOCK=manual with CLUSTER=true): its time lives in the event store, one
 * `ManualClockMoved {now}` per move in the stream `manual-clock`, so every node shares one clock. A move appends the
 * new time with the stream's expected revision (two nodes moving at once both count: the second reads the first's
 * time and adds to it); each node follows the stream and adopts a later time within about a tenth of a second
 * (its `moved` emits, so its timers fire). The node that moved the clock sees the new time at once.
 */
export class EventStoreManualClock extends ManualClock {
  private revision = -1;
  private follower: NodeJS.Timeout | null = null;
  private following: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Pick<EventStore, 'append' | 'readStream'>,
    start: Date,
  ) {
    super(null, start);
  }

  /** Reads the shared time (the first node to start writes its CLOCK_START), then follows moves made elsewhere. */
  async sync(): Promise<void> {
    const shared = (await this.store.readStream(MANUAL_CLOCK_STREAM)).at(-1);
    if (shared) {
      // The shared time, even when it is before this node's own CLOCK_START: the cluster has one clock.
      this.reset(new Date(movedData.parse(shared.data).now));
      this.revision = shared.revision;
    }
    if (this.revision < 0) {
      try {
        await this.append(this.now(), 'no_stream');
      } catch (error) {
        if (!(error instanceof WrongExpectedVersion)) throw error;
        await this.read();
      }
    }
    this.follower ??= setInterval(() => {
      this.following = this.following.then(() => this.read()).catch(() => undefined);
    }, FOLLOW_EVERY_MS);
  }

  stop(): Promise<void> {
    if (this.follower) clearInterval(this.follower);
    this.follower = null;
    return this.following;
  }

  override advance(): Date {
    throw new Error("a cluster's manual clock moves through the event store: use move()");
  }

  override async move(seconds: number): Promise<Date> {
    assertForward(seconds);
    for (let attempt = 0; ; attempt++) {
      await this.read();
      const next = new Date(this.now().getTime() + Math.round(seconds * 1000));
      try {
        await this.append(next, this.revision < 0 ? 'no_stream' : this.revision);
        this.adopt(next);
        return this.now();
      } catch (error) {
        if (!(error instanceof WrongExpectedVersion) || attempt >= 10) throw error;
      }
    }
  }

  private async read(): Promise<void> {
    const events = await this.store.readStream(MANUAL_CLOCK_STREAM, { fromRevision: this.revision + 1 });
    for (const event of events) {
      this.revision = event.revision;
      this.adopt(new Date(movedData.parse(event.data).now));
    }
  }

  private async append(time: Date, expectedRevision: number | 'no_stream'): Promise<void> {
    const appended = await this.store.append(
      MANUAL_CLOCK_STREAM,
      [
        {
          id: randomUUID(),
          type: 'ManualClockMoved',
          data: { now: time.toISOString() },
          metadata: { workspace_id: null, actor: 'sandbox-clock', correlation_id: randomUUID(), causation_id: null, occurred_at: time.toISOString(), schema_version: CURRENT_SCHEMA_VERSION },
        },
      ],
      { expectedRevision },
    );
    this.revision = appended.nextExpectedRevision;
  }
}

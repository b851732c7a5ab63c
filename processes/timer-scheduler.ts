import type { Database } from 'better-sqlite3';
import type { Subscription } from 'rxjs';
import type { CommandHandler } from '../commands/handler.ts';
import { timerDecider, timerStream } from '../domain/timer.ts';
import type { Clock } from '../infra/clock/port.ts';
import type { Logger } from '../infra/logger.ts';
import { dueTimers } from '../projections/timers.ts';

const POLL_MS = 200;
const BATCH = 500;

/**
 * Fires due timers: looks up the `timers` read model for what is due by the Clock, and appends `TimerFired` to
 * each timer's stream. The decider makes firing idempotent, so a timer the read model still shows as pending (it
 * has not caught up yet) is simply fired "again" as a no-op. Wakes up on a short poll and whenever a manual clock
 * is moved.
 */
export class TimerScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private pending = false;
  private movedSubscription: Subscription | null = null;
  private stopped = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly commands: CommandHandler,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.movedSubscription = this.clock.moved.subscribe(() => this.tick());
    this.timer = setInterval(() => this.tick(), POLL_MS);
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.movedSubscription?.unsubscribe();
    await this.current;
  }

  /** Fires everything due now; resolves when done (tests call it directly). */
  fireDue(): Promise<void> {
    this.tick();
    return this.current;
  }

  private tick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = true;
    this.current = this.fireAll()
      .catch((error: unknown) => this.logger?.error({ err: error }, 'timer scheduler round failed'))
      .finally(() => {
        this.running = false;
        if (this.pending) {
          this.pending = false;
          this.tick();
        }
      });
  }

  private async fireAll(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const due = dueTimers(this.db, now.getTime(), BATCH);
      if (due.length === 0) return;
      let fired = 0;
      for (const { timer_id: timerId, workspace_id: workspaceId } of due) {
        if (this.stopped) return;
        const result = await this.commands.handle(timerDecider, timerStream(timerId), { type: 'FireTimer', now }, {
          workspaceId,
          actor: 'timer-scheduler',
          now,
        });
        fired += result.events.length;
      }
      // Nothing new fired: the read model has not caught up with what we fired; the next poll looks again.
      if (fired === 0) return;
    }
  }
}

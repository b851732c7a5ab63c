import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Subject } from 'rxjs/internal/Subject';
import type { Clock } from './port.ts';

/**
 * A clock that stands still until moved (`CLOCK=manual`). Its time is kept in a small file under DATA_DIR so that
 * a restart, or the operator CLI, sees the same time: timers set for "four hours later" must still be four hours
 * away after the process comes back.
 */
export class ManualClock implements Clock {
  readonly kind = 'manual' as const;
  private readonly movedSubject = new Subject<Date>();
  readonly moved = this.movedSubject.asObservable();
  private current: Date;

  constructor(
    private readonly statePath: string | null,
    start: Date = new Date(),
  ) {
    this.current = this.load() ?? start;
    this.save();
  }

  now(): Date {
    const stored = this.load();
    // Another process (the CLI) may have moved the shared clock.
    if (stored && stored.getTime() > this.current.getTime()) this.current = stored;
    return new Date(this.current.getTime());
  }

  advance(seconds: number): Date {
    assertForward(seconds);
    this.current = new Date(this.now().getTime() + Math.round(seconds * 1000));
    this.save();
    this.movedSubject.next(this.now());
    return this.now();
  }

  /** Moves the clock forward by `seconds` wherever it is kept (POST /sandbox/clock); here, at once. */
  move(seconds: number): Promise<Date> {
    return Promise.resolve(this.advance(seconds));
  }

  /** Takes the time kept elsewhere as this clock's own, before anything read this clock (a cluster node's start). */
  protected reset(time: Date): void {
    this.current = new Date(time.getTime());
    this.save();
  }

  /** Adopts a later time learnt from elsewhere (a cluster's shared clock); an earlier one changes nothing. */
  protected adopt(time: Date): void {
    if (time.getTime() <= this.current.getTime()) return;
    this.current = new Date(time.getTime());
    this.save();
    this.movedSubject.next(this.now());
  }

  private load(): Date | null {
    if (!this.statePath || !existsSync(this.statePath)) return null;
    try {
      const parsed = JSON.parse(readFileSync(this.statePath, 'utf8')) as { now?: string };
      const time = parsed.now ? new Date(parsed.now) : null;
      return time && !Number.isNaN(time.getTime()) ? time : null;
    } catch {
      return null;
    }
  }

  private save(): void {
    if (!this.statePath) return;
    const temporary = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ now: this.current.toISOString() }));
    renameSync(temporary, this.statePath);
  }
}

export function assertForward(seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('a manual clock only moves forward');
}

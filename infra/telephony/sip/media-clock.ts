import { performance } from 'node:perf_hooks';

/**
 * One 20 ms clock for every call's outgoing RTP, run on the media thread (media-worker.ts), whose event loop does
 * nothing else. Each tick is scheduled against the clock's own start (not the previous tick), so timer lateness
 * never accumulates; when a tick was late by more than a frame, each stream sends the frames it owes at once,
 * keeping the packet count (and the RTP timestamps) on real time. Node's timers count whole milliseconds of a
 * cached loop time, so they fire up to a millisecond early or late: the timer is set `PRECISE_WAIT_MS` before the
 * tick is due and the thread then sleeps (Atomics.wait, no spinning) to the due time. That holds the thread's
 * event loop for about that long each tick (received packets wait in the socket meanwhile), so it is for the
 * media thread only. One timer for all calls instead of one per call keeps a hundred calls cheap.
 */
export const FRAME_MS = 20;
const PRECISE_WAIT_MS = 1.5;

export interface ClockedStream {
  /** Send frame number `frame` (counted from the stream's own start). */
  tick(frame: number): void;
}

export class MediaClock {
  private readonly streams = new Map<ClockedStream, { firstFrame: number; sent: number }>();
  private timer: NodeJS.Timeout | null = null;
  private readonly originMs = performance.now();
  /** The frame the pending timer is set for. */
  private frame = 0;
  /** Lateness of each tick behind its schedule, ms (a sample, for the benchmark). */
  readonly lateness: number[] = [];
  /** How long each tick took to send every stream's frames, ms (a sample, for the benchmark). */
  readonly durations: number[] = [];

  /** Called after every tick, once each stream has sent its frames (the media thread reports to the main thread then). */
  private readonly sleeper = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly afterTick: () => void = () => undefined) {}

  /** The stream's frame 0 is the next tick. */
  add(stream: ClockedStream): void {
    if (!this.timer) this.schedule(this.currentFrame() + 1);
    this.streams.set(stream, { firstFrame: this.frame, sent: 0 });
  }

  remove(stream: ClockedStream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private currentFrame(): number {
    return Math.floor((performance.now() - this.originMs) / FRAME_MS);
  }

  private schedule(frame: number): void {
    this.frame = frame;
    const due = this.originMs + frame * FRAME_MS;
    this.timer = setTimeout(() => this.run(), Math.max(0, due - performance.now() - PRECISE_WAIT_MS));
  }

  private run(): void {
    const due = this.originMs + this.frame * FRAME_MS;
    const early = due - performance.now();
    if (early > 0) Atomics.wait(this.sleeper, 0, 0, early);
    const now = performance.now();
    if (this.lateness.length < 100_000) this.lateness.push(now - due);
    const target = Math.max(this.frame, this.currentFrame());
    for (const [stream, state] of this.streams) {
      // Frames owed since the stream started (one normally, more after a late tick).
      while (state.firstFrame + state.sent <= target) {
        stream.tick(state.sent);
        state.sent++;
      }
    }
    this.afterTick();
    if (this.durations.length < 100_000) this.durations.push(performance.now() - now);
    if (this.streams.size > 0) this.schedule(target + 1);
    else this.timer = null;
  }
}

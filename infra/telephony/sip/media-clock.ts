import { performance } from 'node:perf_hooks';

/**
 * One 20 ms clock for every call's outgoing RTP. Each tick is scheduled against the clock's own start (not the
 * previous tick), so timer lateness never accumulates; when the event loop was late by more than a frame, each
 * stream sends the frames it owes at once, keeping the packet count (and the RTP timestamps) on real time.
 * One timer for all calls instead of one per call keeps a hundred calls cheap.
 */
export const FRAME_MS = 20;

export interface ClockedStream {
  /** Send frame number `frame` (counted from the stream's own start). */
  tick(frame: number, nowMs: number): void;
}

export class MediaClock {
  private readonly streams = new Map<ClockedStream, { firstFrame: number; sent: number }>();
  private timer: NodeJS.Timeout | null = null;
  private readonly originMs = performance.now();
  private frame = 0;
  /** Lateness of each tick behind its schedule, ms (a sample, for the benchmark). */
  readonly lateness: number[] = [];

  add(stream: ClockedStream): void {
    this.streams.set(stream, { firstFrame: this.currentFrame(), sent: 0 });
    if (!this.timer) this.schedule();
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

  private schedule(): void {
    this.frame = this.currentFrame() + 1;
    const due = this.originMs + this.frame * FRAME_MS;
    this.timer = setTimeout(() => this.run(), Math.max(0, due - performance.now()));
  }

  private run(): void {
    const now = performance.now();
    const due = this.originMs + this.frame * FRAME_MS;
    if (this.lateness.length < 100_000) this.lateness.push(now - due);
    const target = this.currentFrame();
    for (const [stream, state] of this.streams) {
      // Frames owed since the stream started (one normally, more after a late tick).
      while (state.firstFrame + state.sent <= target) {
        stream.tick(state.sent, now);
        state.sent++;
      }
    }
    if (this.streams.size > 0) this.schedule();
    else this.timer = null;
  }
}

export const sharedMediaClock = new MediaClock();

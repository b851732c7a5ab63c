/**
 * At most `count` tasks at once; the others wait here (for a worker pool: where their time budget does not run yet).
 * A freed slot goes to the waiting workspace that has **used the slots least lately**, not first come first served
 * and not merely in turn: one workspace's burst (every answered call of a 20,000-contact campaign analysed, a hundred
 * reports, forty 7 MB request bodies) waits behind its own tasks, not in front of another workspace's.
 *
 * Why by time used, not one task each in turn: turns by count gave a workspace of small tasks one task per task of
 * its neighbour. With a neighbour sending 4,000-segment transcripts (a second each on the analysis thread), a
 * workspace submitting two small transcripts a second got one done a second; its queue grew for as long as the
 * neighbour kept on, and its jobs' latency with it (issue 12: p50 4 s, p99 over 15 s after a minute). By time used,
 * the small tasks go first whenever they wait, and wait at most for the task running: each busy workspace gets an
 * equal share of the slots' time, whatever its tasks' sizes.
 *
 * Time used decays (halving every USAGE_HALF_LIFE_MS), so what counts is the last minute or so, not history: a
 * workspace that was busy an hour ago is not held back now, and one that has waited long enough always gets a turn
 * (its usage decays while another's grows). Among workspaces with equal use (none yet), the one served least
 * recently goes first (round robin).
 */

/** How quickly past use is forgotten: a task's time counts half after this long. */
export const USAGE_HALF_LIFE_MS = 20_000;
/** Usage below this (ms, decayed) is forgotten, so the table holds only workspaces that used the slots lately. */
const FORGET_BELOW_MS = 1;
/** The table is swept when it reaches this size, then again at twice what the sweep left: amortised, not per turn. */
const FIRST_SWEEP_AT_ENTRIES = 256;

/** A slot held: `end()` gives it back and counts the time it was held against its workspace. */
export interface Turn {
  end(): void;
}

interface Usage {
  ms: number;
  at: number;
}

export class WorkspaceTurns {
  private free: number;
  /** Workspaces with tasks waiting, in round-robin order: the one served last is at the end. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly usage = new Map<string, Usage>();
  private sweepAt = FIRST_SWEEP_AT_ENTRIES;

  constructor(
    count: number,
    /** Milliseconds, monotonic; tests move it by hand. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.free = count;
  }

  /** How many wait for a slot, all workspaces together. */
  get waitingCount(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** The workspace's use of the slots lately (ms, decayed): what decides who goes next. */
  usedLately(owner: string): number {
    const usage = this.usage.get(owner);
    if (!usage) return 0;
    return usage.ms * 2 ** (-(this.now() - usage.at) / USAGE_HALF_LIFE_MS);
  }

  async take(owner: string, signal?: AbortSignal): Promise<Turn> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return this.turnOf(owner);
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const queue = this.waiting.get(owner);
        queue?.splice(queue.indexOf(granted), 1);
        if (queue?.length === 0) this.waiting.delete(owner);
        reject(signal!.reason);
      };
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const queue = this.waiting.get(owner);
      if (queue) queue.push(granted);
      else this.waiting.set(owner, [granted]);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.turnOf(owner);
  }

  private turnOf(owner: string): Turn {
    const started = this.now();
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        const now = this.now();
        this.usage.set(owner, { ms: this.usedLately(owner) + (now - started), at: now });
        this.give();
      },
    };
  }

  private give(): void {
    if (this.waiting.size === 0) {
      this.free++;
      this.forgetIdle();
      return;
    }
    // The least use lately; on a tie the first in round-robin order (a Map iterates in insertion order).
    let owner: string | undefined;
    let least = Infinity;
    for (const candidate of this.waiting.keys()) {
      const used = this.usedLately(candidate);
      if (used < least) {
        owner = candidate;
        least = used;
      }
    }
    const queue = this.waiting.get(owner!)!;
    const next = queue.shift()!;
    this.waiting.delete(owner!);
    if (queue.length > 0) this.waiting.set(owner!, queue);
    next();
  }

  /** Keeps the usage table to the workspaces that used the slots lately (each entry is a few dozen bytes). */
  private forgetIdle(): void {
    if (this.usage.size < this.sweepAt) return;
    for (const owner of this.usage.keys()) {
      if (this.usedLately(owner) < FORGET_BELOW_MS && !this.waiting.has(owner)) this.usage.delete(owner);
    }
    this.sweepAt = Math.max(FIRST_SWEEP_AT_ENTRIES, 2 * this.usage.size);
  }
}

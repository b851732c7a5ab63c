/**
 * At most `count` tasks at once; the others wait here (for a worker pool: where their time budget does not run yet).
 * A freed slot goes to the workspaces waiting in turn (round robin), not first come first served: one workspace's
 * burst (every answered call of a 20,000-contact campaign analysed, a hundred reports, forty 7 MB request bodies)
 * waits behind its own tasks, not in front of another workspace's. Used by the analysis, report and decision pools
 * and by requests with large bodies (http/middleware/large-body-turns.ts).
 */
export class WorkspaceTurns {
  private free: number;
  private readonly waiting = new Map<string, Array<() => void>>();
  /** Who was given a slot last: the next turn goes to someone else when someone else waits. */
  private lastServed: string | null = null;

  constructor(count: number) {
    this.free = count;
  }

  /** How many wait for a slot, all workspaces together. */
  get waitingCount(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  async take(owner: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      this.lastServed = owner;
      return;
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
  }

  give(): void {
    if (this.waiting.size === 0) {
      this.free++;
      return;
    }
    // A Map iterates in insertion order: the first owner is the one whose turn it is (unless it was served last and
    // another waits); it goes to the back.
    let owner: string | undefined;
    for (const candidate of this.waiting.keys()) {
      owner ??= candidate;
      if (candidate !== this.lastServed) {
        owner = candidate;
        break;
      }
    }
    const queue = this.waiting.get(owner!)!;
    const next = queue.shift()!;
    this.waiting.delete(owner!);
    if (queue.length > 0) this.waiting.set(owner!, queue);
    this.lastServed = owner!;
    next();
  }
}

// A counting semaphore. One recogniser instance owns one, so every job and both channels of a stereo call share
// the same bound on decoder processes (each pocketsphinx process holds about 100 MB and one core).

export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly maxConcurrent: number) {
    if (!Number.isInteger(maxConcurrent) || maxConcurrent < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${maxConcurrent}`);
    }
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** A slot now, or null when all are taken (no waiting); the function gives it back (once). */
  tryAcquire(): (() => void) | null {
    if (this.running >= this.maxConcurrent) return null;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release();
    };
  }

  private acquire(): Promise<void> {
    if (this.running < this.maxConcurrent) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `running` stays the same.
    if (next !== undefined) next();
    else this.running--;
  }
}

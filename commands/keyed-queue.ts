/**
 * Runs work one piece at a time per key, in the order it was queued, within this process: what is queued under one
 * key starts only when everything queued before it under that key has settled (fulfilled or not); different keys
 * run concurrently. Keys with nothing queued take no memory.
 */
export class KeyedQueue<Key> {
  private readonly tails = new Map<Key, Promise<unknown>>();

  run<Result>(key: Key, work: () => Promise<Result>): Promise<Result> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.catch(() => undefined);
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return run;
  }
}

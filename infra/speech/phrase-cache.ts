// Least-recently-used cache of synthesised phrases. A campaign plays the same greeting and prompts thousands of
// times, and synthesis costs 50-500 ms a phrase, so phrases are kept; the in-flight promise is cached too, so a
// burst of calls asking for the same prompt at once synthesises it only once.

export interface PhraseCacheLimits {
  maxEntries: number;
  /** Sum of the sizes reported for settled entries. */
  maxBytes: number;
}

interface Entry<V> {
  value: Promise<V>;
  bytes: number;
}

export class PhraseCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private totalBytes = 0;

  constructor(
    private readonly limits: PhraseCacheLimits,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Returns the cached value for `key`, or produces it once; a failed production is not cached. */
  getOrCreate(key: string, produce: () => Promise<V>): Promise<V> {
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Re-inserting moves the key to the end of the Map's order, which is the most-recently-used end.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value;
    }
    const entry: Entry<V> = { value: produce(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = this.sizeOf(value);
        this.totalBytes += entry.bytes;
        this.evict();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    this.evict();
    return entry.value;
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.totalBytes <= this.limits.maxBytes) return;
      this.entries.delete(key);
      this.totalBytes -= entry.bytes;
    }
  }
}

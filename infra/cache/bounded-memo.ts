/**
 * Remembered results of a computation, by key, at most `maxEntries` of them: when full it starts over, so keys
 * nobody asks for again do not pile up. A computation that throws is not remembered (the next call tries again);
 * `undefined` is remembered like any other result.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  get(key: K, compute: (key: K) => V): V {
    const held = this.entries.get(key);
    if (held !== undefined || this.entries.has(key)) return held as V;
    const value = compute(key);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

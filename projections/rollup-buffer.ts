import type { Statement } from 'better-sqlite3';

/**
 * Rollup changes gathered over one transaction of the projection runner and written once per row at its end: a
 * batch of events touching the same buckets (calls of the same quarter hour, the same campaign) writes each row
 * once instead of once per event. Values are integers (scores in thousandths of a point), so the sums do not
 * depend on how events were split into transactions, and a row whose count falls to zero is deleted: replaying
 * the events in other batches (a rebuild) gives identical tables.
 */
export type Combine = 'sum' | 'max';

export class RollupBuffer {
  private readonly rows = new Map<string, { keys: Array<string | number>; values: number[] }>();

  /**
   * @param upsert inserts keys then values, adding (or keeping the max of) each value on conflict.
   * @param removeEmpty deletes the row named by keys when its count (the first value) is 0; run only after a
   *   change that lowered the count.
   */
  constructor(
    private readonly combine: readonly Combine[],
    private readonly upsert: Statement,
    private readonly removeEmpty?: Statement,
  ) {}

  add(keys: Array<string | number>, values: readonly number[]): void {
    const id = keys.join('\u0000');
    const row = this.rows.get(id);
    if (!row) {
      this.rows.set(id, { keys, values: [...values] });
      return;
    }
    for (let index = 0; index < values.length; index += 1) {
      row.values[index] = this.combine[index] === 'max' ? Math.max(row.values[index]!, values[index]!) : row.values[index]! + values[index]!;
    }
  }

  /** Writes every changed row (a change that nets to nothing writes nothing) and forgets them. */
  flush(): void {
    for (const { keys, values } of this.rows.values()) {
      if (values.every((value, index) => value === 0 && this.combine[index] === 'sum')) continue;
      this.upsert.run(...keys, ...values);
      if (this.removeEmpty && values[0]! < 0) this.removeEmpty.run(...keys);
    }
    this.rows.clear();
  }

  /** Forgets the gathered changes (their transaction was rolled back; the runner applies the events again). */
  discard(): void {
    this.rows.clear();
  }
}

/**
 * A rough estimate of the heap a folded state holds, for deciders that do not give their own (`sizeOf`): the
 * command handler keeps its cache of states within a byte budget, and a flat default per state let an aggregate
 * whose state grows with its input slip past it (a script holds its latest version, up to the 10 MB body limit,
 * and counted 4 KB: a few hundred of them fill the heap while the cache thinks it holds a megabyte).
 *
 * It walks the state once, counting what V8 roughly spends: a header per object and array, a slot per property or
 * element, a string's characters (two bytes each, the worst case), a typed array's buffer. Shared and cyclic
 * references count once. It is an estimate for a budget, not a measurement: within a factor of about two of a
 * heap snapshot is what the budget needs. Deciders whose states are large and regular (a campaign's contact table,
 * a job's transcript) give a cheaper `sizeOf` of their own.
 */

const OBJECT_HEADER_BYTES = 24;
const SLOT_BYTES = 8;
const STRING_HEADER_BYTES = 16;
const BOXED_NUMBER_BYTES = 16;

export function estimatedStateBytes(state: unknown): number {
  const seen = new Set<object>();
  const pending: unknown[] = [state];
  let bytes = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    switch (typeof value) {
      case 'string':
        bytes += STRING_HEADER_BYTES + 2 * value.length;
        continue;
      case 'number':
      case 'bigint':
        bytes += BOXED_NUMBER_BYTES;
        continue;
      case 'object':
        break;
      default:
        // Booleans, undefined, symbols, functions: a slot, counted by their holder.
        continue;
    }
    if (value === null || seen.has(value)) continue;
    seen.add(value);
    if (ArrayBuffer.isView(value)) {
      bytes += OBJECT_HEADER_BYTES + value.byteLength;
    } else if (value instanceof ArrayBuffer) {
      bytes += OBJECT_HEADER_BYTES + value.byteLength;
    } else if (Array.isArray(value)) {
      bytes += OBJECT_HEADER_BYTES + SLOT_BYTES * value.length;
      for (const element of value) pending.push(element);
    } else if (value instanceof Map) {
      bytes += OBJECT_HEADER_BYTES + 3 * SLOT_BYTES * value.size;
      for (const [key, entry] of value) pending.push(key, entry);
    } else if (value instanceof Set) {
      bytes += OBJECT_HEADER_BYTES + 2 * SLOT_BYTES * value.size;
      for (const entry of value) pending.push(entry);
    } else {
      const record = value as Record<string, unknown>;
      for (const key in record) {
        // Property names are interned and shared between objects of one shape: only the slot counts.
        bytes += SLOT_BYTES;
        pending.push(record[key]);
      }
      bytes += OBJECT_HEADER_BYTES;
    }
  }
  return bytes;
}

/**
 * A `Range: bytes=...` request header against an object of `size` bytes (RFC 9110 §14). One range is served:
 * `bytes=0-99`, `bytes=100-` (to the end), `bytes=-500` (the last 500). Returns the inclusive byte span, `null`
 * to serve the whole object (no header, another unit, several ranges or a malformed value: a server may ignore a
 * Range it does not support), or `unsatisfiable` when the range starts past the end (416).
 */
export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return null;
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes (all of them when N exceeds the size).
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

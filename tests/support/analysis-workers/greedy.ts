// An analysis worker module that allocates until its thread's heap limit kills it (tests of the analysis pool).
export default function hoardMemory(): never {
  const kept: number[][] = [];
  for (;;) kept.push(new Array(100_000).fill(kept.length));
}

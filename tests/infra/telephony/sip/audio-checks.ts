/** Audio comparisons for the SIP suites: 16 kHz recordings against the 8 kHz audio peers sent or heard. */
export function decimate(samples16k: Int16Array): Int16Array {
  const out = new Int16Array(Math.floor(samples16k.length / 2));
  for (let index = 0; index < out.length; index++) out[index] = samples16k[index * 2]!;
  return out;
}

/**
 * Normalised correlation of `sent[from, from+length)` against `heard` at the best lag within ±`search` (samples),
 * where `sent`'s sample 0 is expected at `heard`'s sample `heardOffset`.
 */
export function bestCorrelation(heard: Int16Array, sent: Int16Array, from: number, length: number, search: number, heardOffset = 0): number {
  const a = sent.subarray(from, from + length);
  let best = -1;
  for (let lag = -search; lag <= search; lag += 1) {
    const start = heardOffset + from + lag;
    if (start < 0 || start + length > heard.length) continue;
    let dot = 0;
    let energyA = 0;
    let energyB = 0;
    for (let index = 0; index < length; index += 1) {
      const x = a[index]!;
      const y = heard[start + index]!;
      dot += x * y;
      energyA += x * x;
      energyB += y * y;
    }
    if (energyA > 0 && energyB > 0) best = Math.max(best, dot / Math.sqrt(energyA * energyB));
  }
  return best;
}

export function rms(samples: Int16Array, fromSeconds: number, toSeconds: number): number {
  const from = Math.floor(fromSeconds * 16_000);
  const to = Math.min(samples.length, Math.floor(toSeconds * 16_000));
  let sum = 0;
  for (let index = from; index < to; index++) sum += samples[index]! * samples[index]!;
  return Math.sqrt(sum / Math.max(1, to - from));
}

/**
 * Linear interpolation to an integer multiple of the rate, chunk by chunk: the concatenated output equals
 * `resample` (call-recording.ts) of the concatenated input, so an answer decoded live is the same audio the
 * recogniser would get after the answer (PocketSphinx relies on this interpolation's image above 4 kHz, see
 * docs/speech.md). Each sample's interpolated successors wait for the next sample; `flush` ends the stream.
 */
export class StreamingUpsampler {
  private last: number | null = null;

  constructor(readonly factor: number) {
    if (!Number.isInteger(factor) || factor < 1) throw new RangeError(`factor must be a positive integer, got ${factor}`);
  }

  push(input: Int16Array): Int16Array {
    if (input.length === 0) return new Int16Array(0);
    const output = new Int16Array((this.last === null ? input.length - 1 : input.length) * this.factor);
    let at = 0;
    let previous = this.last;
    for (let index = 0; index < input.length; index++) {
      const sample = input[index]!;
      if (previous !== null) at = this.emit(output, at, previous, sample);
      previous = sample;
    }
    this.last = previous;
    return output;
  }

  /** The last sample's share (held back until its successor is known; the end repeats it, as `resample` does). */
  flush(): Int16Array {
    if (this.last === null) return new Int16Array(0);
    const output = new Int16Array(this.factor);
    this.emit(output, 0, this.last, this.last);
    this.last = null;
    return output;
  }

  private emit(output: Int16Array, at: number, from: number, to: number): number {
    for (let step = 0; step < this.factor; step++) {
      const fraction = step / this.factor;
      output[at++] = Math.round(from * (1 - fraction) + to * fraction);
    }
    return at;
  }
}

/**
 * The customer's side of a call as heard: received audio placed by RTP timestamp (not by arrival), on a timeline
 * whose zero is the answer. The first packet of a source anchors its timestamps to its arrival time; every later
 * packet lands at anchor + (timestamp − first timestamp), so late or reordered packets go where they belong and a
 * lost one leaves silence. This is the jitter buffer: readers (the utterance detector) read only up to a horizon a
 * little behind the newest audio (`JITTER_SAMPLES`), by which time late packets have been placed.
 *
 * A new SSRC (the peer restarted its stream, e.g. after a re-INVITE) or a timestamp jump of more than a second
 * against arrival re-anchors. Memory is bounded: 8 kHz, 16-bit, at most `maxSeconds` (beyond it audio is dropped).
 */
export const TRACK_SAMPLE_RATE = 8_000;
export const JITTER_SAMPLES = 480; // 60 ms

const REANCHOR_SAMPLES = TRACK_SAMPLE_RATE; // 1 s

export class CustomerTrack {
  private samples = new Int16Array(TRACK_SAMPLE_RATE * 10);
  private written = 0;
  private ssrc: number | null = null;
  private anchor = 0;
  private lastTimestamp = 0;
  private extendedTimestamp = 0;
  private readonly maxSamples: number;

  constructor(maxSeconds: number) {
    this.maxSamples = Math.round(maxSeconds * TRACK_SAMPLE_RATE);
  }

  /** The end of the newest audio placed, in samples since answer. */
  get length(): number {
    return this.written;
  }

  /** Where readers may read up to: the newest audio minus the jitter allowance. */
  horizon(nowSample: number): number {
    return Math.max(0, Math.min(this.written, nowSample) - JITTER_SAMPLES);
  }

  place(ssrc: number, timestamp: number, arrivalSample: number, pcm: Int16Array): void {
    let position: number;
    if (this.ssrc !== ssrc) {
      this.anchorAt(ssrc, timestamp, arrivalSample);
      position = arrivalSample;
    } else {
      const delta = ((timestamp - this.lastTimestamp) << 0) | 0; // signed 32-bit difference: wraps cleanly
      const extended = this.extendedTimestamp + delta;
      position = this.anchor + extended;
      if (Math.abs(position - arrivalSample) > REANCHOR_SAMPLES) {
        this.anchorAt(ssrc, timestamp, arrivalSample);
        position = arrivalSample;
      } else if (delta > 0) {
        this.lastTimestamp = timestamp >>> 0;
        this.extendedTimestamp = extended;
      }
    }
    this.write(position, pcm);
  }

  /** A copy of [from, to) in samples; zeros where nothing arrived. */
  read(from: number, to: number): Int16Array {
    const start = Math.max(0, from);
    const end = Math.max(start, to);
    const out = new Int16Array(end - start);
    out.set(this.samples.subarray(start, Math.min(end, this.samples.length)));
    return out;
  }

  private anchorAt(ssrc: number, timestamp: number, arrivalSample: number): void {
    this.ssrc = ssrc;
    this.lastTimestamp = timestamp >>> 0;
    this.extendedTimestamp = 0;
    this.anchor = arrivalSample;
  }

  private write(position: number, pcm: Int16Array): void {
    if (position < 0) return;
    const end = Math.min(position + pcm.length, this.maxSamples);
    if (end <= position) return;
    if (end > this.samples.length) {
      const grown = new Int16Array(Math.min(this.maxSamples, Math.max(end, this.samples.length * 2)));
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples.set(pcm.subarray(0, end - position), position);
    this.written = Math.max(this.written, end);
  }
}

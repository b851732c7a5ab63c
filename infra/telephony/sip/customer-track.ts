import { RtpTimeline } from './rtp-timeline.ts';

/**
 * The customer's side of a call as heard: received audio placed by RTP timestamp (not by arrival), on a timeline
 * whose zero is the answer (placement: rtp-timeline.ts), so late or reordered packets go where they belong and a
 * lost one leaves silence. This is the jitter buffer: readers (the utterance detector) read only up to a horizon a
 * little behind the newest audio (`JITTER_SAMPLES`), by which time late packets have been placed.
 *
 * Memory is bounded: 8 kHz, 16-bit, at most `maxSeconds` (beyond it audio is dropped).
 */
export const TRACK_SAMPLE_RATE = 8_000;
export const JITTER_SAMPLES = 480; // 60 ms

export class CustomerTrack {
  private samples = new Int16Array(TRACK_SAMPLE_RATE * 10);
  private written = 0;
  private readonly timeline = new RtpTimeline();
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
    this.write(this.timeline.position(ssrc, timestamp, arrivalSample), pcm);
  }

  /** A copy of [from, to) in samples; zeros where nothing arrived. */
  read(from: number, to: number): Int16Array {
    const start = Math.max(0, from);
    const end = Math.max(start, to);
    const out = new Int16Array(end - start);
    out.set(this.samples.subarray(start, Math.min(end, this.samples.length)));
    return out;
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

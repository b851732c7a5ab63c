/**
 * Where a received RTP packet's audio belongs on a timeline of samples (8 kHz): by its RTP timestamp, not by its
 * arrival. The first packet of a source anchors its timestamps to its arrival; every later packet lands at
 * anchor + (timestamp − first timestamp), so late or reordered packets go where they belong and a lost one leaves
 * a gap. A new SSRC (the peer restarted its stream, e.g. after a re-INVITE) or a timestamp more than a second away
 * from its arrival re-anchors. 32-bit timestamp wrap is handled. Used by the customer track (main thread) and by a
 * warm transfer's relay (media thread), so both hear a leg alike.
 */
const REANCHOR_SAMPLES = 8_000; // 1 s at 8 kHz

export class RtpTimeline {
  private ssrc: number | null = null;
  private anchor = 0;
  private lastTimestamp = 0;
  private extendedTimestamp = 0;

  /** The sample position of the packet's first sample; `arrivalSample` is its arrival on the same timeline. */
  position(ssrc: number, timestamp: number, arrivalSample: number): number {
    if (this.ssrc !== ssrc) return this.anchorAt(ssrc, timestamp, arrivalSample);
    const delta = ((timestamp - this.lastTimestamp) << 0) | 0; // signed 32-bit difference: wraps cleanly
    const extended = this.extendedTimestamp + delta;
    const position = this.anchor + extended;
    if (Math.abs(position - arrivalSample) > REANCHOR_SAMPLES) return this.anchorAt(ssrc, timestamp, arrivalSample);
    if (delta > 0) {
      this.lastTimestamp = timestamp >>> 0;
      this.extendedTimestamp = extended;
    }
    return position;
  }

  private anchorAt(ssrc: number, timestamp: number, arrivalSample: number): number {
    this.ssrc = ssrc;
    this.lastTimestamp = timestamp >>> 0;
    this.extendedTimestamp = 0;
    this.anchor = arrivalSample;
    return arrivalSample;
  }
}

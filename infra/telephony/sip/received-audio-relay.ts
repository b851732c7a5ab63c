import alawmulaw from 'alawmulaw';
import { JITTER_SAMPLES, TRACK_SAMPLE_RATE } from './customer-track.ts';
import { FRAME_MS } from './media-clock.ts';
import { RtpTimeline } from './rtp-timeline.ts';
import { PAYLOAD_TYPE } from './sdp.ts';

/**
 * The bridge of a warm transfer, on the media thread (media-worker.ts): what one leg receives, handed out as the
 * other leg's outgoing frames (RtpSender.relayFrom). Received G.711 is decoded and placed by RTP timestamp
 * (rtp-timeline.ts, as the customer track places it on the main thread) into a one-second ring on the process's
 * monotonic clock; each 20 ms tick of the listening leg reads the next frame a jitter allowance (60 ms) behind now,
 * so late and reordered packets are in place before they are relayed and a lost one is silence. Read samples are
 * cleared, so a slot never plays twice. The read position follows the clock frame by frame and jumps back into
 * step (the ring cleared) when it is more than a few frames off (a late tick that caught up, a long gap).
 * Nothing is allocated per packet: samples are decoded straight into the ring.
 */
export const FRAME_SAMPLES = (TRACK_SAMPLE_RATE * FRAME_MS) / 1000;
const RING_SAMPLES = TRACK_SAMPLE_RATE; // 1 s
const RESYNC_SAMPLES = 3 * FRAME_SAMPLES;
const SAMPLES_PER_MS = TRACK_SAMPLE_RATE / 1000;

export class ReceivedAudioRelay {
  private readonly ring = new Int16Array(RING_SAMPLES);
  private readonly frame = new Int16Array(FRAME_SAMPLES);
  private readonly timeline = new RtpTimeline();
  /** The next sample a listener reads (monotonic ms × 8); samples before it are gone, after it up to a ring ahead may be written. */
  private readPosition: number;

  constructor(nowMs: number) {
    this.readPosition = this.live(nowMs);
  }

  /** A packet the leg received (`arrivalMs`: monotonicMs); anything but PCMA/PCMU (a key, comfort noise) is ignored. */
  place(packet: Uint8Array, arrivalMs: number): void {
    if (packet.byteLength < 12 || packet[0]! >> 6 !== 2) return;
    const payloadType = packet[1]! & 0x7f;
    if (payloadType !== PAYLOAD_TYPE.PCMA && payloadType !== PAYLOAD_TYPE.PCMU) return;
    const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
    let offset = 12 + 4 * (packet[0]! & 0x0f);
    if (packet[0]! & 0x10) {
      if (offset + 4 > packet.byteLength) return;
      offset += 4 + 4 * view.getUint16(offset + 2);
    }
    const padding = packet[0]! & 0x20 ? packet[packet.byteLength - 1]! : 0;
    const end = packet.byteLength - padding;
    if (offset >= end) return;
    const position = this.timeline.position(view.getUint32(8), view.getUint32(4), Math.round(arrivalMs * SAMPLES_PER_MS));
    const decode = payloadType === PAYLOAD_TYPE.PCMA ? alawmulaw.alaw.decodeSample : alawmulaw.mulaw.decodeSample;
    const windowEnd = this.readPosition + RING_SAMPLES;
    for (let index = offset, at = position; index < end; index++, at++) {
      // Only where a listener will still read it, and not so far ahead that it would land on unread audio.
      if (at < this.readPosition || at >= windowEnd) continue;
      this.ring[at % RING_SAMPLES] = decode(packet[index]!);
    }
  }

  /** The next 20 ms to relay (8 kHz PCM; the same buffer each call, valid until the next). */
  nextFrame(nowMs: number): Int16Array {
    const live = this.live(nowMs);
    if (Math.abs(live - this.readPosition) > RESYNC_SAMPLES) {
      this.ring.fill(0);
      this.readPosition = live;
    }
    for (let index = 0; index < FRAME_SAMPLES; index++) {
      const slot = (this.readPosition + index) % RING_SAMPLES;
      this.frame[index] = this.ring[slot]!;
      this.ring[slot] = 0;
    }
    this.readPosition += FRAME_SAMPLES;
    return this.frame;
  }

  private live(nowMs: number): number {
    return Math.round(nowMs * SAMPLES_PER_MS) - JITTER_SAMPLES;
  }
}

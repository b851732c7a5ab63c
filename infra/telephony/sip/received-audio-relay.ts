import { FRAME_MS } from './media-clock.ts';
import { JITTER_SAMPLES, TRACK_SAMPLE_RATE } from './customer-track.ts';
import type { RtpStream } from './rtp-stream.ts';

/**
 * The bridge of a warm transfer: a frame source (RtpStream.relayFrom) that hands out what `from` received, one
 * 20 ms frame per call, read from its track (placed by RTP timestamp) a jitter allowance behind the newest audio,
 * so late packets are in place before they are relayed. Both legs tick on the same media clock, so the read
 * position keeps pace with real time; it jumps back into step if the two drift apart by more than a few frames.
 */
const FRAME_SAMPLES = (TRACK_SAMPLE_RATE * FRAME_MS) / 1000;
const RESYNC_SAMPLES = 3 * FRAME_SAMPLES;

export function receivedAudioRelay(from: RtpStream): () => Int16Array {
  let position = -1;
  return () => {
    const live = Math.round(from.now() * TRACK_SAMPLE_RATE) - JITTER_SAMPLES;
    if (position < 0 || Math.abs(live - position) > RESYNC_SAMPLES) position = Math.max(0, live);
    const frame = from.track.read(position, position + FRAME_SAMPLES);
    position += FRAME_SAMPLES;
    return frame;
  };
}

import { randomInt } from 'node:crypto';
import alawmulaw from 'alawmulaw';
import type { ClockedStream } from './media-clock.ts';
import { monotonicMs, type RemoteMedia } from './media-protocol.ts';
import type { ReceivedAudioRelay } from './received-audio-relay.ts';
import { PAYLOAD_TYPE, type G711 } from './sdp.ts';
import { encodeTelephoneEvent } from './telephone-event.ts';

/**
 * One call's outgoing RTP on the media thread: every tick of the media clock sends one 20 ms G.711 packet (the
 * prompt's next frame while one plays, else the bridged leg's received audio during a warm transfer (`relayFrom`),
 * else silence, so timestamps advance 160 a packet), or a frame of an RFC 4733 key. Prompts arrive already encoded, whole, so the thread only slices and sends.
 * The 12-byte header is written here rather than through rtp.js: a fixed header with no extensions, and no
 * objects made per packet on the thread whose pauses are the timing figure.
 */
export const FRAME_SAMPLES = 160;
const HEADER_BYTES = 12;
const SILENCE: Record<G711, Uint8Array> = {
  PCMA: alawmulaw.alaw.encode(new Int16Array(FRAME_SAMPLES)),
  PCMU: alawmulaw.mulaw.encode(new Int16Array(FRAME_SAMPLES)),
};

export interface SenderEvents {
  send(packet: Uint8Array, address: string, port: number): void;
  /** A playback's first frame is leaving (`kind: 'started'`) or its last one has (`'ended'`). */
  playback(play: number, kind: 'started' | 'ended', frameEndsInMs: number): void;
}

interface Playback {
  play: number;
  payload: Uint8Array;
  codec: G711;
  position: number;
  started: boolean;
}

interface OutgoingDigit {
  digit: string;
  frame: number;
  timestamp: number;
}

export class RtpSender implements ClockedStream {
  private remote: RemoteMedia | null = null;
  private sending = true;
  private readonly ssrc = randomInt(0xffffffff);
  private sequence = randomInt(0xffff);
  private readonly timestampBase = randomInt(0xffffffff);
  private playback: Playback | null = null;
  private readonly digits: OutgoingDigit[] = [];
  /** The other leg's received audio, sent whenever no prompt plays (a warm transfer's bridge); null: silence. */
  private relay: ReceivedAudioRelay | null = null;
  /** The relayed frame encoded (reused: `send` copies it into the packet). */
  private readonly relayPayload = new Uint8Array(FRAME_SAMPLES);

  constructor(private readonly events: SenderEvents) {}

  setRemote(remote: RemoteMedia, sending: boolean): void {
    this.remote = remote;
    this.sending = sending;
  }

  play(play: number, payload: Uint8Array, codec: G711): void {
    this.playback = { play, payload, codec, position: 0, started: false };
  }

  stop(play: number): void {
    if (this.playback?.play === play) this.playback = null;
  }

  relayFrom(relay: ReceivedAudioRelay | null): void {
    this.relay = relay;
  }

  sendDigits(digits: string): void {
    for (const digit of digits) this.digits.push({ digit, frame: -1, timestamp: 0 });
  }

  tick(frame: number): void {
    const remote = this.remote;
    if (!remote) return;
    const timestamp = (this.timestampBase + frame * FRAME_SAMPLES) >>> 0;
    if (this.digits.length > 0 && remote.telephoneEvent !== null && this.tickDigit(frame, timestamp, remote)) return;
    let payload = SILENCE[remote.codec];
    const playback = this.playback;
    if (!playback && this.relay) payload = this.relayed(remote.codec);
    if (playback) {
      if (!playback.started) {
        playback.started = true;
        this.events.playback(playback.play, 'started', 0);
      }
      payload = frameOf(playback, remote.codec);
      playback.position += FRAME_SAMPLES;
      if (playback.position >= playback.payload.length) {
        this.playback = null;
        // The last frame leaves now and takes 20 ms to play out.
        this.events.playback(playback.play, 'ended', 20);
      }
    }
    if (this.sending) this.send(PAYLOAD_TYPE[remote.codec], timestamp, payload, false, remote);
  }

  private relayed(codec: G711): Uint8Array {
    const pcm = this.relay!.nextFrame(monotonicMs());
    const encode = codec === 'PCMA' ? alawmulaw.alaw.encodeSample : alawmulaw.mulaw.encodeSample;
    for (let index = 0; index < FRAME_SAMPLES; index++) this.relayPayload[index] = encode(pcm[index]!);
    return this.relayPayload;
  }

  /** One frame of the current outgoing key; true when the frame was used for it. */
  private tickDigit(frame: number, timestamp: number, remote: RemoteMedia): boolean {
    const digit = this.digits[0]!;
    if (digit.frame < 0) {
      digit.frame = frame;
      digit.timestamp = timestamp;
    }
    const age = frame - digit.frame; // 0-4: tone (100 ms), 5-7: End packets, 8-10: gap
    if (age >= 11) {
      // The gap is over: the next key (if any) starts in this very frame, so keys are 60 ms apart.
      this.digits.shift();
      return this.digits.length > 0 && this.tickDigit(frame, timestamp, remote);
    }
    if (age >= 8) return false;
    const end = age >= 5;
    const duration = Math.min(age + 1, 5) * FRAME_SAMPLES;
    // Every packet of one key carries the key's first timestamp; the first has the marker bit (RFC 4733 2.5.1).
    if (this.sending) this.send(remote.telephoneEvent!, digit.timestamp, encodeTelephoneEvent({ digit: digit.digit, end, volume: 10, duration }), age === 0, remote);
    return true;
  }

  private send(payloadType: number, timestamp: number, payload: Uint8Array, marker: boolean, remote: RemoteMedia): void {
    const packet = new Uint8Array(HEADER_BYTES + payload.byteLength);
    const view = new DataView(packet.buffer);
    this.sequence = (this.sequence + 1) & 0xffff;
    packet[0] = 0x80; // version 2, no padding, no extension, no CSRC
    packet[1] = (marker ? 0x80 : 0) | (payloadType & 0x7f);
    view.setUint16(2, this.sequence);
    view.setUint32(4, timestamp);
    view.setUint32(8, this.ssrc);
    packet.set(payload, HEADER_BYTES);
    this.events.send(packet, remote.address, remote.port);
  }
}

/** The playback's next 20 ms in the codec the peer takes now (a re-INVITE may have changed it mid-prompt). */
function frameOf(playback: Playback, codec: G711): Uint8Array {
  const silence = SILENCE[playback.codec];
  let frame = playback.payload.subarray(playback.position, playback.position + FRAME_SAMPLES);
  if (frame.length < FRAME_SAMPLES) {
    const padded = new Uint8Array(silence);
    padded.set(frame);
    frame = padded;
  }
  if (playback.codec === codec) return frame;
  return playback.codec === 'PCMA' ? alawmulaw.mulaw.encode(alawmulaw.alaw.decode(frame)) : alawmulaw.alaw.encode(alawmulaw.mulaw.decode(frame));
}

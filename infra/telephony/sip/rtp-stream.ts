import { createSocket, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { randomInt } from 'node:crypto';
import alawmulaw from 'alawmulaw';
import { packets } from 'rtp.js';
import { CustomerTrack, TRACK_SAMPLE_RATE } from './customer-track.ts';
import { FRAME_MS, sharedMediaClock, type ClockedStream, type MediaClock } from './media-clock.ts';
import { PAYLOAD_TYPE, type Direction, type G711, type MediaDescription } from './sdp.ts';
import { encodeTelephoneEvent, TelephoneEventReceiver } from './telephone-event.ts';

/**
 * One call's audio over RTP: G.711 at 8 kHz in 20 ms packets, both ways. Outgoing audio is clocked by the shared
 * media clock (a prompt when one is playing, silence otherwise, so timestamps advance steadily); incoming audio
 * goes into the customer track by RTP timestamp. RFC 4733 telephone-events both ways. No RTCP, no SRTP.
 */
const FRAME_SAMPLES = (TRACK_SAMPLE_RATE * FRAME_MS) / 1000; // 160
const SILENCE = new Int16Array(FRAME_SAMPLES);

interface Playback {
  pcm: Int16Array;
  position: number;
  startedMs: number | null;
  done: (span: { startMs: number; endMs: number; interrupted: boolean }) => void;
}

interface OutgoingDigit {
  digit: string;
  frame: number;
  timestamp: number;
}

export class RtpPortPool {
  private readonly inUse = new Set<number>();
  constructor(private readonly low: number, private readonly high: number) {}

  /** An even port (RTP convention; RTCP would take the odd one above) not used by another call. */
  async open(address: string): Promise<{ socket: Socket; port: number }> {
    const first = this.low + (this.low % 2);
    const count = Math.floor((this.high - first) / 2) + 1;
    const offset = randomInt(count);
    for (let tried = 0; tried < Math.min(count, 64); tried++) {
      const port = first + ((offset + tried) % count) * 2;
      if (this.inUse.has(port)) continue;
      const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
      const bound = await new Promise<boolean>((resolve) => {
        socket.once('error', () => resolve(false));
        socket.bind(port, address, () => resolve(true));
      });
      if (bound) {
        this.inUse.add(port);
        return { socket, port };
      }
      socket.close();
    }
    throw new Error(`no free RTP port in RTP_PORT_RANGE ${this.low}-${this.high} on ${address}`);
  }

  release(port: number): void {
    this.inUse.delete(port);
  }
}

export class RtpStream implements ClockedStream {
  readonly track: CustomerTrack;
  private remote: MediaDescription | null = null;
  private sendDirection: Direction = 'sendrecv';
  private readonly ssrc = randomInt(0xffffffff);
  private sequence = randomInt(0xffff);
  private readonly timestampBase = randomInt(0xffffffff);
  private originMs = 0;
  private playback: Playback | null = null;
  private digits: OutgoingDigit[] = [];
  private readonly events = new TelephoneEventReceiver();
  private closed = false;
  /** Send times of the last packets (ms), for the inter-packet timing figure. */
  readonly sendTimes: number[] = [];
  onAudio: (() => void) | null = null;
  /** Called every 20 ms after the frame is sent: the session analyses the customer's audio then. */
  onTick: (() => void) | null = null;
  onDigit: ((digit: string, atSeconds: number) => void) | null = null;
  /** Where frames come from when nothing plays (a bridged leg's audio, see relayFrom); null: silence. */
  private relaySource: (() => Int16Array) | null = null;

  constructor(
    private readonly socket: Socket,
    readonly port: number,
    private readonly pool: RtpPortPool,
    maxSeconds: number,
    private readonly clock: MediaClock = sharedMediaClock,
  ) {
    this.track = new CustomerTrack(maxSeconds);
    socket.on('message', (message, rinfo) => this.receive(message, rinfo.address, rinfo.port));
    socket.on('error', () => undefined);
  }

  /** Seconds since the call was answered. */
  now(): number {
    return (performance.now() - this.originMs) / 1000;
  }

  get codec(): G711 {
    return this.remote?.codec ?? 'PCMA';
  }

  /** The peer's media (from the SDP answer or a re-INVITE) and what we may send. */
  setRemote(remote: MediaDescription, ourDirection: Direction = 'sendrecv'): void {
    this.remote = remote;
    this.sendDirection = ourDirection;
  }

  /** The answer: the timeline's zero; outgoing packets start. */
  start(): void {
    this.originMs = performance.now();
    this.clock.add(this);
  }

  /** Plays 8 kHz audio from the next frame; resolves when it has all been sent or `stop()` cut it short. */
  play(pcm: Int16Array): Promise<{ startMs: number; endMs: number; interrupted: boolean }> {
    this.stopPlayback();
    return new Promise((done) => {
      this.playback = { pcm, position: 0, startedMs: null, done };
    });
  }

  stopPlayback(): void {
    const playback = this.playback;
    if (!playback) return;
    this.playback = null;
    const now = performance.now() - this.originMs;
    playback.done({ startMs: playback.startedMs ?? now, endMs: now, interrupted: true });
  }

  /**
   * Sends the frames `source` returns (160 samples, 8 kHz, one per 20 ms tick) whenever no prompt plays: a warm
   * transfer's bridge relays each leg's received audio to the other this way. null: back to silence.
   */
  relayFrom(source: (() => Int16Array) | null): void {
    this.relaySource = source;
  }

  /** Queues keys to send as RFC 4733 events (100 ms each, 60 ms apart). */
  sendDigits(digits: string): void {
    for (const digit of digits) this.digits.push({ digit, frame: -1, timestamp: 0 });
  }

  get canSendTelephoneEvents(): boolean {
    return this.remote?.telephoneEvent !== null && this.remote?.telephoneEvent !== undefined;
  }

  tick(frame: number, nowMs: number): void {
    if (this.closed || !this.remote) return;
    this.sendFrame(frame, nowMs);
    this.onTick?.();
  }

  private sendFrame(frame: number, nowMs: number): void {
    if (!this.remote) return;
    const timestamp = (this.timestampBase + frame * FRAME_SAMPLES) >>> 0;
    const sending = this.sendDirection === 'sendrecv' || this.sendDirection === 'sendonly';
    if (this.digits.length > 0 && this.canSendTelephoneEvents) {
      if (this.tickDigit(frame, timestamp, sending)) return;
    }
    const playback = this.playback;
    let frameSamples: Int16Array = SILENCE;
    if (!playback && this.relaySource) frameSamples = this.relaySource();
    if (playback) {
      if (playback.startedMs === null) playback.startedMs = nowMs - this.originMs;
      frameSamples = new Int16Array(FRAME_SAMPLES);
      frameSamples.set(playback.pcm.subarray(playback.position, playback.position + FRAME_SAMPLES));
      playback.position += FRAME_SAMPLES;
      if (playback.position >= playback.pcm.length) {
        this.playback = null;
        const startMs = playback.startedMs;
        // The last frame leaves now and takes 20 ms to play out.
        queueMicrotask(() => playback.done({ startMs, endMs: nowMs - this.originMs + FRAME_MS, interrupted: false }));
      }
    }
    if (!sending) return;
    const payload = this.remote.codec === 'PCMA' ? alawmulaw.alaw.encode(frameSamples) : alawmulaw.mulaw.encode(frameSamples);
    this.send(PAYLOAD_TYPE[this.remote.codec], timestamp, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength), false, nowMs);
  }

  /** One frame of the current outgoing key; true when the frame was used for it. */
  private tickDigit(frame: number, timestamp: number, sending: boolean): boolean {
    const digit = this.digits[0]!;
    if (digit.frame < 0) {
      digit.frame = frame;
      digit.timestamp = timestamp;
    }
    const age = frame - digit.frame; // 0-4: tone (100 ms), 5-7: End packets, 8-10: gap
    if (age >= 11) {
      this.digits.shift();
      return false;
    }
    if (age >= 8) return false;
    const end = age >= 5;
    const duration = Math.min(age + 1, 5) * FRAME_SAMPLES;
    if (sending) {
      const payload = encodeTelephoneEvent({ digit: digit.digit, end, volume: 10, duration });
      this.send(this.remote!.telephoneEvent!, digit.timestamp, payload, age === 0, performance.now());
    }
    return true;
  }

  private send(payloadType: number, timestamp: number, payload: Buffer, marker: boolean, nowMs: number): void {
    const packet = new packets.RtpPacket();
    packet.setPayloadType(payloadType);
    packet.setSequenceNumber((this.sequence = (this.sequence + 1) & 0xffff));
    packet.setTimestamp(timestamp);
    packet.setSsrc(this.ssrc);
    packet.setMarker(marker);
    packet.setPayload(new DataView(payload.buffer, payload.byteOffset, payload.byteLength));
    const buffer = new ArrayBuffer(packet.getByteLength());
    packet.serialize(buffer, 0);
    this.socket.send(new Uint8Array(buffer), this.remote!.port, this.remote!.address);
    if (this.sendTimes.length >= 3000) this.sendTimes.splice(0, 1000);
    this.sendTimes.push(nowMs);
  }

  private receive(message: Buffer, address: string, port: number): void {
    if (this.closed || !this.remote || message.length < 12) return;
    // Symmetric RTP: accept the peer's packets from where it announced (or where it actually sends from).
    if (address !== this.remote.address && port !== this.remote.port) return;
    const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
    if (!packets.isRtp(view)) return;
    let packet: InstanceType<typeof packets.RtpPacket>;
    try {
      packet = new packets.RtpPacket(view);
    } catch {
      return;
    }
    const payloadType = packet.getPayloadType();
    const payloadView = packet.getPayload();
    const payload = new Uint8Array(payloadView.buffer, payloadView.byteOffset, payloadView.byteLength);
    const arrivalSample = Math.round(this.now() * TRACK_SAMPLE_RATE);
    if (payloadType === this.remote.telephoneEvent) {
      const digit = this.events.accept(packet.getTimestamp(), payload);
      if (digit) this.onDigit?.(digit, this.now());
      return;
    }
    if (payloadType !== PAYLOAD_TYPE.PCMA && payloadType !== PAYLOAD_TYPE.PCMU) return;
    const pcm = payloadType === PAYLOAD_TYPE.PCMA ? alawmulaw.alaw.decode(payload) : alawmulaw.mulaw.decode(payload);
    this.track.place(packet.getSsrc(), packet.getTimestamp(), arrivalSample, pcm);
    this.onAudio?.();
  }

  close(): void {
    if (this.closed) return;
    this.stopPlayback();
    this.closed = true;
    this.clock.remove(this);
    this.socket.close();
    this.pool.release(this.port);
  }
}

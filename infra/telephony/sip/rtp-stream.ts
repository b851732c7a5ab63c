import { randomInt } from 'node:crypto';
import alawmulaw from 'alawmulaw';
import { packets } from 'rtp.js';
import { CustomerTrack, TRACK_SAMPLE_RATE } from './customer-track.ts';
import { FRAME_MS } from './media-clock.ts';
import { monotonicMs, type PlaybackEvent } from './media-protocol.ts';
import { mediaThread, type MediaThread } from './media-thread.ts';
import { PAYLOAD_TYPE, type Direction, type G711, type MediaDescription } from './sdp.ts';
import { TelephoneEventReceiver } from './telephone-event.ts';

/**
 * One call's audio over RTP: G.711 at 8 kHz in 20 ms packets, both ways, RFC 4733 telephone-events both ways. No
 * RTCP, no SRTP. The socket and the sending live on the media thread (media-worker.ts), whose clock sends a prompt
 * frame when one is playing and silence otherwise, so timestamps advance steadily whatever this thread is doing.
 * This side is what callers use: a prompt is encoded here and handed over whole (`play`), stopped at once
 * (`stopPlayback`: its promise resolves now, the media thread drops the rest at its next tick); received packets
 * come back stamped with their arrival and go into the customer track by RTP timestamp.
 */
interface Playback {
  id: number;
  startedMs: number | null;
  done: (span: { startMs: number; endMs: number; interrupted: boolean }) => void;
}

/** A socket bound on the media thread (RtpPortPool.open); the stream that uses it is its only owner. */
export interface MediaSocket {
  readonly id: number;
  readonly thread: MediaThread;
}

export class RtpPortPool {
  private readonly inUse = new Set<number>();
  constructor(private readonly low: number, private readonly high: number, private readonly thread: MediaThread = mediaThread) {}

  /** An even port (RTP convention; RTCP would take the odd one above) not used by another call. */
  async open(address: string): Promise<{ socket: MediaSocket; port: number }> {
    const first = this.low + (this.low % 2);
    const count = Math.floor((this.high - first) / 2) + 1;
    const offset = randomInt(count);
    for (let tried = 0; tried < Math.min(count, 64); tried++) {
      const port = first + ((offset + tried) % count) * 2;
      if (this.inUse.has(port)) continue;
      this.inUse.add(port);
      const id = await this.thread.bind(address, port);
      if (id !== null) return { socket: { id, thread: this.thread }, port };
      this.inUse.delete(port);
    }
    throw new Error(`no free RTP port in RTP_PORT_RANGE ${this.low}-${this.high} on ${address}`);
  }

  release(port: number): void {
    this.inUse.delete(port);
  }
}

export class RtpStream {
  readonly track: CustomerTrack;
  private remote: MediaDescription | null = null;
  /** The answer (monotonicMs): the timeline's zero. */
  private originMs = 0;
  private started = false;
  private playback: Playback | null = null;
  private playbacks = 0;
  private readonly events = new TelephoneEventReceiver();
  private closed = false;
  /** The media thread stopped: no packets go or come any more, and a prompt ends at once. */
  private mediaLost = false;
  /** Packets that arrived before this (monotonicMs) are on the track; later ones are still on their way here. */
  private heardUntilMs = 0;
  private readonly thread: MediaThread;
  /** Send times of the last packets (ms, monotonic, taken on the media thread), for the inter-packet timing figure. */
  readonly sendTimes: number[] = [];
  onAudio: (() => void) | null = null;
  /** Called every 20 ms after the frame is sent: the session analyses the customer's audio then. */
  onTick: (() => void) | null = null;
  onDigit: ((digit: string, atSeconds: number) => void) | null = null;

  constructor(
    private readonly socket: MediaSocket,
    readonly port: number,
    private readonly pool: RtpPortPool,
    maxSeconds: number,
  ) {
    this.track = new CustomerTrack(maxSeconds);
    this.thread = socket.thread;
    this.thread.attach(socket.id, {
      received: (arrival, packet) => this.receive(arrival, packet),
      heardUntil: (at) => (this.heardUntilMs = at),
      sentAt: (time) => {
        if (this.sendTimes.length >= 3000) this.sendTimes.splice(0, 1000);
        this.sendTimes.push(time);
      },
      playback: (event) => this.playbackEvent(event),
      tick: () => {
        if (this.started && this.remote && !this.closed) this.onTick?.();
      },
      lost: () => {
        this.mediaLost = true;
        this.stopPlayback();
      },
    });
  }

  /** Seconds since the call was answered. */
  now(): number {
    return (monotonicMs() - this.originMs) / 1000;
  }

  /**
   * Seconds since the answer up to which the customer's packets have reached this thread (never ahead of `now()`).
   * Readers of the track analyse up to here, not up to `now()`: the media thread hands packets over once a tick,
   * and a busy event loop takes them later still; audio read before it is placed would be taken for silence.
   */
  heardUntil(): number {
    return Math.min(this.now(), (this.heardUntilMs - this.originMs) / 1000);
  }

  get codec(): G711 {
    return this.remote?.codec ?? 'PCMA';
  }

  /** The peer's media (from the SDP answer or a re-INVITE) and what we may send. */
  setRemote(remote: MediaDescription, ourDirection: Direction = 'sendrecv'): void {
    this.remote = remote;
    const sending = ourDirection === 'sendrecv' || ourDirection === 'sendonly';
    this.thread.post({ type: 'remote', stream: this.socket.id, remote: { address: remote.address, port: remote.port, codec: remote.codec, telephoneEvent: remote.telephoneEvent ?? null }, sending });
  }

  /** The answer: the timeline's zero; outgoing packets start at the media clock's next tick. */
  start(): void {
    this.originMs = monotonicMs();
    this.started = true;
    this.thread.post({ type: 'start', stream: this.socket.id });
  }

  /** Plays 8 kHz audio from the next frame; resolves when it has all been sent or `stopPlayback()` cut it short. */
  play(pcm: Int16Array): Promise<{ startMs: number; endMs: number; interrupted: boolean }> {
    this.stopPlayback();
    if (this.mediaLost) {
      const now = monotonicMs() - this.originMs;
      return Promise.resolve({ startMs: now, endMs: now, interrupted: true });
    }
    const id = ++this.playbacks;
    const codec = this.codec;
    // Encoded here, whole: the media thread only slices. A fresh buffer, so it can be moved rather than copied.
    const payload = codec === 'PCMA' ? alawmulaw.alaw.encode(pcm) : alawmulaw.mulaw.encode(pcm);
    return new Promise((done) => {
      this.playback = { id, startedMs: null, done };
      this.thread.post({ type: 'play', stream: this.socket.id, play: id, payload, codec }, [payload.buffer as ArrayBuffer]);
    });
  }

  stopPlayback(): void {
    const playback = this.playback;
    if (!playback) return;
    this.playback = null;
    if (!this.closed) this.thread.post({ type: 'stop', stream: this.socket.id, play: playback.id });
    const now = monotonicMs() - this.originMs;
    playback.done({ startMs: playback.startedMs ?? now, endMs: now, interrupted: true });
  }

  /**
   * A warm transfer's bridge: from the next tick this stream sends what `source` receives whenever no prompt plays;
   * null: back to silence (closing either stream also ends it). The media thread does the relaying itself
   * (received-audio-relay.ts): each of `source`'s packets is decoded, jitter-buffered and sent on the media clock,
   * never waiting on this thread. Both streams must be on the same media thread.
   */
  relayFrom(source: RtpStream | null): void {
    if (source && source.thread !== this.thread) throw new Error('relayFrom: the streams are on different media threads');
    if (this.closed) return;
    this.thread.post({ type: 'relay', stream: this.socket.id, from: source ? source.socket.id : null });
  }

  /** Queues keys to send as RFC 4733 events (100 ms each, 60 ms apart). */
  sendDigits(digits: string): void {
    this.thread.post({ type: 'digits', stream: this.socket.id, digits });
  }

  get canSendTelephoneEvents(): boolean {
    return this.remote?.telephoneEvent !== null && this.remote?.telephoneEvent !== undefined;
  }

  private playbackEvent(event: PlaybackEvent): void {
    const playback = this.playback;
    if (!playback || playback.id !== event.play) return;
    const atMs = event.at - this.originMs;
    if (event.kind === 'started') {
      playback.startedMs = atMs;
      return;
    }
    this.playback = null;
    playback.done({ startMs: playback.startedMs ?? atMs - FRAME_MS, endMs: atMs, interrupted: false });
  }

  private receive(arrival: number, message: Uint8Array): void {
    if (this.closed || !this.remote) return;
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
    const arrivalSeconds = (arrival - this.originMs) / 1000;
    if (payloadType === this.remote.telephoneEvent) {
      const digit = this.events.accept(packet.getTimestamp(), payload);
      if (digit) this.onDigit?.(digit, arrivalSeconds);
      return;
    }
    if (payloadType !== PAYLOAD_TYPE.PCMA && payloadType !== PAYLOAD_TYPE.PCMU) return;
    const pcm = payloadType === PAYLOAD_TYPE.PCMA ? alawmulaw.alaw.decode(payload) : alawmulaw.mulaw.decode(payload);
    this.track.place(packet.getSsrc(), packet.getTimestamp(), Math.round(arrivalSeconds * TRACK_SAMPLE_RATE), pcm);
    this.onAudio?.();
  }

  close(): void {
    if (this.closed) return;
    this.stopPlayback();
    this.closed = true;
    this.thread.post({ type: 'close', stream: this.socket.id });
    this.thread.detach(this.socket.id);
    this.pool.release(this.port);
  }
}

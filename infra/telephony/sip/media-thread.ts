import { Worker } from 'node:worker_threads';
import { unpackReceived, type FromMediaThread, type PlaybackEvent, type ToMediaThread } from './media-protocol.ts';

/**
 * The main thread's side of the media thread (media-worker.ts): one worker for the process, started with the first
 * call (or by SipTelephony.start), which owns the RTP sockets and the media clock. Each RtpStream registers here
 * under the id of its socket and gets back what the worker reports: packets received, when its packets left,
 * playbacks started and ended, and a call every tick (the main thread's analysis of the customer's audio runs
 * then). The thread runs at MEDIA_THREAD_NICE, or real-time at MEDIA_THREAD_REALTIME_PRIORITY (both need root or
 * CAP_SYS_NICE; refused, it runs at the normal priority), and keeps the process alive only while a stream is open.
 */
const BOOTSTRAP = new URL('../../worker-threads/typescript-worker.mjs', import.meta.url);
const MEDIA_WORKER = new URL('./media-worker.ts', import.meta.url).href;

export interface MediaThreadClient {
  received(arrival: number, packet: Uint8Array): void;
  /** Every packet that arrived before `at` (monotonicMs) has been handed over. */
  heardUntil(at: number): void;
  sentAt(time: number): void;
  playback(event: PlaybackEvent): void;
  tick(): void;
  /** The media thread stopped: this stream's socket is gone. */
  lost(): void;
}

type Reply = Extract<FromMediaThread, { request: number }>;

export class MediaThread {
  private worker: Worker | null = null;
  private readonly clients = new Map<number, MediaThreadClient>();
  private readonly pending = new Map<number, (reply: Reply | null) => void>();
  private nextRequest = 1;
  private scheduling = { nice: 0, realtimePriority: 0 };

  /** The thread's nice value and real-time priority (0: none); they apply when the thread starts, not to a running one. */
  configure(scheduling: { nice: number; realtimePriority: number }): void {
    this.scheduling = scheduling;
  }

  /** Starts the thread now rather than with the first call (compiling it takes a moment). */
  start(): void {
    this.thread();
  }

  /** Ends the thread: its streams are told they lost their media (`lost`); the next bind starts a new one. */
  async stop(): Promise<void> {
    await this.worker?.terminate();
  }

  /** The worker's thread id once it runs (tests check the media is not on the main thread). */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  /** A UDP socket bound on the media thread: its stream id, or null when the port is taken. */
  async bind(address: string, port: number): Promise<number | null> {
    const reply = await this.request((request) => ({ type: 'bind', request, address, port }));
    return reply?.type === 'bound' ? reply.stream : null;
  }

  /** The media clock's tick lateness and durations so far, ms, and the thread's scheduling (the benchmark's figures); `reset` starts a new sample. */
  async clockStats(reset = false): Promise<{ lateness: number[]; durations: number[]; nice: number; realtimePriority: number }> {
    const reply = await this.request((request) => ({ type: 'stats', request, reset }));
    if (reply?.type !== 'stats') return { lateness: [], durations: [], nice: 0, realtimePriority: 0 };
    return { lateness: reply.lateness, durations: reply.durations, nice: reply.nice, realtimePriority: reply.realtimePriority };
  }

  attach(stream: number, client: MediaThreadClient): void {
    this.clients.set(stream, client);
    this.updateRef();
  }

  detach(stream: number): void {
    this.clients.delete(stream);
    this.updateRef();
  }

  /** A stream's command; dropped when the thread that had the stream has stopped (its streams were told: `lost`). */
  post(message: ToMediaThread, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(message, transfer);
  }

  private request(message: (request: number) => ToMediaThread): Promise<Reply | null> {
    const worker = this.thread();
    const request = this.nextRequest++;
    return new Promise((resolve) => {
      this.pending.set(request, resolve);
      this.updateRef();
      worker.postMessage(message(request));
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const started = new Worker(BOOTSTRAP, { workerData: { module: MEDIA_WORKER, threadName: 'sip-media', nice: this.scheduling.nice, realtimePriority: this.scheduling.realtimePriority }, execArgv: [] });
    this.worker = started;
    this.updateRef();
    started.on('message', (message: FromMediaThread) => this.dispatch(message));
    const stopped = () => {
      if (this.worker !== started) return;
      this.worker = null;
      for (const [request, resolve] of this.pending) {
        this.pending.delete(request);
        resolve(null);
      }
      for (const [stream, client] of this.clients) {
        this.clients.delete(stream);
        client.lost();
      }
    };
    started.on('error', stopped);
    started.on('exit', stopped);
    return started;
  }

  private dispatch(message: FromMediaThread): void {
    if (message.type !== 'media') {
      const resolve = this.pending.get(message.request);
      this.pending.delete(message.request);
      this.updateRef();
      resolve?.(message);
      return;
    }
    if (message.sent) {
      const sent = message.sent;
      for (let index = 0; index + 1 < sent.length; index += 2) this.clients.get(sent[index]!)?.sentAt(sent[index + 1]!);
    }
    if (message.packets) for (const { stream, arrival, packet } of unpackReceived(message.packets)) this.clients.get(stream)?.received(arrival, packet);
    for (const client of this.clients.values()) client.heardUntil(message.at);
    for (const event of message.events) this.clients.get(event.stream)?.playback(event);
    if (message.tick) for (const client of this.clients.values()) client.tick();
  }

  /** An idle media thread does not keep the process alive (a server's SIP socket does that). */
  private updateRef(): void {
    if (!this.worker) return;
    if (this.clients.size > 0 || this.pending.size > 0) this.worker.ref();
    else this.worker.unref();
  }
}

export const mediaThread = new MediaThread();

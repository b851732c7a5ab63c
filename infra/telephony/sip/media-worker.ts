/**
 * The media thread (media-thread.ts starts it): owns every call's RTP socket and the 20 ms media clock, so packets
 * leave on time whatever the main thread's event loop is doing (SIP, recognition hand-off, projections, HTTP).
 * Sending is `RtpSender`; received packets are stamped on arrival and handed to the main thread in one batch per
 * tick (at once for a telephone-event packet, so a key barges in without waiting for the tick), together with
 * when each packet left and the playbacks that started or ended. Nothing here analyses or allocates per call beyond
 * the packets themselves, except a warm transfer's bridge: a stream relaying another (`relay`) sends that stream's
 * received audio as its own frames, decoded and jitter-buffered here (received-audio-relay.ts), so the relayed
 * audio keeps this thread's timing and never waits on the main thread.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { parentPort, workerData } from 'node:worker_threads';
import { runThisThreadRealtime, thisThreadScheduling } from '../../worker-threads/background-priority.ts';
import { MediaClock } from './media-clock.ts';
import { monotonicMs, packReceived, type FromMediaThread, type PlaybackEvent, type ReceivedPacket, type RemoteMedia, type ToMediaThread } from './media-protocol.ts';
import { ReceivedAudioRelay } from './received-audio-relay.ts';
import { RtpSender } from './rtp-sender.ts';

if (!parentPort) throw new Error('media-worker.ts runs as a worker thread (see media-thread.ts)');
const mainThread = parentPort;
// The nice value (workerData.nice) is applied by the bootstrap (typescript-worker.mjs); real-time scheduling here.
runThisThreadRealtime(Number(workerData?.realtimePriority ?? 0));

interface Stream {
  id: number;
  socket: Socket;
  sender: RtpSender;
  remote: RemoteMedia | null;
  started: boolean;
  /** This stream's received audio for the streams that relay it (a bridged leg); null when none does. */
  relayed: ReceivedAudioRelay | null;
  /** The stream whose received audio this one sends (a warm transfer's bridge). */
  relaying: Stream | null;
}

const streams = new Map<number, Stream>();
let nextStream = 1;
let received: ReceivedPacket[] = [];
/** Stream id and monotonicMs pairs, one per packet sent since the last report. */
let sent: number[] = [];
let events: PlaybackEvent[] = [];
const clock = new MediaClock(() => report(true));

function post(message: FromMediaThread, transfer: ArrayBuffer[] = []): void {
  mainThread.postMessage(message, transfer);
}

function report(tick: boolean): void {
  if (!tick && received.length === 0 && events.length === 0) return;
  const packets = packReceived(received);
  const sentTimes = sent.length > 0 ? Float64Array.from(sent) : null;
  const transfer: ArrayBuffer[] = [];
  if (packets) transfer.push(packets.buffer as ArrayBuffer);
  if (sentTimes) transfer.push(sentTimes.buffer as ArrayBuffer);
  post({ type: 'media', tick, at: monotonicMs(), packets, sent: sentTimes, events }, transfer);
  received = [];
  sent = [];
  events = [];
}

function receive(stream: Stream, message: Buffer, from: RemoteInfo): void {
  const remote = stream.remote;
  if (!remote || message.length < 12) return;
  // Symmetric RTP: accept the peer's packets from where it announced (or where it actually sends from).
  if (from.address !== remote.address && from.port !== remote.port) return;
  const arrival = monotonicMs();
  received.push({ stream: stream.id, arrival, packet: message });
  stream.relayed?.place(message, arrival);
  if (remote.telephoneEvent !== null && (message[1]! & 0x7f) === remote.telephoneEvent) report(false);
}

function bind(request: number, address: string, port: number): void {
  const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
  const failed = () => {
    socket.close();
    post({ type: 'bound', request, stream: null });
  };
  socket.once('error', failed);
  socket.bind(port, address, () => {
    socket.off('error', failed);
    socket.on('error', () => undefined);
    const id = nextStream++;
    const stream: Stream = {
      id,
      socket,
      remote: null,
      started: false,
      relayed: null,
      relaying: null,
      sender: new RtpSender({
        send(packet, toAddress, toPort) {
          sent.push(id, monotonicMs());
          socket.send(packet, toPort, toAddress);
        },
        playback(play, kind, frameEndsInMs) {
          events.push({ stream: id, play, kind, at: monotonicMs() + frameEndsInMs });
        },
      }),
    };
    socket.on('message', (message, from) => receive(stream, message, from));
    streams.set(id, stream);
    post({ type: 'bound', request, stream: id });
  });
}

/** `sink` sends what `source` receives from the next tick (null: silence again). */
function relay(sink: Stream, source: Stream | null): void {
  const previous = sink.relaying;
  sink.relaying = null;
  sink.sender.relayFrom(null);
  if (previous && ![...streams.values()].some((other) => other.relaying === previous)) previous.relayed = null;
  if (!source || source === sink) return;
  source.relayed ??= new ReceivedAudioRelay(monotonicMs());
  sink.relaying = source;
  sink.sender.relayFrom(source.relayed);
}

mainThread.on('message', (message: ToMediaThread) => {
  if (message.type === 'bind') return bind(message.request, message.address, message.port);
  if (message.type === 'stats') {
    post({ type: 'stats', request: message.request, lateness: [...clock.lateness], durations: [...clock.durations], ...thisThreadScheduling() });
    if (message.reset) {
      clock.lateness.length = 0;
      clock.durations.length = 0;
    }
    return;
  }
  const stream = streams.get(message.stream);
  if (!stream) return;
  switch (message.type) {
    case 'remote':
      stream.remote = message.remote;
      stream.sender.setRemote(message.remote, message.sending);
      break;
    case 'start':
      if (!stream.started) clock.add(stream.sender);
      stream.started = true;
      break;
    case 'play':
      stream.sender.play(message.play, message.payload, message.codec);
      break;
    case 'stop':
      stream.sender.stop(message.play);
      break;
    case 'digits':
      stream.sender.sendDigits(message.digits);
      break;
    case 'relay':
      relay(stream, message.from === null ? null : (streams.get(message.from) ?? null));
      break;
    case 'close':
      // Unbridge: whoever relayed this stream goes back to silence.
      relay(stream, null);
      for (const other of streams.values()) if (other.relaying === stream) relay(other, null);
      clock.remove(stream.sender);
      streams.delete(stream.id);
      stream.socket.close();
      break;
  }
});

import { performance } from 'node:perf_hooks';
import type { G711 } from './sdp.ts';

/**
 * The messages between the main thread (media-thread.ts, rtp-stream.ts) and the media thread (media-worker.ts),
 * and the one clock both read. `performance.now()` counts from each thread's own start, so times that cross
 * threads are `monotonicMs()`: the process's monotonic clock (CLOCK_MONOTONIC), the same in every thread. Each
 * thread measures its offset once, and reads `performance.now()` after that (no BigInt made per packet).
 */
const MONOTONIC_OFFSET_MS = Number(process.hrtime.bigint()) / 1e6 - performance.now();

export function monotonicMs(): number {
  return performance.now() + MONOTONIC_OFFSET_MS;
}

export interface RemoteMedia {
  address: string;
  port: number;
  codec: G711;
  /** The peer's telephone-event payload type, null when it offered none. */
  telephoneEvent: number | null;
}

export type ToMediaThread =
  /** Bind a UDP socket for a new stream; answered by `bound`. */
  | { type: 'bind'; request: number; address: string; port: number }
  | { type: 'remote'; stream: number; remote: RemoteMedia; sending: boolean }
  /** The stream's packets start at the next tick. */
  | { type: 'start'; stream: number }
  /** G.711 (in `codec`) to send from the next frame, the whole prompt at once (transferred, not copied). */
  | { type: 'play'; stream: number; play: number; payload: Uint8Array; codec: G711 }
  | { type: 'stop'; stream: number; play: number }
  | { type: 'digits'; stream: number; digits: string }
  /**
   * A warm transfer's bridge: from the next tick the stream sends what stream `from` receives (jitter-buffered,
   * re-encoded) whenever no prompt plays; `from: null` (or either stream closing) goes back to silence.
   */
  | { type: 'relay'; stream: number; from: number | null }
  | { type: 'close'; stream: number }
  /** The clock's tick lateness and tick durations so far (the benchmark's figures); `reset` empties them. */
  | { type: 'stats'; request: number; reset: boolean };

/** A playback's first frame left (`started`), its last one did (`ended`, `at` is when it finishes playing out). */
export interface PlaybackEvent {
  stream: number;
  play: number;
  kind: 'started' | 'ended';
  /** monotonicMs */
  at: number;
}

export type FromMediaThread =
  | { type: 'bound'; request: number; stream: number | null }
  /**
   * What happened since the last report: packets received (`packets`, see `packReceived`), when each packet left
   * (`sent`: stream id, monotonicMs, pairs), playback events. `tick`: sent after a clock tick (the main thread
   * analyses the customers' audio then); a report without it is sent at once for a telephone-event packet.
   * `at` (monotonicMs): every packet received before it is in this report or an earlier one.
   */
  | { type: 'media'; tick: boolean; at: number; packets: Uint8Array | null; sent: Float64Array | null; events: PlaybackEvent[] }
  /** The thread's scheduling as it runs (a refused raise leaves nice 0 and real-time priority 0). */
  | { type: 'stats'; request: number; lateness: number[]; durations: number[]; nice: number; realtimePriority: number };

/** Per received packet: stream id (u32), length (u16), arrival (f64, monotonicMs), then the packet as received. */
const RECORD_HEADER = 14;

export interface ReceivedPacket {
  stream: number;
  arrival: number;
  packet: Uint8Array;
}

/** The packets received since the last report in one buffer (one transfer instead of a message per packet). */
export function packReceived(received: readonly ReceivedPacket[]): Uint8Array | null {
  if (received.length === 0) return null;
  let size = 0;
  for (const { packet } of received) size += RECORD_HEADER + packet.byteLength;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const { stream, arrival, packet } of received) {
    view.setUint32(offset, stream);
    view.setUint16(offset + 4, packet.byteLength);
    view.setFloat64(offset + 6, arrival);
    out.set(packet, offset + RECORD_HEADER);
    offset += RECORD_HEADER + packet.byteLength;
  }
  return out;
}

export function* unpackReceived(packed: Uint8Array): Generator<ReceivedPacket> {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let offset = 0;
  while (offset + RECORD_HEADER <= packed.byteLength) {
    const length = view.getUint16(offset + 4);
    const start = offset + RECORD_HEADER;
    yield { stream: view.getUint32(offset), arrival: view.getFloat64(offset + 6), packet: packed.subarray(start, start + length) };
    offset = start + length;
  }
}

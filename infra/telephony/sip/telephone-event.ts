/**
 * RFC 4733 telephone-events (DTMF over RTP): the 4-byte payload, and the receive-side rule that turns a stream
 * of event packets (sent every 20 ms while a key is held, the last three with the End bit) into one key press.
 */
const EVENT_OF_DIGIT: Readonly<Record<string, number>> = { '*': 10, '#': 11, A: 12, B: 13, C: 14, D: 15 };
const DIGITS = '0123456789*#ABCD';

export interface TelephoneEvent {
  digit: string;
  end: boolean;
  /** Attenuation in dBm0 (0-63). */
  volume: number;
  /** In timestamp units (8 kHz samples) since the event began. */
  duration: number;
}

export function encodeTelephoneEvent(event: TelephoneEvent): Buffer {
  const code = EVENT_OF_DIGIT[event.digit] ?? Number(event.digit);
  if (!Number.isInteger(code) || code < 0 || code > 15) throw new Error(`not a DTMF key: ${event.digit}`);
  const payload = Buffer.alloc(4);
  payload[0] = code;
  payload[1] = (event.end ? 0x80 : 0) | (event.volume & 0x3f);
  payload.writeUInt16BE(Math.min(0xffff, event.duration), 2);
  return payload;
}

export function decodeTelephoneEvent(payload: Uint8Array): TelephoneEvent | null {
  if (payload.length < 4 || payload[0]! > 15) return null;
  return { digit: DIGITS[payload[0]!]!, end: (payload[1]! & 0x80) !== 0, volume: payload[1]! & 0x3f, duration: (payload[2]! << 8) | payload[3]! };
}

/**
 * One key press per event: the event is identified by its RTP timestamp (the same in every packet of one press,
 * retransmitted End packets included). Reported at its first packet, so a digit barges in without waiting for
 * the key's release.
 */
export class TelephoneEventReceiver {
  private readonly seen: number[] = [];

  accept(rtpTimestamp: number, payload: Uint8Array): string | null {
    const event = decodeTelephoneEvent(payload);
    if (!event) return null;
    if (this.seen.includes(rtpTimestamp)) return null;
    this.seen.push(rtpTimestamp);
    if (this.seen.length > 16) this.seen.shift();
    return event.digit;
  }
}

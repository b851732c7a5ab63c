import { isIPv6 } from 'node:net';

/**
 * The SDP we speak: one audio stream, G.711 (PCMA preferred, as Indian trunks use A-law, then PCMU) plus RFC 4733
 * telephone-events, 20 ms packets. Only what an offer/answer with a SIP trunk needs; no ICE, no SRTP.
 */
export type G711 = 'PCMA' | 'PCMU';
export type Direction = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

export const PAYLOAD_TYPE: Record<G711, number> = { PCMU: 0, PCMA: 8 };
export const OUR_TELEPHONE_EVENT_PAYLOAD = 101;

export interface MediaDescription {
  address: string;
  port: number;
  codec: G711;
  /** The peer's payload type for telephone-event, or null when it offered none (then we fall back to SIP INFO). */
  telephoneEvent: number | null;
  direction: Direction;
}

export interface LocalMedia {
  address: string;
  port: number;
  sessionId: number;
  version: number;
  direction?: Direction;
  /** In an answer: only the chosen codec. */
  codecs?: readonly G711[];
  telephoneEvent?: number;
}

export function buildSdp(local: LocalMedia): string {
  const family = isIPv6(local.address) ? 'IP6' : 'IP4';
  const codecs = local.codecs ?? (['PCMA', 'PCMU'] as const);
  const event = local.telephoneEvent ?? OUR_TELEPHONE_EVENT_PAYLOAD;
  const payloads = [...codecs.map((codec) => PAYLOAD_TYPE[codec]), event];
  return [
    'v=0',
    `o=- ${local.sessionId} ${local.version} IN ${family} ${local.address}`,
    's=-',
    `c=IN ${family} ${local.address}`,
    't=0 0',
    `m=audio ${local.port} RTP/AVP ${payloads.join(' ')}`,
    ...codecs.map((codec) => `a=rtpmap:${PAYLOAD_TYPE[codec]} ${codec}/8000`),
    `a=rtpmap:${event} telephone-event/8000`,
    `a=fmtp:${event} 0-16`,
    'a=ptime:20',
    `a=${local.direction ?? 'sendrecv'}`,
    '',
  ].join('\r\n');
}

/** Reads the peer's audio stream from an offer or an answer; null when it has no usable G.711 audio. */
export function parseSdp(text: string): MediaDescription | null {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  let sessionAddress: string | undefined;
  let sessionDirection: Direction | undefined;
  let media: { port: number; payloads: number[]; address?: string; direction?: Direction; rtpmap: Map<number, string> } | undefined;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      if (media) break; // the first audio stream only
      const [kind, port, , ...payloads] = line.slice(2).split(/\s+/);
      if (kind !== 'audio') continue;
      media = { port: Number(port), payloads: payloads.map(Number), rtpmap: new Map() };
      continue;
    }
    if (line.startsWith('c=')) {
      const address = line.split(/\s+/)[2];
      if (media) media.address = address;
      else sessionAddress = address;
    } else if (/^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line)) {
      const direction = line.slice(2) as Direction;
      if (media) media.direction = direction;
      else sessionDirection = direction;
    } else if (line.startsWith('a=rtpmap:') && media) {
      const match = /^a=rtpmap:(\d+)\s+([^/]+)\//.exec(line);
      if (match) media.rtpmap.set(Number(match[1]), match[2]!.toLowerCase());
    }
  }
  if (!media) return null;
  const address = media.address ?? sessionAddress;
  if (!address || !Number.isInteger(media.port) || media.port < 0 || media.port > 65535) return null;
  const nameOf = (payload: number) => media.rtpmap.get(payload) ?? (payload === 0 ? 'pcmu' : payload === 8 ? 'pcma' : undefined);
  // The answerer's order is its preference; take its first G.711 codec.
  const codecPayload = media.payloads.find((payload) => nameOf(payload) === 'pcma' || nameOf(payload) === 'pcmu');
  if (codecPayload === undefined) return null;
  const telephoneEvent = media.payloads.find((payload) => nameOf(payload) === 'telephone-event') ?? null;
  // A port of 0 or the address 0.0.0.0 is the old way of putting a call on hold.
  const held = media.port === 0 || address === '0.0.0.0';
  return {
    address,
    port: media.port,
    codec: nameOf(codecPayload) === 'pcma' ? 'PCMA' : 'PCMU',
    telephoneEvent,
    direction: held ? 'inactive' : (media.direction ?? sessionDirection ?? 'sendrecv'),
  };
}

/** Our direction in an answer to an offer with `offered` (RFC 3264 §6.1). */
export function answerDirection(offered: Direction): Direction {
  switch (offered) {
    case 'sendonly':
      return 'recvonly';
    case 'recvonly':
      return 'sendonly';
    default:
      return offered;
  }
}

import type { RtpStream } from './rtp-stream.ts';
import { answerDirection, buildSdp, parseSdp, type G711 } from './sdp.ts';

/**
 * Our SDP answer to a re-INVITE inside an answered call (hold, resume, a new media address), applied to the
 * call's stream; null when the offer has no G.711 audio (the dialog refuses it with 488). `version` is the next
 * version of our SDP session. Shared by the customer's call and a warm transfer's agent leg.
 */
export function answerReinvite(stream: RtpStream, local: { address: string; sessionId: number }, version: number, offer: string | undefined): string | null {
  const codec: G711 = stream.codec;
  if (offer === undefined) {
    // An offer-less re-INVITE: we offer what we have; the answer comes in the ACK, which changes nothing here.
    return buildSdp({ address: local.address, port: stream.port, sessionId: local.sessionId, version, codecs: [codec] });
  }
  const remote = parseSdp(offer);
  if (!remote) return null;
  const direction = answerDirection(remote.direction);
  stream.setRemote(remote, direction);
  return buildSdp({
    address: local.address,
    port: stream.port,
    sessionId: local.sessionId,
    version,
    codecs: [remote.codec],
    telephoneEvent: remote.telephoneEvent ?? undefined,
    direction,
  });
}

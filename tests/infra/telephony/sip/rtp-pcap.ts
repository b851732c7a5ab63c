import alawmulaw from 'alawmulaw';
import { writeFileSync } from 'node:fs';
import { encodeTelephoneEvent } from '../../../../infra/telephony/sip/telephone-event.ts';

/**
 * Writes 8 kHz mono audio (and keys, as RFC 4733 events) as a pcap of PCMA RTP packets (20 ms each, Ethernet/IPv4/UDP), the form sipp's
 * `play_pcap_audio` streams to the far end at the capture's pace: how the sipp peers speak (early-media
 * announcements, machine greetings, the benchmark's customers).
 */
export function writeRtpPcap(path: string, pcm: Int16Array, keys: Array<{ atSeconds: number; digit: string }> = []): void {
  // Through the last key and a little quiet after it, when the audio is shorter.
  const frames = Math.max(Math.ceil(pcm.length / 160), ...keys.map((key) => Math.round(key.atSeconds * 50) + 20));
  // A key replaces the audio frames it covers: 5 event packets (100 ms), the last three with End, payload type 101.
  const keyFrames = new Map<number, { digit: string; age: number; start: number }>();
  for (const key of keys) {
    const start = Math.round(key.atSeconds * 50);
    for (let age = 0; age < 8; age++) keyFrames.set(start + age, { digit: key.digit, age, start });
  }
  const header = Buffer.alloc(24);
  header.writeUInt32LE(0xa1b2c3d4, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  header.writeUInt32LE(65535, 16);
  header.writeUInt32LE(1, 20); // LINKTYPE_ETHERNET
  const parts: Buffer[] = [header];
  for (let frame = 0; frame < frames; frame++) {
    const key = keyFrames.get(frame);
    let payload: Buffer;
    const rtp = Buffer.alloc(12);
    rtp[0] = 0x80;
    if (key) {
      payload = encodeTelephoneEvent({ digit: key.digit, end: key.age >= 4, volume: 10, duration: Math.min(key.age + 1, 5) * 160 });
      rtp[1] = (key.age === 0 ? 0x80 : 0) | 101;
      rtp.writeUInt32BE((key.start * 160) >>> 0, 4);
    } else {
      const chunk = new Int16Array(160);
      chunk.set(pcm.subarray(frame * 160, frame * 160 + 160));
      payload = Buffer.from(alawmulaw.alaw.encode(chunk));
      rtp[1] = (frame === 0 ? 0x80 : 0) | 8; // marker on the first packet, PT 8 (PCMA)
      rtp.writeUInt32BE((frame * 160) >>> 0, 4);
    }
    rtp.writeUInt16BE(frame & 0xffff, 2);
    rtp.writeUInt32BE(0x5eed5eed, 8);
    const udpLength = 8 + rtp.length + payload.length;
    const ip = Buffer.alloc(20);
    ip[0] = 0x45;
    ip.writeUInt16BE(20 + udpLength, 2);
    ip[8] = 64;
    ip[9] = 17; // UDP
    ip.set([127, 0, 0, 2], 12);
    ip.set([127, 0, 0, 1], 16);
    let sum = 0;
    for (let index = 0; index < 20; index += 2) sum += ip.readUInt16BE(index);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    ip.writeUInt16BE(~sum & 0xffff, 10);
    const udp = Buffer.alloc(8);
    udp.writeUInt16BE(40000, 0);
    udp.writeUInt16BE(40002, 2);
    udp.writeUInt16BE(udpLength, 4);
    const ethernet = Buffer.alloc(14);
    ethernet.writeUInt16BE(0x0800, 12);
    const packet = Buffer.concat([ethernet, ip, udp, rtp, payload]);
    const record = Buffer.alloc(16);
    const micros = frame * 20_000;
    record.writeUInt32LE(1_700_000_000 + Math.floor(micros / 1e6), 0);
    record.writeUInt32LE(micros % 1e6, 4);
    record.writeUInt32LE(packet.length, 8);
    record.writeUInt32LE(packet.length, 12);
    parts.push(record, packet);
  }
  writeFileSync(path, Buffer.concat(parts));
}

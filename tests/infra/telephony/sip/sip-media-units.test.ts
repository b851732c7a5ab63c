import { test } from 'uvu';
import * as assert from 'uvu/assert';
import alawmulaw from 'alawmulaw';
import { dtmfEntryDigits, isDtmfEntryComplete } from '../../../../infra/telephony/dtmf-entry.ts';
import { CallRateLimiter } from '../../../../infra/telephony/sip/call-rate-limiter.ts';
import { CustomerTrack } from '../../../../infra/telephony/sip/customer-track.ts';
import { ReceivedAudioRelay } from '../../../../infra/telephony/sip/received-audio-relay.ts';
import { answerDirection, buildSdp, parseSdp } from '../../../../infra/telephony/sip/sdp.ts';
import { decodeTelephoneEvent, encodeTelephoneEvent, TelephoneEventReceiver } from '../../../../infra/telephony/sip/telephone-event.ts';
import { dtmfOfInfo } from '../../../../infra/telephony/sip/user-agent.ts';
import { UtteranceDetector } from '../../../../infra/telephony/sip/utterance-detector.ts';

const frame = (amplitude: number) => Int16Array.from({ length: 160 }, (_, index) => Math.round(amplitude * Math.sin(index / 3)));

test('our offer: PCMA, PCMU, telephone-event, 20 ms', () => {
  const sdp = buildSdp({ address: '127.0.0.1', port: 20000, sessionId: 7, version: 1 });
  assert.match(sdp, /m=audio 20000 RTP\/AVP 8 0 101\r\n/);
  assert.match(sdp, /a=rtpmap:101 telephone-event\/8000/);
  assert.match(sdp, /a=ptime:20/);
  const parsed = parseSdp(sdp)!;
  assert.equal(parsed, { address: '127.0.0.1', port: 20000, codec: 'PCMA', telephoneEvent: 101, direction: 'sendrecv' });
});

test('an answer: the answerer\'s first G.711 codec, its event payload type, media-level address and direction', () => {
  const answer = 'v=0\r\no=x 1 1 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 10.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 0 96\r\nc=IN IP4 10.0.0.9\r\na=rtpmap:96 telephone-event/8000\r\na=sendonly\r\n';
  assert.equal(parseSdp(answer), { address: '10.0.0.9', port: 4000, codec: 'PCMU', telephoneEvent: 96, direction: 'sendonly' });
  assert.is(parseSdp('v=0\r\nc=IN IP4 1.2.3.4\r\nm=audio 4000 RTP/AVP 18\r\n'), null, 'G.729 only: nothing we can speak');
  assert.is(parseSdp('v=0\r\nc=IN IP4 0.0.0.0\r\nm=audio 4000 RTP/AVP 8\r\n')!.direction, 'inactive', 'old-style hold');
  assert.is(answerDirection('sendonly'), 'recvonly');
  assert.is(answerDirection('inactive'), 'inactive');
});

test('RFC 4733: encode/decode, one key per event timestamp', () => {
  const payload = encodeTelephoneEvent({ digit: '#', end: true, volume: 10, duration: 800 });
  assert.equal(decodeTelephoneEvent(payload), { digit: '#', end: true, volume: 10, duration: 800 });
  const receiver = new TelephoneEventReceiver();
  assert.is(receiver.accept(1000, encodeTelephoneEvent({ digit: '5', end: false, volume: 10, duration: 160 })), '5');
  assert.is(receiver.accept(1000, encodeTelephoneEvent({ digit: '5', end: true, volume: 10, duration: 800 })), null);
  assert.is(receiver.accept(2000, encodeTelephoneEvent({ digit: '5', end: false, volume: 10, duration: 160 })), '5', 'the same key again');
  assert.throws(() => encodeTelephoneEvent({ digit: 'x', end: false, volume: 0, duration: 0 }));
});

test('keypad entries: complete when no longer route can follow, at #, or at 8 keys', () => {
  const single = ['1', '2'];
  assert.ok(isDtmfEntryComplete('1', single), 'one-key routes: a key is an answer at once');
  assert.ok(isDtmfEntryComplete('7', single), 'a key no route has is complete too (not understood)');
  const mixed = ['4', '42', '1234'];
  assert.not.ok(isDtmfEntryComplete('4', mixed), '4 may become 42: wait');
  assert.ok(isDtmfEntryComplete('42', mixed));
  assert.not.ok(isDtmfEntryComplete('123', mixed));
  assert.ok(isDtmfEntryComplete('4#', mixed), '# ends the entry');
  assert.is(dtmfEntryDigits('4#'), '4');
  assert.is(dtmfEntryDigits('#'), '#', 'a lone # is the key itself');
  assert.ok(isDtmfEntryComplete('11111111', ['111111111']), 'at most 8 keys');
  assert.not.ok(isDtmfEntryComplete('', mixed));
});

test('SIP INFO DTMF bodies', () => {
  assert.is(dtmfOfInfo('application/dtmf-relay', 'Signal=7\r\nDuration=160\r\n'), '7');
  assert.is(dtmfOfInfo('application/dtmf', '#'), '#');
  assert.is(dtmfOfInfo('text/plain', '7'), null);
});

test('the customer track places packets by RTP timestamp: reordered, lost and wrapped', () => {
  const track = new CustomerTrack(10);
  const ssrc = 42;
  const base = 0xffffff00; // wraps after two packets
  const packet = (value: number) => new Int16Array(160).fill(value);
  track.place(ssrc, base, 800, packet(1)); // arrives 100 ms after answer
  track.place(ssrc, (base + 320) >>> 0, 1130, packet(3)); // the third, before the second
  track.place(ssrc, (base + 160) >>> 0, 1140, packet(2)); // late
  track.place(ssrc, (base + 640) >>> 0, 1450, packet(5)); // the fourth was lost
  const audio = track.read(800, 800 + 800);
  assert.is(audio[0], 1);
  assert.is(audio[160], 2);
  assert.is(audio[320], 3);
  assert.is(audio[480], 0, 'lost: silence');
  assert.is(audio[640], 5);
  // A new source re-anchors at its arrival.
  track.place(99, 5, 4000, packet(9));
  assert.is(track.read(4000, 4001)[0], 9);
});

/** An RTP packet of 160 samples of `value` (PCMA unless `payloadType` says otherwise). */
function rtpPacket(ssrc: number, timestamp: number, value: number, payloadType = 8): Uint8Array {
  const packet = new Uint8Array(12 + 160);
  const view = new DataView(packet.buffer);
  packet[0] = 0x80;
  packet[1] = payloadType;
  view.setUint32(4, timestamp >>> 0);
  view.setUint32(8, ssrc);
  const encode = payloadType === 0 ? alawmulaw.mulaw.encodeSample : alawmulaw.alaw.encodeSample;
  packet.fill(encode(value), 12);
  return packet;
}

test('the transfer relay (media thread): packets placed by timestamp, relayed 60 ms behind, each sample once', () => {
  const pcma = (value: number) => alawmulaw.alaw.decodeSample(alawmulaw.alaw.encodeSample(value));
  const pcmu = (value: number) => alawmulaw.mulaw.decodeSample(alawmulaw.mulaw.encodeSample(value));
  const relay = new ReceivedAudioRelay(1000);
  const base = 0xffffff00; // wraps after two packets
  relay.place(rtpPacket(7, base, 1000), 1000);
  relay.place(rtpPacket(7, base + 320, 3000), 1045); // the third, before the second
  relay.place(rtpPacket(7, base + 160, 2000), 1050); // the second, 30 ms late: still in time
  relay.place(rtpPacket(7, base + 200, 0, 101), 1051); // a key: not audio
  // the fourth is lost
  relay.place(rtpPacket(7, base + 640, 5000, 0), 1080); // the peer switched to PCMU
  // Ticks every 20 ms: frame k is read at 1020 + 20k, covering 60 ms before the tick.
  const heard = [1020, 1040, 1060, 1080, 1100, 1120, 1140, 1160].map((at) => relay.nextFrame(at)[0]);
  assert.equal(heard, [0, 0, 0, pcma(1000), pcma(2000), pcma(3000), 0, pcmu(5000)]);
  relay.place(rtpPacket(7, base + 160, 9000), 1170); // a duplicate of a frame already relayed: dropped
  assert.is(relay.nextFrame(1180)[0], 0);
  // A long gap (a late tick that caught up): the read position jumps to now, nothing stale plays.
  relay.place(rtpPacket(7, base + 960, 6000), 1180);
  assert.is(relay.nextFrame(5000)[0], 0);
  // A new source re-anchors at its arrival.
  relay.place(rtpPacket(99, 5, 4000), 5000);
  assert.equal([5020, 5040, 5060, 5080].map((at) => relay.nextFrame(at)[0]), [0, 0, pcma(4000), 0]);
});

test('utterance detector: start after sustained voice, end after 700 ms of quiet (as configured), clicks ignored', () => {
  const detector = new UtteranceDetector({ endSilenceMs: 700 });
  const events: Array<{ kind: string; frame: number }> = [];
  const feed = (amplitude: number, frames: number) => {
    for (let index = 0; index < frames; index++) {
      const event = detector.push(frame(amplitude));
      if (event) events.push(event);
    }
  };
  feed(0, 25);
  feed(8000, 2); // a 40 ms click
  feed(0, 25);
  feed(6000, 40); // 800 ms of speech from frame 52
  feed(0, 50);
  assert.equal(events, [
    { kind: 'start', frame: 52 },
    { kind: 'end', frame: 92 },
  ]);
});

test('calls per second: INVITEs spaced by 1/CPS in order', async () => {
  let now = 1000;
  const waits: number[] = [];
  const limiter = new CallRateLimiter(4, () => now, async (ms) => {
    waits.push(ms);
  });
  await limiter.acquire();
  await limiter.acquire();
  await limiter.acquire();
  assert.equal(waits, [250, 500]);
  now = 5000; // idle for a while: no debt carried
  await limiter.acquire();
  assert.equal(waits, [250, 500]);
});

test.run();

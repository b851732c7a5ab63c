import { test } from 'uvu';
import * as assert from 'uvu/assert';
import alawmulaw from 'alawmulaw';
import { monotonicMs, packReceived, unpackReceived } from '../../../../infra/telephony/sip/media-protocol.ts';
import { MediaThread, mediaThread } from '../../../../infra/telephony/sip/media-thread.ts';
import { RtpSender } from '../../../../infra/telephony/sip/rtp-sender.ts';
import { RtpPortPool, RtpStream } from '../../../../infra/telephony/sip/rtp-stream.ts';
import { decodeTelephoneEvent } from '../../../../infra/telephony/sip/telephone-event.ts';

// The media thread (media-worker.ts): RtpSender's packets frame by frame (a recorder in place of the socket), the
// batch format, then two real RtpStreams talking over loopback through the real media thread.

interface Packet {
  marker: boolean;
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Uint8Array;
}

function parse(packet: Uint8Array): Packet {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  assert.is(packet[0], 0x80, 'RTP version 2, no padding, extension or CSRC');
  return { marker: (packet[1]! & 0x80) !== 0, payloadType: packet[1]! & 0x7f, sequence: view.getUint16(2), timestamp: view.getUint32(4), ssrc: view.getUint32(8), payload: packet.subarray(12) };
}

function recordingSender() {
  const sent: Packet[] = [];
  const events: Array<{ play: number; kind: string; frameEndsInMs: number; afterPackets: number }> = [];
  const sender = new RtpSender({
    send: (packet, address, port) => {
      assert.equal([address, port], ['10.0.0.9', 4000]);
      sent.push(parse(packet));
    },
    playback: (play, kind, frameEndsInMs) => events.push({ play, kind, frameEndsInMs, afterPackets: sent.length }),
  });
  return { sender, sent, events };
}

const REMOTE = { address: '10.0.0.9', port: 4000, codec: 'PCMA' as const, telephoneEvent: 101 };
const tone = (samples: number, amplitude = 8000) => Int16Array.from({ length: samples }, (_, index) => Math.round(amplitude * Math.sin(index / 3)));

test('RtpSender: a packet a tick, sequence +1 and timestamp +160 each, one SSRC; nothing before the remote is known', () => {
  const { sender, sent } = recordingSender();
  sender.tick(0);
  assert.is(sent.length, 0);
  sender.setRemote(REMOTE, true);
  for (let frame = 0; frame < 5; frame++) sender.tick(frame);
  assert.is(sent.length, 5);
  for (let index = 1; index < sent.length; index++) {
    assert.is(sent[index]!.sequence, (sent[index - 1]!.sequence + 1) & 0xffff);
    assert.is(sent[index]!.timestamp, (sent[index - 1]!.timestamp + 160) >>> 0);
    assert.is(sent[index]!.ssrc, sent[0]!.ssrc);
  }
  assert.ok(sent.every((packet) => packet.payloadType === 8 && !packet.marker && packet.payload.length === 160));
  assert.ok(sent.every((packet) => packet.payload.every((byte) => byte === 0xd5)), 'A-law silence between prompts');
});

test('RtpSender: a prompt frame by frame, the last one padded, started and ended reported; stop drops the rest', () => {
  const { sender, sent, events } = recordingSender();
  sender.setRemote(REMOTE, true);
  const prompt = alawmulaw.alaw.encode(tone(400)); // 2.5 frames
  sender.play(1, prompt, 'PCMA');
  for (let frame = 0; frame < 4; frame++) sender.tick(frame);
  assert.equal(sent[0]!.payload, prompt.subarray(0, 160));
  assert.equal(sent[2]!.payload.subarray(0, 80), prompt.subarray(320, 400));
  assert.ok(sent[2]!.payload.subarray(80).every((byte) => byte === 0xd5), 'the rest of the last frame is silence');
  assert.equal(events, [
    { play: 1, kind: 'started', frameEndsInMs: 0, afterPackets: 0 },
    { play: 1, kind: 'ended', frameEndsInMs: 20, afterPackets: 2 },
  ]);
  sender.play(2, alawmulaw.alaw.encode(tone(1600)), 'PCMA');
  sender.tick(4);
  sender.stop(1);
  sender.tick(5);
  assert.not.equal(sent[5]!.payload[0], 0xd5, 'stopping an earlier playback does not stop this one');
  sender.stop(2);
  sender.tick(6);
  assert.ok(sent[6]!.payload.every((byte) => byte === 0xd5), 'stopped: silence from the next frame');
  assert.is(events.filter((event) => event.play === 2 && event.kind === 'ended').length, 0);
});

test('RtpSender: an RFC 4733 key takes 8 packets with the key\'s first timestamp, marker on the first, End on the last 3; audio keeps the clock', () => {
  const { sender, sent } = recordingSender();
  sender.setRemote(REMOTE, true);
  sender.tick(0);
  sender.sendDigits('5#');
  for (let frame = 1; frame <= 23; frame++) sender.tick(frame);
  const base = sent[0]!.timestamp;
  const events = sent.filter((packet) => packet.payloadType === 101);
  assert.is(events.length, 16);
  const first = events.slice(0, 8).map((packet) => ({ marker: packet.marker, timestamp: packet.timestamp - base, event: decodeTelephoneEvent(packet.payload) }));
  assert.equal(
    first.map((packet) => [packet.marker, packet.timestamp, packet.event!.digit, packet.event!.end, packet.event!.duration]),
    [
      [true, 160, '5', false, 160],
      [false, 160, '5', false, 320],
      [false, 160, '5', false, 480],
      [false, 160, '5', false, 640],
      [false, 160, '5', false, 800],
      [false, 160, '5', true, 800],
      [false, 160, '5', true, 800],
      [false, 160, '5', true, 800],
    ],
  );
  assert.is(events[8]!.timestamp - base, 12 * 160, 'the second key starts 60 ms after the first ended, at its own frame');
  assert.ok(events[8]!.marker);
  assert.is(decodeTelephoneEvent(events[8]!.payload)!.digit, '#');
  const audio = sent.filter((packet) => packet.payloadType === 8);
  assert.equal(audio.map((packet) => (packet.timestamp - base) / 160), [0, 9, 10, 11, 20, 21, 22, 23], 'audio frames keep their place on the clock');
  for (let index = 1; index < sent.length; index++) assert.is(sent[index]!.sequence, (sent[index - 1]!.sequence + 1) & 0xffff, 'one sequence for audio and events');
});

test('RtpSender: on hold (not sending) the prompt still runs out; a codec change mid-prompt is transcoded', () => {
  const { sender, sent, events } = recordingSender();
  sender.setRemote(REMOTE, false);
  sender.play(1, alawmulaw.alaw.encode(tone(320)), 'PCMA');
  sender.tick(0);
  sender.tick(1);
  assert.is(sent.length, 0);
  assert.equal(events.map((event) => event.kind), ['started', 'ended']);
  const pcm = tone(320);
  sender.setRemote({ ...REMOTE, codec: 'PCMA' }, true);
  sender.play(2, alawmulaw.alaw.encode(pcm), 'PCMA');
  sender.tick(2);
  sender.setRemote({ ...REMOTE, codec: 'PCMU' }, true);
  sender.tick(3);
  assert.is(sent[1]!.payloadType, 0);
  assert.equal(sent[1]!.payload, alawmulaw.mulaw.encode(alawmulaw.alaw.decode(alawmulaw.alaw.encode(pcm.subarray(160)))));
});

test('received packets cross threads in one buffer: stream, arrival and bytes as they came', () => {
  const packets = [
    { stream: 3, arrival: 1234.5678, packet: Uint8Array.from([1, 2, 3]) },
    { stream: 70_000, arrival: 99_999_999.001, packet: new Uint8Array(172).fill(7) },
  ];
  assert.is(packReceived([]), null);
  assert.equal([...unpackReceived(packReceived(packets)!)], packets);
});

// Two real streams over loopback, through the media thread.
async function pair() {
  const pool = new RtpPortPool(31000, 31999);
  const a = await pool.open('127.0.0.1');
  const b = await pool.open('127.0.0.1');
  const caller = new RtpStream(a.socket, a.port, pool, 60);
  const callee = new RtpStream(b.socket, b.port, pool, 60);
  caller.setRemote({ address: '127.0.0.1', port: b.port, codec: 'PCMA', telephoneEvent: 101, direction: 'sendrecv' });
  callee.setRemote({ address: '127.0.0.1', port: a.port, codec: 'PCMA', telephoneEvent: 101, direction: 'sendrecv' });
  callee.start();
  caller.start();
  return { caller, callee, close: () => (caller.close(), callee.close()) };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const peak = (pcm: Int16Array) => pcm.reduce((max, sample) => Math.max(max, Math.abs(sample)), 0);

test('media thread: a prompt crosses loopback into the far track, placed after the answer; keys both ways', async () => {
  const { caller, callee, close } = await pair();
  try {
    assert.ok(mediaThread.threadId !== null && mediaThread.threadId !== 0, 'the sockets live on a worker thread');
    let ticks = 0;
    callee.onTick = () => ticks++;
    const played = await caller.play(tone(4000)); // 0.5 s
    assert.is(played.interrupted, false);
    assert.ok(played.endMs > played.startMs && played.startMs >= 0);
    await wait(100);
    const heard = callee.track.read(0, callee.track.length);
    const loud = heard.findIndex((sample) => Math.abs(sample) > 4000);
    assert.ok(loud >= 0, 'the far end heard the prompt');
    assert.ok(ticks > 0, 'the far stream is told of every tick');
    const heardUntil = callee.heardUntil();
    assert.ok(heardUntil > 0.5 && heardUntil <= callee.now(), `audio handed over up to ${heardUntil} s, never ahead of now`);
    const digits: string[] = [];
    callee.onDigit = (digit, atSeconds) => digits.push(`${digit}@${atSeconds > 0 ? '+' : '-'}`);
    caller.sendDigits('7');
    for (let tries = 0; tries < 50 && digits.length === 0; tries++) await wait(20);
    assert.equal(digits, ['7@+']);
    assert.ok(caller.sendTimes.length > 25, 'send times come back from the media thread');
  } finally {
    close();
  }
});

test('media thread: packets keep leaving while the main thread is blocked', async () => {
  const { caller, close } = await pair();
  try {
    await wait(100);
    const from = monotonicMs();
    while (monotonicMs() - from < 300) {
      // The event loop stands still, as it would under a burst of work on the main thread.
    }
    const to = monotonicMs();
    await wait(100);
    const during = caller.sendTimes.filter((time) => time > from && time < to).length;
    // On the main thread's clock this was 0 (the clock's timer could not fire); the media thread sends ~15.
    assert.ok(during >= 1, `packets sent while blocked: ${during}`);
  } finally {
    close();
  }
});

test('media thread: stopPlayback resolves at once and the far end hears silence from the next frames (barge-in)', async () => {
  const { caller, callee, close } = await pair();
  try {
    const playing = caller.play(tone(8000 * 5));
    await wait(200);
    caller.stopPlayback();
    const result = await Promise.race([playing, wait(0).then(() => null)]);
    assert.ok(result && result.interrupted, 'resolved by stopPlayback itself');
    await wait(300);
    const heard = callee.track.read(0, callee.track.length);
    assert.ok(peak(heard) > 4000, 'the prompt was heard before the stop');
    assert.ok(peak(heard.subarray(heard.length - 800)) < 100, 'silence after it');
  } finally {
    close();
  }
});

/** Per 20 ms frame of the track: whether it is loud (the tone), from the first loud frame to the last. */
function loudFrames(pcm: Int16Array): boolean[] {
  const frames: boolean[] = [];
  for (let at = 0; at + 160 <= pcm.length; at += 160) frames.push(peak(pcm.subarray(at, at + 160)) > 4000);
  const first = frames.indexOf(true);
  return first < 0 ? [] : frames.slice(first, frames.lastIndexOf(true) + 1);
}

test('media thread: a warm transfer bridge relays each leg to the other on the thread, through a blocked main thread; a prompt wins; closing unbridges', async () => {
  // The customer's phone talks to our customer leg, the agent's phone to our agent leg; our legs are bridged.
  const customer = await pair();
  const agent = await pair();
  const [customerPhone, customerLeg, agentPhone, agentLeg] = [customer.caller, customer.callee, agent.caller, agent.callee];
  try {
    agentLeg.relayFrom(customerLeg);
    customerLeg.relayFrom(agentLeg);
    await wait(100);
    const speaking = customerPhone.play(tone(8000)); // 1 s
    await wait(200);
    const from = monotonicMs();
    while (monotonicMs() - from < 400) {
      // The main thread stands still mid-sentence: the relay must not wait for it.
    }
    await speaking;
    await wait(200);
    const agentHeard = loudFrames(agentPhone.track.read(0, agentPhone.track.length));
    assert.ok(agentHeard.length >= 45 && agentHeard.length <= 55, `the agent heard the customer's 1 s: ${agentHeard.length} frames`);
    assert.ok(agentHeard.every(Boolean), `no gap while the main thread was blocked: ${agentHeard.filter((loud) => !loud).length} quiet frames`);

    const agentTalks = agentPhone.play(tone(8000 * 2));
    await wait(300);
    assert.ok(peak(customerPhone.track.read(customerPhone.track.length - 800, customerPhone.track.length)) > 4000, 'the customer hears the agent');
    // A prompt on the customer's leg goes before the relay (quieter, so it can be told apart).
    const beforePrompt = customerPhone.track.length;
    await customerLeg.play(tone(1600, 2000)); // 10 frames
    await wait(300);
    const sincePrompt = customerPhone.track.read(beforePrompt, customerPhone.track.length);
    let promptFrames = 0;
    for (let at = 0; at + 160 <= sincePrompt.length; at += 160) {
      const framePeak = peak(sincePrompt.subarray(at, at + 160));
      if (framePeak > 1000 && framePeak < 3000) promptFrames++;
    }
    assert.ok(promptFrames >= 8, `the prompt, not the agent, while it played: ${promptFrames} frames`);
    assert.ok(peak(customerPhone.track.read(customerPhone.track.length - 800, customerPhone.track.length)) > 4000, 'the relay resumes after the prompt');
    agentLeg.close(); // the agent's leg hangs up: the customer's leg falls back to silence
    await wait(300);
    assert.ok(peak(customerPhone.track.read(customerPhone.track.length - 800, customerPhone.track.length)) < 100, 'unbridged: silence');
    await agentTalks;
  } finally {
    customer.close();
    agent.close();
  }
});

test('media thread: if it stops, the prompt playing ends as interrupted, later prompts at once, and a new thread serves new calls', async () => {
  const thread = new MediaThread();
  const pool = new RtpPortPool(32000, 32999, thread);
  const opened = await pool.open('127.0.0.1');
  const stream = new RtpStream(opened.socket, opened.port, pool, 60);
  stream.setRemote({ address: '127.0.0.1', port: 9, codec: 'PCMA', telephoneEvent: null, direction: 'sendrecv' });
  stream.start();
  const playing = stream.play(tone(8000 * 10));
  const firstThread = thread.threadId;
  await thread.stop();
  assert.is((await playing).interrupted, true);
  assert.is((await stream.play(tone(800))).interrupted, true);
  stream.close();
  const again = await pool.open('127.0.0.1');
  assert.ok(thread.threadId !== null && thread.threadId !== firstThread, 'a new thread');
  new RtpStream(again.socket, again.port, pool, 60).close();
});

test('media thread: runs at the configured scheduling where allowed (real-time needs root), normal otherwise', async () => {
  const thread = new MediaThread();
  thread.configure({ nice: -5, realtimePriority: 7 });
  const stats = await thread.clockStats();
  const root = process.getuid?.() === 0;
  assert.is(stats.realtimePriority, root ? 7 : 0);
  assert.is(stats.nice, root ? -5 : 0);
  const plain = new MediaThread();
  assert.equal((await plain.clockStats()).realtimePriority, 0, 'not asked: not real-time');
});

test.run();

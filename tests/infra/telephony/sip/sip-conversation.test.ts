import { enterNetworkNamespace, type Peer } from '../../../support/network-namespace.ts';
await enterNetworkNamespace(import.meta.url);

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Script } from '../../../../domain/script-types.ts';
import { classifyReply } from '../../../../infra/analysis/customer-reply.ts';
import { PocketSphinxRecognizer } from '../../../../infra/speech/pocketsphinx.ts';
import { synthesize } from '../../../../infra/speech/synthesize.ts';
import { decodeWav, encodeWav } from '../../../../infra/speech/wav.ts';
import type { Telephony } from '../../../../infra/telephony/port.ts';
import { SipTelephony } from '../../../../infra/telephony/sip/sip-telephony.ts';
import { resample } from '../../../../processes/calling/call-recording.ts';
import { ConversationEngine } from '../../../../processes/calling/conversation-engine.ts';
import { offlineConversationSpeech } from '../../../../processes/calling/offline-speech.ts';
import { settingsFor, startBaresipCustomer, startSipp } from './peers.ts';
import { bestCorrelation, decimate, rms } from './audio-checks.ts';
import { writeRtpPcap } from './rtp-pcap.ts';
import { greetingSet } from '../greeting-set.ts';
import { attemptOutcomeOf, callCommandFor } from '../../../../processes/calling/conversation-result.ts';

/**
 * The conversation engine drives a real SIP call: our user agent → baresip (auto-answer, speaks a WAV, records
 * what it hears) inside this suite's network namespace. Prompts synthesised and sent as RTP, the customer's speech
 * found by the utterance detector and recognised by PocketSphinx, DTMF by RFC 4733, the stereo recording checked.
 */
const work = mkdtempSync(join(tmpdir(), 'sip-conversation-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const peers: Peer[] = [];
const carriers: SipTelephony[] = [];
const recognizer = new PocketSphinxRecognizer({ concurrency: 1 });

const script: Script = {
  name: 'Loan renewal',
  single_call_enabled: true,
  steps: [
    {
      id: 'greet',
      say: 'Hello {name}, would you like to renew your loan?',
      listen: {
        timeout_seconds: 6,
        routes: [
          { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'confirm' },
          { intent: 'deny', dtmf: '2', disposition: 'not_interested', next: 'goodbye' },
        ],
        no_input: { retries: 0, disposition: 'callback', next: 'goodbye' },
      },
    },
    { id: 'confirm', say: 'Thank you, an advisor will call you tomorrow.', end: true },
    { id: 'goodbye', say: 'Goodbye.', end: true },
  ],
};

/** The customer's voice (the service's English voice): `leadSeconds` of silence from the answer, then the words, 8 kHz mono. */
async function customerWav(name: string, words: string, leadSeconds: number): Promise<string> {
  const raw = join(work, `${name}-raw.wav`);
  const wav = join(work, `${name}.wav`);
  const speech = await synthesize(words, 'en-IN', { voice: 'agent' });
  writeFileSync(raw, encodeWav({ sampleRate: speech.sampleRate, channels: [speech.pcm] }));
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', wav, 'pad', String(leadSeconds), '2']);
  return wav;
}

async function engineFor(trunk: string, options: { onFirstPlay?: () => void; onPlay?: (index: number) => void; amd?: boolean } = {}) {
  const carrier = new SipTelephony(settingsFor(trunk, { answeringMachineDetection: options.amd ?? false }));
  await carrier.start();
  carriers.push(carrier);
  const onPlay = options.onPlay ?? (options.onFirstPlay ? (index: number) => index === 0 && options.onFirstPlay!() : undefined);
  const telephony: Telephony = onPlay ? observingPlays(carrier, onPlay) : carrier;
  return new ConversationEngine({ telephony, speech: offlineConversationSpeech({ recognizer }), classifyReply });
}

/** The real carrier, telling the test when each prompt starts playing (to press keys during it). */
function observingPlays(carrier: SipTelephony, onPlay: (index: number) => void): Telephony {
  let plays = 0;
  return {
    name: carrier.name,
    needsPromptAudio: carrier.needsPromptAudio,
    timeScale: carrier.timeScale,
    async placeCall(request) {
      const placed = await carrier.placeCall(request);
      if (placed.outcome !== 'answered') return placed;
      const session = placed.session;
      const play = session.play.bind(session);
      session.play = (prompt) => {
        onPlay(plays++);
        return play(prompt);
      };
      return placed;
    },
  };
}

test.after.each(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
  await Promise.all(carriers.splice(0).map((carrier) => carrier.close?.()));
});

test('a spoken yes: personalised prompt heard, answer recognised and routed, stereo recording of both sides', async () => {
  const wav = await customerWav('yes', 'yes I am interested', 7);
  const customer = await startBaresipCustomer('127.0.0.30', '+919800000003', wav);
  peers.push(customer.peer);
  const engine = await engineFor('127.0.0.30');
  const result = await engine.run({ callId: 'cal_sip_yes', phone: '+919800000003', language: 'en-IN', attempt: 1, script, variables: { name: 'Mary' }, recording: true });

  assert.is(result.outcome, 'answered');
  const customerTurn = result.turns.find((turn) => turn.speaker === 'customer');
  assert.ok(customerTurn, JSON.stringify(result.turns));
  assert.is(customerTurn!.intent, 'affirm', `recognised: ${customerTurn!.text}`);
  assert.is(result.disposition, 'interested');
  assert.equal(result.turns.map((turn) => turn.step_id), ['greet', 'greet', 'confirm']);

  // What the customer heard: the prompt with the contact's name in it.
  await customer.peer.stop(); // baresip writes its recording out on exit
  const heard = decodeWav(customer.heardWav());
  const words = await recognizer.recognize(resample({ pcm: heard.channels[0]!, sampleRate: heard.sampleRate }, 16_000), 'en-US');
  assert.match(words.text, /\bmary\b/i, `the customer heard: ${words.text}`);
  assert.match(words.text, /\b(renew|loan|advisor|tomorrow)\b/i, `the customer heard: ${words.text}`);

  // The recording: 16 kHz stereo, agent left, customer right; the right channel is the WAV baresip sent.
  const recording = decodeWav(result.recording!.wav);
  assert.is(recording.channels.length, 2);
  assert.is(recording.sampleRate, 16_000);
  const [left, right] = recording.channels;
  const sent = decodeWav(readFileSync(wav));
  const customerSide = decimate(right!);
  const correlation = bestCorrelation(customerSide, sent.channels[0]!, 7 * 8000, 1.6 * 8000, 0.5 * 8000);
  // Issue 17's figure "end of the customer's English speech to the next prompt" (target p50 ≤ 1 s): end-of-utterance
  // detection, recognition and routing, on this line. Printed, not asserted: it is a latency on a shared machine.
  const confirm = result.turns.find((turn) => turn.step_id === 'confirm')!;
  const speechToPrompt = confirm.start_seconds - customerTurn!.end_seconds;
  console.log(`recognised "${customerTurn!.text}"; customer channel vs the WAV sent: correlation ${correlation.toFixed(3)}; end of speech to the next prompt ${speechToPrompt.toFixed(2)} s`);
  assert.ok(correlation >= 0.95, `customer channel vs the WAV sent: correlation ${correlation.toFixed(3)}`);
  const greet = result.turns[0]!;
  assert.ok(rms(left!, greet.start_seconds, greet.end_seconds) > 500, 'the agent speaks on the left channel during the greeting');
  assert.ok(rms(right!, greet.start_seconds, Math.min(greet.end_seconds, 6.8)) < 50, 'the customer channel is quiet while the customer is');
});

test('a key during the prompt barges in and routes by dtmf; we send keys too (RFC 4733)', async () => {
  const wav = await customerWav('silent', 'hmm', 30); // says nothing within the call
  const customer = await startBaresipCustomer('127.0.0.31', '+919800000004', wav);
  peers.push(customer.peer);
  const engine = await engineFor('127.0.0.31', {
    // Press 2 a second and a half into the first prompt, whenever synthesis lets it start.
    onFirstPlay: () => setTimeout(() => customer.press('2'), 1500),
  });
  // A long greeting, so the key lands inside it.
  const long = structuredClone(script);
  long.steps[0]!.say = 'Hello {name}, this is a call about your loan account with us. We have a renewal offer for you today. Would you like to renew your loan?';
  const result = await engine.run({ callId: 'cal_sip_dtmf', phone: '+919800000004', language: 'en-IN', attempt: 1, script: long, variables: { name: 'Ravi' }, recording: true });
  assert.is(result.disposition, 'not_interested');
  const press = result.turns.find((turn) => turn.speaker === 'customer')!;
  assert.is(press.dtmf, '2');
  const greet = result.turns[0]!;
  assert.ok(greet.end_seconds - greet.start_seconds < 5, `the greeting (about 8 s) was cut short by the key: ${JSON.stringify(greet)}`);
  assert.ok(press.start_seconds <= greet.end_seconds + 0.1, 'the key arrived during the greeting');
});

test('multi-digit entries: 4 then 2 routes 42 without #; 4 then # routes 4 at once', async () => {
  const wav = await customerWav('silent-keys', 'hmm', 30);
  const customer = await startBaresipCustomer('127.0.0.32', '+919800000005', wav);
  peers.push(customer.peer);
  const keys = (sequence: string[]) => sequence.forEach((key, index) => setTimeout(() => customer.press(key), 1200 + index * 400));
  const engine = await engineFor('127.0.0.32', { onPlay: (index) => index === 0 ? keys(['4', '2']) : index === 1 ? keys(['4', '#']) : undefined });
  const entries: Script = {
    name: 'Account check',
    single_call_enabled: true,
    steps: [
      {
        id: 'code',
        say: 'Please key in the last two digits of your loan account number.',
        listen: {
          timeout_seconds: 8,
          routes: [
            { intent: 'affirm', dtmf: '42', next: 'choice' },
            { intent: 'deny', dtmf: '4', disposition: 'not_interested', next: 'bye' },
          ],
          no_input: { retries: 0, disposition: 'callback', next: 'bye' },
        },
      },
      {
        id: 'choice',
        say: 'Thank you. Press four and hash to renew, or four one to talk later.',
        listen: {
          timeout_seconds: 8,
          routes: [
            { intent: 'affirm', dtmf: '4', disposition: 'interested', next: 'bye' },
            { intent: 'callback_later', dtmf: '41', disposition: 'callback', next: 'bye' },
          ],
          no_input: { retries: 0, disposition: 'callback', next: 'bye' },
        },
      },
      { id: 'bye', say: 'Goodbye.', end: true },
    ],
  };
  const result = await engine.run({ callId: 'cal_sip_keys', phone: '+919800000005', language: 'en-IN', attempt: 1, script: entries, variables: {}, recording: false });
  const presses = result.turns.filter((turn) => turn.speaker === 'customer');
  assert.equal(presses.map((turn) => [turn.step_id, turn.dtmf]), [['code', '42'], ['choice', '4']], JSON.stringify(result.turns));
  assert.is(result.disposition, 'interested');
  const [code, choice] = presses;
  assert.ok(code!.end_seconds - code!.start_seconds >= 0.3, `42 spans both keys: ${JSON.stringify(code)}`);
  // "4#" routes when # arrives, not after the 3 s inter-digit pause.
  const bye = result.turns.find((turn) => turn.step_id === 'bye')!;
  assert.ok(bye.start_seconds - choice!.end_seconds < 1.5, `the next prompt followed # at once: ${JSON.stringify([choice, bye])}`);
});

test('early media: the announcement before the answer is in the recording; talk time counts from the answer', async () => {
  const announcement = await synthesize('The number you are calling is busy. Please stay on the line.', 'en-IN', { voice: 'agent' });
  const narrow = resample(announcement, 8000);
  const pcap = join(work, 'announcement.pcap');
  writeRtpPcap(pcap, narrow);
  const peer = await startSipp('early-media', '127.0.0.33', { pcap, ring_ms: '3000', talk_ms: '2500' });
  peers.push(peer);
  const engine = await engineFor('127.0.0.33');
  const short: Script = { name: 'Hello', single_call_enabled: true, steps: [{ id: 'hello', say: 'Hello.', listen: { timeout_seconds: 10, routes: [{ intent: 'affirm', dtmf: '1', next: 'hello' }], no_input: { retries: 0 } }, end: true }] };
  const result = await engine.run({ callId: 'cal_sip_early', phone: '+919800000006', language: 'en-IN', attempt: 1, script: short, variables: {}, recording: true });
  assert.is(result.outcome, 'answered');
  assert.ok(result.ringSeconds >= 2.9 && result.ringSeconds < 4, `rang until the 200: ${result.ringSeconds}`);
  assert.ok(result.talkSeconds >= 2.3 && result.talkSeconds < 3.5, `talk counts from the answer: ${result.talkSeconds}`);
  const recording = decodeWav(result.recording!.wav);
  const [left, right] = recording.channels;
  const seconds = recording.channels[0]!.length / recording.sampleRate;
  assert.ok(seconds >= 5.3 && seconds < 7, `the recording spans early media and the call: ${seconds} s`);
  // The announcement is on the customer channel before the answer, where we were silent.
  assert.ok(rms(right!, 0.3, 2.8) > 300, `announcement before the answer: rms ${rms(right!, 0.3, 2.8).toFixed(0)}`);
  assert.ok(rms(left!, 0.3, 2.8) < 10, 'no agent audio before the answer');
  const hello = result.turns[0]!;
  assert.ok(hello.start_seconds >= 2.9, `the greeting starts after the answer, on the recording's timeline: ${JSON.stringify(hello)}`);
  assert.ok(rms(left!, hello.start_seconds, hello.end_seconds) > 300, 'the greeting is on the left channel where its turn says');
  // Correlate the recorded customer channel with the announcement sent (the pcap starts at the 183).
  const correlation = bestCorrelation(decimate(right!), narrow, 4000, 1.5 * 8000, 0.5 * 8000);
  assert.ok(correlation >= 0.9, `early media matches what the trunk played: ${correlation.toFixed(3)}`);
  assert.is(await peer.exited, 0, peer.output().slice(-800));
});

test('answering-machine detection: a voicemail is hung up on or left a message, a person hears the script', async () => {
  const set = await greetingSet();
  const pcapOf = (name: string) => {
    const greeting = set.find((entry) => entry.name === name)!;
    const path = join(work, `${name.replace(/\W+/g, '-')}.pcap`);
    writeRtpPcap(path, greeting.pcm);
    return path;
  };
  const machine = pcapOf('personal greeting with beep (en)');
  const person = pcapOf('hello (en, Festival)');
  const amdScript: Script = {
    name: 'Collections',
    single_call_enabled: true,
    steps: [
      { id: 'greet', say: 'Hello {name}, your loan payment of five thousand rupees is due.', next: 'bye' },
      { id: 'bye', say: 'Goodbye.', end: true, disposition: 'callback' },
      { id: 'voicemail', say: 'Please call Sahay Finance back.', end: true },
    ],
  };
  const cases = [
    { address: '127.0.0.34', pcap: machine, voicemail: 'hang_up' as const },
    { address: '127.0.0.35', pcap: machine, voicemail: 'leave_message' as const },
    { address: '127.0.0.36', pcap: person, voicemail: 'hang_up' as const },
  ];
  const results = await Promise.all(
    cases.map(async ({ address, pcap, voicemail }, index) => {
      const peer = await startSipp('answer-and-play', address, { pcap });
      peers.push(peer);
      const engine = await engineFor(address, { amd: true });
      const result = await engine.run({ callId: `cal_amd_${index}`, phone: '+919800000007', language: 'en-IN', attempt: 1, script: amdScript, variables: { name: 'Kiran' }, recording: true, voicemail });
      return { result, exit: await peer.exited, output: peer.output() };
    }),
  );
  const [hungUp, messaged, human] = results.map(({ result }) => result);
  results.forEach(({ exit, output }) => assert.is(exit, 0, output.slice(-600)));

  assert.is(hungUp!.answeredBy, 'machine');
  assert.is(hungUp!.disposition, 'not_reachable');
  assert.equal(hungUp!.turns, [], 'nothing was said to the machine');
  assert.ok(hungUp!.talkSeconds <= 4.5, `decided within the budget: ${hungUp!.talkSeconds} s`);
  assert.is(attemptOutcomeOf(hungUp!), 'no_answer', 'retried like no answer');
  const command = callCommandFor(hungUp!, new Date());
  assert.equal(command.type === 'RecordCallResult' && [command.data.disposition, command.data.answered_by], ['not_reachable', 'machine']);

  assert.is(messaged!.answeredBy, 'machine');
  assert.is(messaged!.disposition, 'not_reachable');
  assert.equal(messaged!.turns.map((turn) => [turn.step_id, turn.text]), [['voicemail', 'Please call Sahay Finance back.']]);
  // The greeting ends about 7.6 s after the answer and the beep at 8.5 s: the message starts after both.
  assert.ok(messaged!.turns[0]!.start_seconds >= 8.5, `the message follows the beep: ${JSON.stringify(messaged!.turns[0])}`);

  assert.is(human!.answeredBy, 'human');
  assert.equal(human!.turns.map((turn) => turn.step_id), ['greet', 'bye']);
  assert.is(human!.disposition, 'callback');
  assert.is(attemptOutcomeOf(human!), 'connected');
  console.log(`AMD over SIP: machine hung up at ${hungUp!.talkSeconds.toFixed(2)} s; person's greeting at ${human!.turns[0]!.start_seconds.toFixed(2)} s`);
});

test.run();

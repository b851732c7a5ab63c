import { enterNetworkNamespace, type Peer } from '../../../support/network-namespace.ts';
await enterNetworkNamespace(import.meta.url);

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callDecider, type CallEvent } from '../../../../domain/call.ts';
import { fold } from '../../../../domain/shared/decider.ts';
import type { Script } from '../../../../domain/script-types.ts';
import { classifyReply } from '../../../../infra/analysis/customer-reply.ts';
import { PocketSphinxRecognizer } from '../../../../infra/speech/pocketsphinx.ts';
import { synthesize } from '../../../../infra/speech/synthesize.ts';
import { decodeWav, encodeWav } from '../../../../infra/speech/wav.ts';
import type { Telephony, TransferResult } from '../../../../infra/telephony/port.ts';
import { SipTelephony } from '../../../../infra/telephony/sip/sip-telephony.ts';
import { resample } from '../../../../processes/calling/call-recording.ts';
import { ConversationEngine, type TransferAgent } from '../../../../processes/calling/conversation-engine.ts';
import { callCommandFor } from '../../../../processes/calling/conversation-result.ts';
import { assignEscalation } from '../../../../processes/calling/escalation-assignment.ts';
import { offlineConversationSpeech } from '../../../../processes/calling/offline-speech.ts';
import { whisperText } from '../../../../processes/calling/transfer-prompts.ts';
import { bestCorrelation, decimate, rms } from './audio-checks.ts';
import { settingsFor, startBaresipCustomer, type BaresipCustomer } from './peers.ts';
import { client, createWorkspace, startServer, type TestServer } from '../../../support/server.ts';

/**
 * Warm transfer with real peers in this suite's network namespace: baresip as the customer (presses 0 for a
 * person, then speaks), a second baresip as the human agent (auto-answers, speaks a WAV, records what it hears,
 * hangs up with its menu key), and one that never answers. Checked: the agent heard the whispered summary
 * (PocketSphinx), each side heard the other through our relay and the recording's channels carry both
 * (correlation after alignment), the transfer's facts pass the call decider; no answer gives the fallback and
 * `callback`.
 */
const work = mkdtempSync(join(tmpdir(), 'sip-transfer-'));
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
      say: 'Hello {name}, this is a call about renewing your loan. Would you like to renew it? Press zero to talk to a person.',
      listen: {
        timeout_seconds: 8,
        routes: [
          { intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'bye' },
          { intent: 'request_human', dtmf: '0', escalate: true, next: 'connect' },
        ],
        no_input: { retries: 0, disposition: 'callback', next: 'bye' },
      },
    },
    { id: 'connect', say: 'Please hold, I am connecting you to an agent.', end: true },
    { id: 'bye', say: 'Goodbye.', end: true },
  ],
};

/** The service's English voice saying `words` after `leadSeconds` of silence, 8 kHz mono, with `tailSeconds` after. */
async function voiceWav(name: string, words: string, leadSeconds: number, tailSeconds = 30): Promise<string> {
  const raw = join(work, `${name}-raw.wav`);
  const wav = join(work, `${name}.wav`);
  const speech = await synthesize(words, 'en-IN', { voice: 'agent' });
  writeFileSync(raw, encodeWav({ sampleRate: speech.sampleRate, channels: [speech.pcm] }));
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', wav, 'pad', String(leadSeconds), String(tailSeconds)]);
  return wav;
}

/** The real carrier; the test hears of the first prompt (to press 0 in it) and of the transfer's outcome. */
function observed(carrier: SipTelephony, hooks: { onFirstPlay(): void; onTransfer?(): void; transfers: TransferResult[] }): Telephony {
  return {
    name: carrier.name,
    needsPromptAudio: carrier.needsPromptAudio,
    timeScale: carrier.timeScale,
    async placeCall(request) {
      const placed = await carrier.placeCall(request);
      if (placed.outcome !== 'answered') return placed;
      const session = placed.session;
      const play = session.play.bind(session);
      let plays = 0;
      session.play = (prompt) => {
        if (plays++ === 0) hooks.onFirstPlay();
        return play(prompt);
      };
      const transfer = session.transfer!.bind(session);
      session.transfer = async (transferRequest) => {
        hooks.onTransfer?.();
        const outcome = await transfer(transferRequest);
        hooks.transfers.push(outcome);
        return outcome;
      };
      return placed;
    },
  };
}

async function carrierFor(trunk: string, transferAnswerSeconds = 20): Promise<SipTelephony> {
  const carrier = new SipTelephony(settingsFor(trunk, { transferAnswerSeconds }));
  await carrier.start();
  carriers.push(carrier);
  return carrier;
}

function heard(peer: BaresipCustomer): Int16Array {
  const wav = decodeWav(peer.heardWav());
  assert.is(wav.sampleRate, 8000);
  return wav.channels[0]!;
}

async function words(pcm8k: Int16Array): Promise<string> {
  return (await recognizer.recognize(resample({ pcm: pcm8k, sampleRate: 8000 }, 16_000), 'en-US')).text;
}

function endedWith(events: CallEvent[]): string | undefined {
  for (const event of events) if (event.type === 'CallEnded') return event.data.disposition;
  return undefined;
}

test.after.each(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
  await Promise.all(carriers.splice(0).map((carrier) => carrier.close?.()));
});

test('escalation → agent leg, whispered summary, bridge both ways with the recording going on; the agent hangs up, we hang up the customer', async () => {
  // The customer speaks 40 s after the answer, the agent 22 s after theirs: both after the whisper (about 15 s).
  const customerWords = await voiceWav('customer', 'my loan account number ends with four two seven', 40);
  const agentWords = await voiceWav('agent', 'hello this is priya from the loans team how can I help you today', 22);
  const customer = await startBaresipCustomer('127.0.0.40', '+919800000040', customerWords);
  const agent = await startBaresipCustomer('127.0.0.41', 'priya', agentWords);
  peers.push(customer.peer, agent.peer);
  const transfers: TransferResult[] = [];
  const telephony = observed(await carrierFor('127.0.0.40'), {
    onFirstPlay: () => setTimeout(() => customer.press('0'), 1500),
    // The agent talks, listens to the customer, then hangs up (baresip's menu key) 42 s after being dialled.
    onTransfer: () => setTimeout(() => agent.hangUp(), 42_000),
    transfers,
  });
  const engine = new ConversationEngine({ telephony, speech: offlineConversationSpeech({ recognizer }), classifyReply });
  let asked = 0;
  const transferAgent = async (): Promise<TransferAgent> => {
    asked++;
    return { agentId: 'agt_priya', target: { sipUri: 'sip:priya@127.0.0.41', phone: null } };
  };
  const result = await engine.run({ callId: 'cal_transfer', phone: '+919800000040', language: 'en-IN', attempt: 1, script, variables: { name: 'Mary' }, recording: true, transferAgent });

  assert.is(asked, 1);
  assert.is(result.disposition, 'escalated');
  assert.equal(result.turns.map((turn) => turn.step_id), ['greet', 'greet', 'connect'], JSON.stringify(result.turns));
  const outcome = transfers[0]!;
  assert.is(outcome.kind, 'bridged', JSON.stringify(outcome));
  if (outcome.kind !== 'bridged') return;
  assert.is(outcome.endedBy, 'agent');
  assert.is(result.customerHungUp, false);
  const connect = result.turns[2]!;
  assert.ok(outcome.dialledSeconds >= connect.end_seconds - 0.05, 'the agent is dialled after the closing step');
  assert.ok(outcome.agentAnsweredSeconds - outcome.dialledSeconds < 2, `baresip answers at once: ${JSON.stringify(outcome)}`);
  assert.ok(outcome.bridgedSeconds - outcome.agentAnsweredSeconds > 3, `the whisper plays before the bridge: ${JSON.stringify(outcome)}`);
  console.log(`transfer: dialled ${outcome.dialledSeconds} s, agent answered ${outcome.agentAnsweredSeconds} s, bridged ${outcome.bridgedSeconds} s`);
  assert.ok(outcome.bridgedSeconds < 39 && outcome.bridgedSeconds - outcome.agentAnsweredSeconds < 21, 'bridged before either party speaks (else the test proves nothing)');
  assert.equal(result.transfer, { agentId: 'agt_priya', dialledAtSeconds: outcome.dialledSeconds, agentAnsweredAtSeconds: outcome.agentAnsweredSeconds });
  assert.ok(result.talkSeconds >= outcome.dialledSeconds + 41, `the call lasted until the agent hung up: ${result.talkSeconds}`);

  // The transfer's facts, as the call runner records them, pass the call decider.
  const placedAt = new Date('2026-03-02T04:00:00.000Z');
  const command = assignEscalation(callCommandFor(result, placedAt), null, 'agt_priya');
  assert.is(command.type, 'RecordCallResult');
  const placedEvent: CallEvent = { type: 'CallPlaced', data: { call_id: 'cal_transfer', workspace_id: 'ws_1', campaign_id: null, contact_index: null, attempt: null, contact: { phone: '+919800000040', name: 'Mary' }, language: 'en-IN', script_id: 'scr_1', script_version: 1, variables: {}, recording_enabled: true, started_at: placedAt.toISOString() } };
  const events = callDecider.decide(command, fold(callDecider, [placedEvent]));
  const transferred = events.find((event) => event.type === 'CallTransferred');
  assert.ok(transferred && transferred.type === 'CallTransferred' && transferred.data.agent_id === 'agt_priya' && transferred.data.agent_answered_at !== null, JSON.stringify(events));
  assert.is(endedWith(events), 'escalated');

  await Promise.all([customer.peer.stop(), agent.peer.stop()]); // baresip writes its recordings on exit
  const agentHeard = heard(agent);
  const customerHeard = heard(customer);
  const agentAnswer = outcome.agentAnsweredSeconds;
  const bridgeOnAgent = Math.round((outcome.bridgedSeconds - agentAnswer) * 8000);

  // The agent heard the whispered summary before the bridge, and the customer did not.
  const whisper = await words(agentHeard.subarray(0, bridgeOnAgent));
  console.log(`the agent heard before the bridge: "${whisper}"`);
  // Free recognition of 10 s of synthetic speech over G.711 is rough: count the whisper's own words (4+ letters) it found.
  const said = new Set(whisperText(result.escalation!.summary, 'Mary').toLowerCase().match(/[a-z]{4,}/g));
  const found = new Set(whisper.toLowerCase().match(/[a-z]{4,}/g)?.filter((word) => said.has(word)));
  assert.ok(found.size >= 4, `the agent heard the summary: "${whisper}" (words of it: ${[...found].join(', ')})`);
  assert.ok(found.has('renewing') || found.has('customer') || found.has('human'), `words only the summary carries: ${[...found].join(', ')}`);
  const whisperOnCustomer = rms(resample({ pcm: customerHeard, sampleRate: 8000 }, 16_000), agentAnswer + 0.5, outcome.bridgedSeconds - 0.5);
  assert.ok(whisperOnCustomer < 50, `the customer hears silence while the agent hears the whisper: rms ${whisperOnCustomer.toFixed(0)}`);

  // Each heard the other through our relay: the customer's words in the agent's ear, the agent's in the customer's.
  const customerSent = decodeWav(readFileSync(customerWords)).channels[0]!;
  const agentSent = decodeWav(readFileSync(agentWords)).channels[0]!;
  const customerInAgentEar = bestCorrelation(agentHeard, customerSent, 40 * 8000, 1.6 * 8000, 8000, Math.round(-agentAnswer * 8000));
  const agentInCustomerEar = bestCorrelation(customerHeard, agentSent, 22 * 8000, 1.6 * 8000, 8000, Math.round(agentAnswer * 8000));

  // The recording: customer (right) as before, the agent's voice on the left from the bridge, where it was relayed.
  const recording = decodeWav(result.recording!.wav);
  const [left, right] = recording.channels;
  const customerChannel = bestCorrelation(decimate(right!), customerSent, 40 * 8000, 1.6 * 8000, 0.5 * 8000);
  const agentChannel = bestCorrelation(decimate(left!), agentSent, 22 * 8000, 1.6 * 8000, 0.5 * 8000, Math.round(agentAnswer * 8000));
  console.log(
    `correlation after alignment: customer→agent ear ${customerInAgentEar.toFixed(3)}, agent→customer ear ${agentInCustomerEar.toFixed(3)}, ` +
      `recording customer channel ${customerChannel.toFixed(3)}, agent channel ${agentChannel.toFixed(3)}`,
  );
  assert.ok(customerInAgentEar >= 0.9, `the agent heard the customer: ${customerInAgentEar.toFixed(3)}`);
  assert.ok(agentInCustomerEar >= 0.9, `the customer heard the agent: ${agentInCustomerEar.toFixed(3)}`);
  assert.ok(customerChannel >= 0.95, `customer channel vs the customer's WAV: ${customerChannel.toFixed(3)}`);
  assert.ok(agentChannel >= 0.95, `agent channel vs the agent's WAV: ${agentChannel.toFixed(3)}`);
  // The whisper is not on the recording: the customer never heard it.
  assert.ok(rms(left!, agentAnswer + 0.5, outcome.bridgedSeconds - 0.5) < 10, 'nothing on the agent channel during the whisper');
});

test('the agent does not answer within the limit: the customer hears the fallback, the call ends callback', async () => {
  const silence = await voiceWav('customer-quiet', 'hmm', 40);
  const customer = await startBaresipCustomer('127.0.0.42', '+919800000042', silence);
  const agent = await startBaresipCustomer('127.0.0.43', 'away', silence, { answer: 'never' });
  peers.push(customer.peer, agent.peer);
  const transfers: TransferResult[] = [];
  const telephony = observed(await carrierFor('127.0.0.42', 5), { onFirstPlay: () => setTimeout(() => customer.press('0'), 1500), transfers });
  const engine = new ConversationEngine({ telephony, speech: offlineConversationSpeech({ recognizer }), classifyReply });
  const result = await engine.run({
    callId: 'cal_transfer_missed',
    phone: '+919800000042',
    language: 'en-IN',
    attempt: 1,
    script,
    variables: { name: 'Ravi' },
    recording: true,
    transferAgent: async () => ({ agentId: 'agt_away', target: { sipUri: 'sip:away@127.0.0.43', phone: null } }),
  });
  const outcome = transfers[0]!;
  assert.is(outcome.kind, 'not_answered', JSON.stringify(outcome));
  if (outcome.kind !== 'not_answered') return;
  assert.match(outcome.detail, /did not answer within 5 s/);
  assert.ok(outcome.endedSeconds - outcome.dialledSeconds >= 4.9 && outcome.endedSeconds - outcome.dialledSeconds < 7, JSON.stringify(outcome));
  assert.is(result.disposition, 'callback');
  assert.equal(result.transfer, { agentId: 'agt_away', dialledAtSeconds: outcome.dialledSeconds, agentAnsweredAtSeconds: null });
  const fallback = result.turns.at(-1)!;
  assert.is(fallback.step_id, 'transfer_fallback');
  assert.ok(fallback.start_seconds >= outcome.endedSeconds - 0.05, JSON.stringify(fallback));

  const command = assignEscalation(callCommandFor(result, new Date('2026-03-02T04:00:00.000Z')), null, 'agt_away');
  const placedEvent: CallEvent = { type: 'CallPlaced', data: { call_id: 'cal_transfer_missed', workspace_id: 'ws_1', campaign_id: null, contact_index: null, attempt: null, contact: { phone: '+919800000042', name: 'Ravi' }, language: 'en-IN', script_id: 'scr_1', script_version: 1, variables: {}, recording_enabled: true, started_at: '2026-03-02T04:00:00.000Z' } };
  const events = callDecider.decide(command, fold(callDecider, [placedEvent]));
  assert.equal(events.filter((event) => event.type === 'CallTransferred').map((event) => event.data), [{ agent_id: 'agt_away', transferred_at: command.type === 'RecordCallResult' ? command.data.transfer!.transferred_at : '', agent_answered_at: null }]);
  assert.is(endedWith(events), 'callback');

  await customer.peer.stop();
  const fallbackHeard = await words(heard(customer).subarray(Math.round(fallback.start_seconds * 8000)));
  console.log(`the customer heard after the ring: "${fallbackHeard}"`);
  assert.match(fallbackHeard, /\b(sorry|agent|call|back|soon|free)\b/i, `the customer heard the fallback: "${fallbackHeard}"`);
});

test('the customer hangs up while the agent\'s phone rings: the ringing is cancelled at once, the call ends callback', async () => {
  const silence = await voiceWav('customer-leaves', 'hmm', 40);
  const customer = await startBaresipCustomer('127.0.0.46', '+919800000046', silence);
  const agent = await startBaresipCustomer('127.0.0.47', 'slow', silence, { answer: 'never' });
  peers.push(customer.peer, agent.peer);
  const transfers: TransferResult[] = [];
  const telephony = observed(await carrierFor('127.0.0.46', 30), {
    onFirstPlay: () => setTimeout(() => customer.press('0'), 1500),
    onTransfer: () => setTimeout(() => customer.hangUp(), 2000),
    transfers,
  });
  const engine = new ConversationEngine({ telephony, speech: offlineConversationSpeech({ recognizer }), classifyReply });
  const result = await engine.run({
    callId: 'cal_transfer_left',
    phone: '+919800000046',
    language: 'en-IN',
    attempt: 1,
    script,
    variables: { name: 'Ravi' },
    recording: false,
    transferAgent: async () => ({ agentId: 'agt_slow', target: { sipUri: 'sip:slow@127.0.0.47', phone: null } }),
  });
  const outcome = transfers[0]!;
  assert.is(outcome.kind, 'not_answered', JSON.stringify(outcome));
  if (outcome.kind !== 'not_answered') return;
  assert.match(outcome.detail, /customer hung up while the agent's phone rang/);
  assert.ok(outcome.endedSeconds - outcome.dialledSeconds < 4, `cancelled when the customer left, not at the 30 s limit: ${JSON.stringify(outcome)}`);
  assert.is(outcome.customerHungUp, true);
  assert.is(result.customerHungUp, true);
  assert.is(result.disposition, 'callback');
  assert.is(result.turns.at(-1)!.step_id, 'connect', 'no fallback is said to nobody');
});

test('through the service: a single call escalates, the call runner picks the agent, GET /v1/calls/{id} shows the transfer', async () => {
  const silence = await voiceWav('service-quiet', 'hmm', 60);
  const customer = await startBaresipCustomer('127.0.0.44', '+919800000044', silence);
  const agent = await startBaresipCustomer('127.0.0.45', 'asha', silence);
  peers.push(customer.peer, agent.peer);
  let server: TestServer | null = null;
  try {
    server = await startServer({
      env: {
        TELEPHONY: 'sip',
        SIP_TRUNK: '127.0.0.44:5060',
        SIP_LOCAL_ADDRESS: '127.0.0.1',
        SIP_LOCAL_PORT: '5091',
        SIP_CALLER_ID: '+911140000000',
        RTP_PORT_RANGE: '24600-24800',
        SIP_AMD: 'false',
        SIP_TRANSFER_ANSWER_SECONDS: '10',
      },
    });
    const api = client(server, (await createWorkspace(server, 'SIP transfer')).key);
    const asha = await api.post('/v1/agents', { name: 'Asha', languages: ['en-IN'], sip_uri: 'sip:asha@127.0.0.45' });
    assert.is(asha.status, 201, asha.text);
    const created = await api.post('/v1/scripts', { ...script, single_call_enabled: true });
    assert.is(created.status, 201, created.text);
    const placed = await api.post('/v1/calls', { phone: '+919800000044', name: 'Mary', script_id: created.body.id, language: 'en-IN' });
    assert.is(placed.status, 201, placed.text);
    // 0 for a person during the greeting (or its listening window); the agent hangs up 4 s after answering.
    setTimeout(() => customer.press('0'), 4000);
    for (const started = Date.now(); !/established/i.test(agent.peer.output()) && Date.now() - started < 60_000; ) await new Promise((resolve) => setTimeout(resolve, 200));
    setTimeout(() => agent.hangUp(), 4000);
    let call: any;
    for (const started = Date.now(); Date.now() - started < 90_000; await new Promise((resolve) => setTimeout(resolve, 500))) {
      call = (await api.get(`/v1/calls/${placed.body.id}`)).body;
      if (call.status !== 'in_progress') break;
    }
    assert.is(call.status, 'completed', JSON.stringify(call));
    assert.is(call.disposition, 'escalated');
    assert.is(call.agent_id, asha.body.id);
    assert.is(call.escalation.agent_id, asha.body.id);
    assert.is(call.transfer.agent_id, asha.body.id);
    const times = [call.escalation.escalated_at, call.transfer.transferred_at, call.transfer.agent_answered_at, call.ended_at].map((at: string) => Date.parse(at));
    assert.ok(times.every((at, index) => index === 0 || at >= times[index - 1]!), `escalated ≤ transferred ≤ agent answered ≤ ended: ${JSON.stringify(call)}`);
    assert.ok(times[3]! - times[2]! >= 3500, `the agent stayed on about 4 s: ${JSON.stringify(call.transfer)} ended ${call.ended_at}`);
    // The recording is stored after the call has ended (CallRecordingStored follows CallEnded): under load the
    // first read of the completed call can come before it.
    for (const started = Date.now(); !call.recording_url && Date.now() - started < 30_000; await new Promise((resolve) => setTimeout(resolve, 500))) {
      call = (await api.get(`/v1/calls/${placed.body.id}`)).body;
    }
    assert.ok(call.recording_url, `the call is recorded: ${JSON.stringify(call)}`);
  } finally {
    if (server && process.env.KEEP_LOG) console.log(server.output());
    await server?.stop();
  }
});

test.run();

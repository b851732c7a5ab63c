import { enterNetworkNamespace, type Peer } from '../../../support/network-namespace.ts';
await enterNetworkNamespace(import.meta.url);

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Script } from '../../../../domain/script-types.ts';
import { classifyReply } from '../../../../infra/analysis/customer-reply.ts';
import { PocketSphinxRecognizer } from '../../../../infra/speech/pocketsphinx.ts';
import { synthesize } from '../../../../infra/speech/synthesize.ts';
import { decodeWav, encodeWav } from '../../../../infra/speech/wav.ts';
import { SipTelephony } from '../../../../infra/telephony/sip/sip-telephony.ts';
import { ConversationEngine } from '../../../../processes/calling/conversation-engine.ts';
import { offlineConversationSpeech } from '../../../../processes/calling/offline-speech.ts';
import { settingsFor, startBaresipCustomer, startKamailio } from './peers.ts';

/**
 * A real trunk between us and the customer: kamailio as registrar and authenticating proxy (kamailio/trunk.cfg).
 * Our service registers with digest (SIP_REGISTER), the customer's phone (baresip) registers too, and the call
 * goes us -> kamailio (407, digest retry) -> the phone, with the dialog's BYE routed back through the proxy
 * (Record-Route). The conversation runs end to end over it.
 */
const work = mkdtempSync(join(tmpdir(), 'sip-trunk-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const peers: Peer[] = [];

test.after.each(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
});

const script: Script = {
  name: 'Renewal',
  single_call_enabled: true,
  steps: [
    {
      id: 'greet',
      say: 'Hello {name}, would you like to renew your loan?',
      listen: {
        timeout_seconds: 8,
        routes: [{ intent: 'affirm', dtmf: '1', disposition: 'interested', next: 'bye' }, { intent: 'deny', dtmf: '2', disposition: 'not_interested', next: 'bye' }],
        no_input: { retries: 0, disposition: 'callback', next: 'bye' },
      },
    },
    { id: 'bye', say: 'Thank you. Goodbye.', end: true },
  ],
};

async function until(condition: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

test('registered through kamailio with digest; the call reaches the registered phone through the proxy and completes', async () => {
  const trunk = await startKamailio('127.0.0.40', 's3cret');
  peers.push(trunk);
  const speech = await synthesize('yes I would like that', 'en-IN', { voice: 'customer' });
  const raw = join(work, 'yes-raw.wav');
  const wav = join(work, 'yes.wav');
  writeFileSync(raw, encodeWav({ sampleRate: speech.sampleRate, channels: [speech.pcm] }));
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', wav, 'pad', '6', '3']);
  const phone = await startBaresipCustomer('127.0.0.41', '+919800000010', wav, { registrar: '127.0.0.40' });
  peers.push(phone.peer);
  await until(() => /200 OK/.test(phone.peer.output()), `the phone's registration: ${phone.peer.output().slice(-400)}`);

  // A wrong password: the registration is refused and the service does not start.
  const refused = new SipTelephony(settingsFor('127.0.0.40', { credentials: { username: 'acme', password: 'wrong' }, register: true }));
  const refusal = await refused.start().then(() => null, (error: Error) => error.message);
  assert.match(refusal ?? 'it started', /registration refused: 40[13]/);
  await refused.close();

  const carrier = new SipTelephony(settingsFor('127.0.0.40', { credentials: { username: 'acme', password: 's3cret' }, register: true, callerId: '+911600123456' }));
  await carrier.start(); // registers, answering kamailio's 401 with digest
  try {
    const engine = new ConversationEngine({ telephony: carrier, speech: offlineConversationSpeech({ recognizer: new PocketSphinxRecognizer({ concurrency: 1 }) }), classifyReply });
    const result = await engine.run({ callId: 'cal_trunk', phone: '+919800000010', language: 'en-IN', attempt: 1, script, variables: { name: 'Mary' }, recording: true });
    assert.is(result.outcome, 'answered', JSON.stringify(result.failure));
    const answer = result.turns.find((turn) => turn.speaker === 'customer');
    assert.is(answer?.intent, 'affirm', `recognised through the trunk: ${answer?.text}`);
    assert.is(result.disposition, 'interested');
    assert.equal(result.turns.map((turn) => turn.step_id), ['greet', 'greet', 'bye']);
    const recording = decodeWav(result.recording!.wav);
    assert.is(recording.channels.length, 2);

    // The proxy authenticated and routed the INVITE (with our caller id) to the phone's registered contact.
    const log = trunk.output();
    assert.match(log, /INVITE \+919800000010 from \+911600123456 \(P-Asserted-Identity sip:\+911600123456@127\.0\.0\.1\) to sip:\+919800000010\S*@127\.0\.0\.41:5060/);
    // A number nobody registered: kamailio's 404 is an invalid number, not retried.
    const nobody = await carrier.placeCall({ callId: 'cal_nobody', to: '+919800000099', language: 'en-IN', attempt: 1, wantCustomerAudio: false });
    assert.is(nobody.outcome, 'invalid_number');
  } finally {
    await carrier.close();
  }
});

test.run();

import { enterNetworkNamespace, type Peer } from '../../../support/network-namespace.ts';
await enterNetworkNamespace(import.meta.url);

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SipTelephony } from '../../../../infra/telephony/sip/sip-telephony.ts';
import type { PlaceCallResult } from '../../../../infra/telephony/port.ts';
import { settingsFor, startSipp } from './peers.ts';

/**
 * Signalling against sipp UAS peers (a real SIP stack) on 127.0.0.x inside this suite's network namespace:
 * every final response class, CANCEL on ring timeout, digest challenge, hold re-INVITE, OPTIONS, BYE either way.
 */
const peers: Peer[] = [];
const carriers: SipTelephony[] = [];

async function carrierFor(trunk: string, overrides: Parameters<typeof settingsFor>[1] = {}) {
  const settings = settingsFor(trunk, overrides);
  const carrier = new SipTelephony(settings);
  await carrier.start();
  carriers.push(carrier);
  return { carrier, settings };
}

const call = (carrier: SipTelephony, to = '+919800000001'): Promise<PlaceCallResult> =>
  carrier.placeCall({ callId: 'cal_test', to, language: 'en-IN', attempt: 1, wantCustomerAudio: true });

test.after.each(async () => {
  await Promise.all(peers.splice(0).map((peer) => peer.stop()));
  await Promise.all(carriers.splice(0).map((carrier) => carrier.close()));
});

test('final responses: busy, decline, unavailable, not found, address incomplete, forbidden, unavailable service', async () => {
  const cases: Array<[string, string, string]> = [
    ['486', 'Busy Here', 'busy'],
    ['603', 'Decline', 'busy'],
    ['480', 'Temporarily Unavailable', 'no_answer'],
    ['404', 'Not Found', 'invalid_number'],
    ['604', 'Does Not Exist Anywhere', 'invalid_number'],
    ['403', 'Forbidden', 'carrier_error'],
    ['503', 'Service Unavailable', 'carrier_error'],
  ];
  // One sipp per case, each on its own address, all at once.
  const results = await Promise.all(
    cases.map(async ([status, reason], index) => {
      const address = `127.0.0.${10 + index}`;
      const peer = await startSipp('reject', address, { status, reason });
      peers.push(peer);
      const { carrier } = await carrierFor(address);
      const result = await call(carrier);
      return { result, exit: await peer.exited, output: peer.output() };
    }),
  );
  results.forEach(({ result, exit, output }, index) => {
    const [status, , outcome] = cases[index]!;
    assert.is(result.outcome, outcome, `${status}`);
    assert.ok(result.outcome !== 'answered' && result.detail?.startsWith(status), `detail names ${status}: ${result.outcome !== 'answered' ? result.detail : ''}`);
    assert.is(exit, 0, `sipp saw the expected ACK for ${status}: ${output.slice(-500)}`);
  });
});

test('ring timeout: CANCEL, 487, reported as no answer', async () => {
  const peer = await startSipp('no-answer', '127.0.0.20');
  peers.push(peer);
  const { carrier } = await carrierFor('127.0.0.20', { ringTimeoutSeconds: 1 });
  const result = await call(carrier);
  assert.is(result.outcome, 'no_answer');
  assert.match(result.outcome !== 'answered' ? result.detail ?? '' : '', /CANCEL sent/);
  assert.is(await peer.exited, 0, `sipp received CANCEL and the ACK for 487: ${peer.output().slice(-800)}`);
});

test('digest challenge answered once; hold re-INVITE answered recvonly; OPTIONS answered; our BYE', async () => {
  const peer = await startSipp('auth-hold-options', '127.0.0.21');
  peers.push(peer);
  const { carrier } = await carrierFor('127.0.0.21', { credentials: { username: 'agent', password: 's3cret' } });
  const result = await call(carrier);
  assert.is(result.outcome, 'answered', result.outcome !== 'answered' ? result.detail : '');
  if (result.outcome !== 'answered') return;
  // The trunk holds the call and pings it while we listen; then we hang up.
  const heard = await result.session.listen({ timeoutSeconds: 1.5, language: 'en-IN' });
  assert.is(heard.kind, 'silence');
  await result.session.hangUp();
  assert.is(await peer.exited, 0, `sipp checked the digest, the recvonly answer, OPTIONS 200 and got our BYE: ${peer.output().slice(-800)}`);
});

test('a wrong password: the second challenge is not retried (carrier error)', async () => {
  const peer = await startSipp('auth-hold-options', '127.0.0.22');
  peers.push(peer);
  const { carrier } = await carrierFor('127.0.0.22', { credentials: { username: 'agent', password: 'wrong' } });
  const result = await call(carrier);
  assert.is(result.outcome, 'carrier_error');
  assert.match(result.outcome !== 'answered' ? result.detail ?? '' : '', /^403/);
});

test('the far side hangs up: listen reports the hang-up', async () => {
  const peer = await startSipp('answer-then-bye', '127.0.0.23');
  peers.push(peer);
  const { carrier } = await carrierFor('127.0.0.23');
  const result = await call(carrier);
  assert.is(result.outcome, 'answered');
  if (result.outcome !== 'answered') return;
  const heard = await result.session.listen({ timeoutSeconds: 10, language: 'en-IN' });
  assert.is(heard.kind, 'hangup');
  assert.ok(heard.endSeconds >= 0.9 && heard.endSeconds < 5, `ended at ${heard.endSeconds}`);
  const { endSeconds } = await result.session.hangUp(); // nothing more to send: already gone
  assert.is(endSeconds, heard.endSeconds);
  assert.is(await peer.exited, 0, peer.output().slice(-800));
});

test('caller id: the call\'s own number in From and P-Asserted-Identity; the trunk default without one', async () => {
  const own = await startSipp('caller-id', '127.0.0.24', { number: '+918000123456' });
  const fallback = await startSipp('caller-id', '127.0.0.25', { number: '+911140000000' });
  peers.push(own, fallback);
  const [first, second] = await Promise.all([carrierFor('127.0.0.24'), carrierFor('127.0.0.25')]);
  const [withOwn, withDefault] = await Promise.all([
    first.carrier.placeCall({ callId: 'cal_cid', to: '+919800000001', language: 'en-IN', attempt: 1, wantCustomerAudio: false, callerId: '+918000123456' }),
    call(second.carrier),
  ]);
  assert.is(withOwn.outcome, 'busy');
  assert.is(withDefault.outcome, 'busy');
  assert.is(await own.exited, 0, `sipp found +918000123456 in From and P-Asserted-Identity: ${own.output().slice(-800)}`);
  assert.is(await fallback.exited, 0, `sipp found SIP_CALLER_ID in From and P-Asserted-Identity: ${fallback.output().slice(-800)}`);
});

test('caller id checked by the peer: a different number fails its check', async () => {
  const peer = await startSipp('caller-id', '127.0.0.26', { number: '+918000123456' });
  peers.push(peer);
  const { carrier } = await carrierFor('127.0.0.26');
  await call(carrier);
  assert.is.not(await peer.exited, 0, 'sipp refuses an INVITE whose From is not the expected number');
});

test.run();

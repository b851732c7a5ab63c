import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../../../infra/config.ts';
import { outcomeOfFinalResponse } from '../../../../infra/telephony/sip/final-response.ts';
import { parseHostPort, sipSettingsFrom } from '../../../../infra/telephony/sip/sip-settings.ts';

const sip = { TELEPHONY: 'sip', SIP_TRUNK: 'trunk.example.net', SIP_LOCAL_ADDRESS: '10.1.2.3', SIP_CALLER_ID: '+911140000000' };

test('final responses map to the issue\'s outcomes', () => {
  const table: Array<[number, string]> = [
    [200, 'answered'],
    [486, 'busy'],
    [600, 'busy'],
    [603, 'busy'],
    [480, 'no_answer'],
    [408, 'no_answer'],
    [487, 'no_answer'],
    [404, 'invalid_number'],
    [484, 'invalid_number'],
    [604, 'invalid_number'],
    [403, 'carrier_error'],
    [401, 'carrier_error'],
    [407, 'carrier_error'],
    [500, 'carrier_error'],
    [503, 'carrier_error'],
    [302, 'carrier_error'],
  ];
  for (const [status, outcome] of table) assert.is(outcomeOfFinalResponse(status), outcome, String(status));
});

test('the documented outcome table matches the code', () => {
  const doc = readFileSync(new URL('../../../../docs/telephony.md', import.meta.url), 'utf8');
  for (const row of doc.matchAll(/^\| `(\d{3})`[^|]*\| `(\w+)`/gm)) {
    assert.is(outcomeOfFinalResponse(Number(row[1])), row[2], `docs row ${row[1]}`);
  }
  assert.ok([...doc.matchAll(/^\| `(\d{3})`/gm)].length >= 10, 'the table lists the codes');
});

test('TELEPHONY=sip: defaults and parsing', () => {
  const config = loadConfig(sip);
  const settings = sipSettingsFrom(config);
  assert.equal(settings.trunk, { host: 'trunk.example.net', port: 5060 });
  assert.is(settings.transport, 'udp');
  assert.is(settings.localPort, 5060);
  assert.equal(settings.rtpPorts, { low: 10000, high: 20000 });
  assert.is(settings.ringTimeoutSeconds, 30);
  assert.is(settings.maxCallsPerSecond, 10);
  assert.is(settings.credentials, null);
  assert.is(settings.endOfUtteranceMs, 500);
  assert.is(sipSettingsFrom(loadConfig({ ...sip, SIP_END_OF_UTTERANCE_MS: '800' })).endOfUtteranceMs, 800);
  assert.equal(parseHostPort('[2001:db8::1]:5080'), { host: '2001:db8::1', port: 5080 });
  assert.equal(parseHostPort('192.0.2.1:5070'), { host: '192.0.2.1', port: 5070 });
});

test('TELEPHONY=sip: clear errors at start', () => {
  const refused = (environment: Record<string, string>, pattern: RegExp) => {
    assert.throws(() => loadConfig(environment), pattern, JSON.stringify(environment));
  };
  refused({ TELEPHONY: 'sip' }, /SIP_TRUNK: required when TELEPHONY=sip.*SIP_LOCAL_ADDRESS: required.*SIP_CALLER_ID: required/);
  refused({ ...sip, SIP_TRUNK: 'sip:trunk' }, /SIP_TRUNK: host\[:port\]/);
  refused({ ...sip, SIP_LOCAL_ADDRESS: 'myhost' }, /SIP_LOCAL_ADDRESS: an IP address/);
  refused({ ...sip, SIP_CALLER_ID: '01140000000' }, /SIP_CALLER_ID: an E.164 number/);
  refused({ ...sip, SIP_TRANSPORT: 'tls' }, /SIP_TRANSPORT/);
  refused({ ...sip, SIP_USERNAME: 'agent' }, /SIP_PASSWORD: SIP_USERNAME and SIP_PASSWORD go together/);
  refused({ ...sip, SIP_REGISTER: 'true' }, /SIP_REGISTER: registration needs SIP_USERNAME/);
  refused({ ...sip, RTP_PORT_RANGE: '20000-10000' }, /RTP_PORT_RANGE: LOW-HIGH within/);
  refused({ ...sip, RTP_PORT_RANGE: '10000' }, /RTP_PORT_RANGE: LOW-HIGH, e.g./);
  refused({ ...sip, RING_TIMEOUT_SECONDS: '2' }, /RING_TIMEOUT_SECONDS/);
  refused({ ...sip, SIP_MAX_CPS: '0' }, /SIP_MAX_CPS/);
  refused({ ...sip, SIP_LOCAL_PORT: '70000' }, /SIP_LOCAL_PORT/);
  refused({ ...sip, SIP_END_OF_UTTERANCE_MS: '100' }, /SIP_END_OF_UTTERANCE_MS/);
  // The sandbox needs none of it.
  assert.is(loadConfig({}).TELEPHONY, 'sandbox');
});

test.run();

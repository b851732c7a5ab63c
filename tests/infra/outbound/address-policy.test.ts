import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { embeddedIpv4, isPublicAddress } from '../../../infra/outbound/address-policy.ts';

// The address policy: given an address a name resolved to (or a URL's literal host), is it public?

// 10.1.2.3 (private) and 8.8.8.8 (public) inside each IPv6 form that leads to an IPv4 address.
const forms: Array<{ name: string; private: string; public: string }> = [
  { name: 'NAT64 64:ff9b::/96 (the last 32 bits)', private: '64:ff9b::a01:203', public: '64:ff9b::808:808' },
  { name: 'NAT64, dotted', private: '64:ff9b::10.1.2.3', public: '64:ff9b::8.8.8.8' },
  { name: '6to4 2002::/16 (bits 16-48)', private: '2002:a01:203::1', public: '2002:808:808::1' },
  { name: 'Teredo 2001::/32 (client: the last 32 bits inverted)', private: '2001:0:4136:e378:8000:63bf:f5fe:fdfc', public: '2001:0:4136:e378:8000:63bf:f7f7:f7f7' },
  { name: 'IPv4-mapped ::ffff:0:0/96', private: '::ffff:a01:203', public: '::ffff:808:808' },
  { name: 'IPv4-translated ::ffff:0:0:0/96', private: '::ffff:0:10.1.2.3', public: '::ffff:0:8.8.8.8' },
  { name: 'IPv4-compatible ::/96', private: '::a01:203', public: '::808:808' },
];

for (const form of forms) {
  test(`given ${form.name}: the embedded address is read, a public one passes and a private one is refused`, () => {
    assert.is(embeddedIpv4(form.private), '10.1.2.3');
    assert.is(embeddedIpv4(form.public), '8.8.8.8');
    assert.not.ok(isPublicAddress(form.private), form.private);
    assert.ok(isPublicAddress(form.public), form.public);
  });
}

test('given each embedding form, then loopback, link-local (cloud metadata) and carrier-grade NAT inside it are refused too', () => {
  for (const address of [
    '64:ff9b::7f00:1', // 127.0.0.1
    '64:ff9b::a9fe:a9fe', // 169.254.169.254
    '2002:7f00:1::', // 127.0.0.1
    '2002:a9fe:a9fe::1', // 169.254.169.254
    '2002:c0a8:101::1', // 192.168.1.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // 127.0.0.1
    '2001:0:4136:e378:8000:63bf:5601:5601', // 169.254.169.254
    '2001:0:4136:e378:8000:63bf:9bbf:fffe', // 100.64.0.1
    '[2002:7f00:1::1]', // as written in a URL
  ]) {
    assert.not.ok(isPublicAddress(address), address);
  }
});

test('given ordinary public IPv6 addresses, then nothing is embedded and they pass; the local-use NAT64 prefix stays refused', () => {
  for (const address of ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) {
    assert.is(embeddedIpv4(address), null, address);
    assert.ok(isPublicAddress(address), address);
  }
  assert.not.ok(isPublicAddress('64:ff9b:1::808:808'), '64:ff9b:1::/48 is for local use');
  assert.not.ok(isPublicAddress('2001:db8::1'), 'documentation');
});

test.run();

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPublicAddress } from '../../../infra/outbound/address-policy.ts';
import { LookupGate, type ResolvedAddress } from '../../../infra/outbound/lookup-gate.ts';
import { OutboundTargetRefused, OutboundTimeout, openOutbound, vetTarget, type OutboundPolicy } from '../../../infra/outbound/request.ts';

const strict = { allowPrivateTargets: false, protocols: ['http:', 'https:'] as const };
const permissive = { allowPrivateTargets: true, protocols: ['http:', 'https:'] as const };

test('address policy: private, loopback, link-local, metadata, multicast and mapped forms are not public', () => {
  for (const address of ['127.0.0.1', '127.9.9.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', 'not-an-ip']) {
    assert.not.ok(isPublicAddress(address), address);
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
    assert.ok(isPublicAddress(address), address);
  }
});

async function refusal(url: string, policy: OutboundPolicy = strict): Promise<OutboundTargetRefused> {
  try {
    await vetTarget(url, policy);
  } catch (error) {
    assert.instance(error, OutboundTargetRefused);
    return error as OutboundTargetRefused;
  }
  assert.unreachable(`${url} should be refused`);
  throw new Error('unreachable');
}
const refused = async (url: string, policy: OutboundPolicy = strict) => (await refusal(url, policy)).message;

test('refuses loopback, private, metadata and names resolving to loopback, before any connection', async () => {
  assert.match(await refused('https://127.0.0.1/hook'), /127\.0\.0\.1/);
  await refused('https://10.0.0.7/hook');
  await refused('http://169.254.169.254/latest/meta-data/');
  await refused('https://[::1]:8443/hook');
  await refused('https://[::ffff:127.0.0.1]/hook');
  assert.is(await refused('https://localhost/hook'), 'the host localhost is not an allowed target (private, loopback, link-local and reserved addresses are refused)');
  await refused('ftp://example.com/file');
  await refused('https://user:pass@example.com/');
  await refused('not a url');
  await refused('http://example.com/', { allowPrivateTargets: true, protocols: ['https:'] });
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

test('the refusal of a name never tells the caller the address it resolves to (no DNS oracle); the detail stays off the message', async () => {
  const error = await refusal('https://localhost:8443/hook');
  assert.is(error.message, 'the host localhost is not an allowed target (private, loopback, link-local and reserved addresses are refused)');
  assert.not.match(error.message, /127\.0\.0\.1|::1/);
  assert.not.match(JSON.stringify(error), /127\.0\.0\.1|::1/, 'nothing enumerable carries it into a log line');
  assert.match(String(error.detail), /localhost resolves to (127\.0\.0\.1|::1)/, 'the detail, for a debug log');
  assert.not.match(await refused('https://[64:ff9b::a01:203]/hook'), /10\.1\.2\.3/);
});

test('with private targets allowed, connects to the checked address and follows redirects only when asked', async () => {
  const { server, url } = await listen((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: '/final' }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${request.method} ${request.url}`);
  });
  try {
    const direct = await openOutbound(`${url}/redirect`, { timeoutMs: 2_000, policy: permissive });
    assert.is(direct.status, 302, 'no redirects by default');
    direct.body.resume();
    const followed = await openOutbound(`${url}/redirect`, { timeoutMs: 2_000, policy: permissive, maxRedirects: 3 });
    assert.is(followed.status, 200);
    assert.is(followed.url, `${url}/final`);
    let text = '';
    for await (const chunk of followed.body) text += chunk;
    assert.is(text, 'hello GET /final');
    const localhost = await openOutbound(url.replace('127.0.0.1', 'localhost') + '/x', { timeoutMs: 2_000, policy: permissive });
    assert.is(localhost.status, 200);
    localhost.body.resume();
  } finally {
    server.close();
  }
});

test('a server that does not answer in time fails the request', async () => {
  const { server, url } = await listen((_request, response) => void setTimeout(() => response.end('late'), 1_500));
  try {
    await openOutbound(`${url}/slow`, { timeoutMs: 200, policy: permissive });
    assert.unreachable('should time out');
  } catch (error) {
    assert.match((error as Error).message, /no response within 200 ms/);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

/** A resolver over a fake DNS: `never.*` never answers, `slow.*` answers 127.0.0.1 after 150 ms, the rest from `table`. */
function fakeResolver(table: Record<string, ResolvedAddress[]> = {}) {
  const asked: string[] = [];
  const gate = new LookupGate(
    (host) => {
      asked.push(host);
      if (host.startsWith('never.')) return new Promise<ResolvedAddress[]>(() => undefined);
      if (host.startsWith('slow.')) return new Promise((resolve) => setTimeout(() => resolve([{ address: '127.0.0.1', family: 4 }]), 150));
      const found = table[host];
      return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    },
    { total: 2, perLane: 1 },
  );
  return { gate, asked };
}

test('every address a name resolves to is checked, and the connection is pinned to the checked one (with an injected resolver)', async () => {
  const { gate } = fakeResolver({
    'mixed.test': [{ address: '8.8.8.8', family: 4 }, { address: '10.0.0.1', family: 4 }],
    'public.test': [{ address: '2001:4860:4860::8888', family: 6 }, { address: '8.8.4.4', family: 4 }],
    'nat64.test': [{ address: '64:ff9b::a9fe:a9fe', family: 6 }],
  });
  const mixed = await vetTarget('https://mixed.test/hook', strict, { resolver: gate }).catch((error: Error) => error);
  assert.instance(mixed, OutboundTargetRefused, 'one private address among public ones is enough to refuse');
  assert.is((mixed as Error).message, 'the host mixed.test is not an allowed target (private, loopback, link-local and reserved addresses are refused)');
  await vetTarget('https://nat64.test/hook', strict, { resolver: gate }).then(() => assert.unreachable(), (error) => assert.instance(error, OutboundTargetRefused));
  assert.equal(await vetTarget('https://public.test/hook', strict, { resolver: gate }), { url: new URL('https://public.test/hook'), address: '2001:4860:4860::8888', family: 6 });
  const unknown = await vetTarget('https://unknown.test/', strict, { resolver: gate }).catch((error: OutboundTargetRefused) => error);
  assert.instance(unknown, OutboundTargetRefused);
  assert.ok((unknown as OutboundTargetRefused).unresolvable);
});

test('a DNS lookup that never answers fails the request at its deadline with a clear error; a second target still resolves meanwhile', async () => {
  const { server, url } = await listen((_request, response) => response.writeHead(200).end('ok'));
  const { gate, asked } = fakeResolver({ 'receiver.test': [{ address: '127.0.0.1', family: 4 }] });
  try {
    const started = Date.now();
    const hung = openOutbound('http://never.example.test/hook', { timeoutMs: 300, policy: permissive, resolver: gate }).catch((error: Error) => error);
    const port = new URL(url).port;
    const second = await openOutbound(`http://receiver.test:${port}/hook`, { timeoutMs: 2_000, policy: permissive, resolver: gate });
    assert.is(second.status, 200, 'the second target resolved and was reached');
    second.body.resume();
    assert.ok(Date.now() - started < 250, 'without waiting for the hung lookup');
    const error = await hung;
    const took = Date.now() - started;
    assert.instance(error, OutboundTimeout);
    assert.is((error as Error).message, 'no response within 300 ms (the DNS lookup of never.example.test did not finish)');
    assert.ok(took >= 290 && took < 1_000, `failed at its deadline (${took} ms)`);
    assert.is(gate.lookupsUnderWay, 1, 'the hung lookup still holds one slot, not more');
    assert.equal(asked, ['never.example.test', 'receiver.test']);
  } finally {
    server.close();
  }
});

test('the deadline covers the lookup and the response together', async () => {
  const { server, url } = await listen((_request, response) => void setTimeout(() => response.writeHead(200).end('late'), 150));
  const { gate } = fakeResolver();
  try {
    const port = new URL(url).port;
    const started = Date.now();
    const error = await openOutbound(`http://slow.test:${port}/`, { timeoutMs: 250, policy: permissive, resolver: gate }).catch((error: Error) => error);
    assert.instance(error, OutboundTimeout, 'a 150 ms lookup plus a 150 ms answer do not fit in 250 ms');
    assert.is((error as Error).message, 'no response within 250 ms');
    assert.ok(Date.now() - started < 400, String(Date.now() - started));
    const fits = await openOutbound(`http://slow.test:${port}/`, { timeoutMs: 1_000, policy: permissive, resolver: gate });
    assert.is(fits.status, 200);
    fits.body.resume();
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('a request aborted by its caller while the lookup waits ends at once, without a timeout', async () => {
  const { gate } = fakeResolver();
  const controller = new AbortController();
  const pending = openOutbound('http://never.abort.test/', { timeoutMs: 5_000, policy: permissive, resolver: gate, signal: controller.signal }).catch((error: Error) => error);
  setTimeout(() => controller.abort(), 50);
  const error = await pending;
  assert.not.instance(error, OutboundTimeout);
  assert.is((error as Error).name, 'AbortError');
});

test.run();

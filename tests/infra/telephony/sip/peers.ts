import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPeer, type Peer } from '../../../support/network-namespace.ts';
import type { SipSettings } from '../../../../infra/telephony/sip/sip-settings.ts';

/** Peers for the SIP suites, inside the suite's network namespace (tests/support/network-namespace.ts). */
export const scenario = (name: string) => fileURLToPath(new URL(`./scenarios/${name}.xml`, import.meta.url));

const scenarioCopies = mkdtempSync(join(tmpdir(), 'sipp-scenarios-'));
process.on('exit', () => rmSync(scenarioCopies, { recursive: true, force: true }));

/**
 * A sipp UAS on `address`:5060 playing one scenario for one call. `fill` replaces `{{name}}` in the scenario
 * (sipp checks status codes when it loads a scenario, so they cannot be sipp variables).
 */
export async function startSipp(name: string, address: string, fill: Record<string, string> = {}, extra: string[] = []): Promise<Peer> {
  let file = scenario(name);
  if (Object.keys(fill).length > 0) {
    const text = readFileSync(file, 'utf8').replace(/\{\{(\w+)\}\}/g, (_all, key: string) => fill[key] ?? '');
    file = join(scenarioCopies, `${name}-${address}.xml`);
    writeFileSync(file, text);
  }
  const args = ['-sf', file, '-i', address, '-p', '5060', '-mi', address, '-m', '1', '-nostdin', '-timeout', '40s', '-timeout_error'];
  const peer = startPeer('sipp', [...args, ...extra]);
  await waitForUdpPort(address, 5060, peer);
  return peer;
}

/** Waits until something listens on the UDP port (binding it fails), so the first INVITE is not lost. */
export async function waitForUdpPort(address: string, port: number, peer: Peer, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (peer.process.exitCode !== null) throw new Error(`peer exited early: ${peer.output()}`);
    const taken = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(true));
      socket.bind(port, address, () => socket.close(() => resolve(false)));
    });
    if (taken) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${address}:${port}: ${peer.output()}`);
}

let nextLocalPort = 5070;
let nextRtpBase = 20000;

/** Our side: 127.0.0.1, a SIP port of its own per carrier instance, the trunk at `trunk`:5060. */
export function settingsFor(trunk: string, overrides: Partial<SipSettings> = {}): SipSettings {
  const localPort = nextLocalPort++;
  const low = nextRtpBase;
  nextRtpBase += 200;
  return {
    trunk: { host: trunk, port: 5060 },
    transport: 'udp',
    credentials: null,
    register: false,
    callerId: '+911140000000',
    localAddress: '127.0.0.1',
    localPort,
    rtpPorts: { low, high: low + 198 },
    ringTimeoutSeconds: 10,
    maxCallsPerSecond: 50,
    ...overrides,
  };
}

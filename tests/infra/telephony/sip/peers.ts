import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * kamailio as the trunk (kamailio/trunk.cfg): registrar and digest-authenticating proxy on `address`:5060, in the
 * foreground (-DD) with its log on stderr.
 */
export async function startKamailio(address: string, password: string, routes: { people?: string; machines?: string } = {}): Promise<Peer> {
  const directory = mkdtempSync(join(tmpdir(), 'kamailio-'));
  process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  const config = join(directory, 'kamailio.cfg');
  const template = readFileSync(fileURLToPath(new URL('./kamailio/trunk.cfg', import.meta.url)), 'utf8');
  const filled = template
    .replaceAll('{{address}}', address)
    .replaceAll('{{password}}', password)
    .replaceAll('{{people}}', routes.people ?? '127.0.0.254')
    .replaceAll('{{machines}}', routes.machines ?? '127.0.0.254');
  writeFileSync(config, filled);
  const peer = startPeer('kamailio', ['-f', config, '-DD', '-E', '-m', '64', '-M', '8', '-w', directory, '-Y', directory, '-P', join(directory, 'kamailio.pid')]);
  await waitForUdpPort(address, 5060, peer);
  return peer;
}

/**
 * Waits until something listens on the UDP port, so the first INVITE is not lost. It reads the namespace's socket
 * table rather than probing with a bind of its own: a probe that binds the port while the peer is still starting
 * takes the port from the peer, which then exits ("peer exited early", seen under CI load).
 */
export async function waitForUdpPort(address: string, port: number, peer: Peer, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const wanted = udpTableAddress(address, port);
  while (Date.now() < deadline) {
    if (peer.process.exitCode !== null) throw new Error(`peer exited early: ${peer.output()}`);
    if (boundUdpAddresses().has(wanted)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${address}:${port}: ${peer.output()}`);
}

/** `127.0.0.10`, 5060 as /proc/net/udp writes it: the address's bytes in host (little-endian) order, then the port. */
function udpTableAddress(address: string, port: number): string {
  const hex = address
    .split('.')
    .reverse()
    .map((byte) => Number(byte).toString(16).padStart(2, '0'))
    .join('');
  return `${hex}:${port.toString(16).padStart(4, '0')}`.toUpperCase();
}

function boundUdpAddresses(): Set<string> {
  const lines = readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1);
  return new Set(lines.map((line) => line.trim().split(/\s+/)[1]).filter((local): local is string => Boolean(local)));
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
    // Off unless a test is about it: detection listens up to 4 s before the first prompt.
    answeringMachineDetection: false,
    transferAnswerSeconds: 20,
    ...overrides,
  };
}

export interface BaresipCustomer {
  peer: Peer;
  directory: string;
  /** What the customer heard (baresip's sndfile dump of the decoded stream), once the call ended. */
  heardWav(): Buffer;
  /** Presses a key (baresip's stdio keys send RFC 4733 events during a call). */
  press(digit: string): void;
  /** Hangs up the current call (baresip's menu key `b`). */
  hangUp(): void;
}

/**
 * baresip as the customer (or as the human agent of a warm transfer): listens on `address`:5060 for calls to
 * `number`, answers at once, speaks `wav` (8 kHz mono) from the answer on, and records what it hears (sndfile).
 * `answer: 'never'`: it rings and never answers (an agent away from the desk).
 */
export async function startBaresipCustomer(address: string, number: string, wav: string, options: { registrar?: string; answer?: 'auto' | 'never' } = {}): Promise<BaresipCustomer> {
  const directory = mkdtempSync(join(tmpdir(), 'baresip-'));
  process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  writeFileSync(
    join(directory, 'config'),
    [
      'poll_method epoll',
      `sip_listen ${address}:5060`,
      `audio_player aufile,${join(directory, 'unused.wav')}`,
      `audio_source aufile,${wav}`,
      'audio_srate 8000',
      'audio_channels 1',
      'rtp_ports 30000-30998',
      'module_path /usr/lib/baresip/modules',
      'module g711.so',
      'module aufile.so',
      'module sndfile.so',
      'module stdio.so',
      'module_app account.so',
      'module_app menu.so',
      `snd_path ${directory}`,
      '',
    ].join('\n'),
  );
  // With a registrar the phone registers there (its AOR in the registrar's domain) and is reached through it.
  const answermode = options.answer === 'never' ? 'manual' : 'auto';
  const account = options.registrar ? `<sip:${number}@${options.registrar}>;regint=60;answermode=${answermode}` : `<sip:${number}@${address}>;regint=0;answermode=${answermode}`;
  writeFileSync(join(directory, 'accounts'), `${account}\n`);
  // -n: baresip finds no address on a namespace's bare loopback unless told which to use.
  const peer = startPeer('baresip', ['-n', address, '-f', directory]);
  await waitForUdpPort(address, 5060, peer);
  return {
    peer,
    directory,
    heardWav() {
      const dump = readdirSync(directory).find((name) => name.endsWith('-dec.wav'));
      if (!dump) throw new Error(`baresip recorded nothing: ${peer.output().slice(-1000)}`);
      return readFileSync(join(directory, dump));
    },
    press(digit) {
      peer.process.stdin!.write(digit);
    },
    hangUp() {
      peer.process.stdin!.write('b');
    },
  };
}

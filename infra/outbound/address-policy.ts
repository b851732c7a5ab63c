import { BlockList, isIP } from 'node:net';

/**
 * Which addresses outbound requests (webhooks, audio URLs) may reach. By default only public unicast addresses:
 * loopback, private, carrier-grade NAT, link-local (which holds cloud metadata at 169.254.169.254), multicast,
 * reserved and documentation ranges are refused, in IPv4 and IPv6, including IPv4 written inside IPv6 and the IPv4
 * address a NAT64, 6to4 or Teredo address leads to (`embeddedIpv4`).
 */
const forbidden = new BlockList();
const IPV4_RANGES: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const IPV6_RANGES: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
];
for (const [network, prefix] of IPV4_RANGES) forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6_RANGES) forbidden.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part, `::ffff:1.2.3.4`, included). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, tail] = text.split('::') as [string, string | undefined];
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
const zero = (groups: number[], from: number, to: number) => groups.slice(from, to).every((group) => group === 0);

/**
 * The IPv4 address an IPv6 address carries, if any: an IPv4-mapped (`::ffff:0:0/96`), -compatible (`::/96`) or
 * -translated (`::ffff:0:0:0/96`) address, NAT64 (`64:ff9b::/96`, the last 32 bits), 6to4 (`2002::/16`, bits 16-48)
 * or Teredo (`2001::/32`, the client's address: the last 32 bits inverted). Packets to these reach that IPv4
 * address (through the host's own stack, a NAT64 gateway or a relay), so it must be public too.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (zero(groups, 0, 5) && (groups[5] === 0 || groups[5] === 0xffff)) return ipv4Of(groups[6]!, groups[7]!);
  if (zero(groups, 0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(groups, 2, 6)) return ipv4Of(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  if (groups[0] === 0x2001 && groups[1] === 0) return ipv4Of(groups[6]! ^ 0xffff, groups[7]! ^ 0xffff);
  return null;
}

export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const family = isIP(bare);
  if (family === 4) return !forbidden.check(bare, 'ipv4');
  if (family === 6) {
    const ipv4 = embeddedIpv4(bare);
    if (ipv4 !== null && forbidden.check(ipv4, 'ipv4')) return false;
    return !forbidden.check(bare, 'ipv6');
  }
  return false;
}

import { BlockList, isIP } from 'node:net';

// Special-purpose ranges (IANA registries): loopback, private, link-local (cloud metadata at 169.254.169.254),
// shared CGNAT, documentation, benchmarking, multicast and reserved. A proof lookup never connects to any of them.
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
// IPv4-mapped addresses (::ffff:0:0/96) are checked as the IPv4 address they carry (below): a BlockList rule for the
// mapped range would also catch every plain IPv4 address.
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d) stands for, else null. */
function mappedIpv4(address: string): string | null {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1] : null;
}

/** True when an address is on the public internet: not loopback, private, link-local, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0];
  const family = isIP(bare);
  if (family === 0) return false;
  const mapped = family === 6 ? mappedIpv4(bare) : null;
  if (mapped) return isPublicAddress(mapped);
  return !NON_PUBLIC.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

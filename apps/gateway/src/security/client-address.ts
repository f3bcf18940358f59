import { isIPv4, isIPv6 } from 'node:net';

/** Expands an IPv6 address to its eight groups (no zone), or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split('%')[0];
  if (!isIPv6(plain)) return null;
  let text = plain;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two groups.
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const parts = tail === null ? left : [...left, ...Array(missing).fill('0'), ...right];
  return parts.map((p) => parseInt(p, 16));
}

/**
 * The key a client address is counted under: an IPv4 address as it is (also when written IPv4-mapped, ::ffff:a.b.c.d),
 * an IPv6 address by its /64 prefix, since one subscriber usually holds a whole /64 and could rotate through it.
 */
export function clientAddressKey(address: string | undefined): string | null {
  if (!address) return null;
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { parseIp } from '../../../shared/ip';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

/**
 * The IPv4 addresses an IPv6 address carries, or null when it carries none. A packet to
 * such an address is delivered (by the kernel, a NAT64 gateway, a 6to4 or Teredo relay)
 * to the IPv4 inside, so that is the address to judge.
 */
export function embeddedIPv4(a: IPv6): IPv4[] | null {
  const p = a.parts;
  switch (a.range()) {
    // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145).
    case 'ipv4Mapped':
    case 'rfc6145':
    // 64:ff9b::/96, the well-known NAT64 prefix: the IPv4 is the last 32 bits. (The
    // local-use 64:ff9b:1::/48 is refused before this: see isPublicAddress.)
    case 'rfc6052':
      return [v4(p[6], p[7])];
    // 2002:AABB:CCDD::/48: the 6to4 relay's IPv4 follows the prefix.
    case '6to4':
      return [v4(p[1], p[2])];
    // 2001:0:server(32):flags:port:client(32, inverted): both ends are IPv4 hosts.
    case 'teredo':
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks); :: and ::1
      // land here too and are judged as 0.0.0.0 and 0.0.0.1 (unspecified), refused.
      return p.slice(0, 6).every((x) => x === 0) ? [v4(p[6], p[7])] : null;
  }
}

/**
 * The local-use NAT64 prefix (RFC 8215) may carry its IPv4 in any RFC 6052 layout (/48 to
 * /96), so the IPv4 inside cannot be read for sure; it is a site's own translator, never a
 * public destination, and is refused whole.
 */
const LOCAL_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

/** Global unicast IPv6 is 2000::/3; ipaddr.js calls everything outside its special ranges "unicast". */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function globalUnicast(a: IPv4 | IPv6): boolean {
  if (a.kind() === 'ipv4') return a.range() === 'unicast';
  return a.range() === 'unicast' && (a as IPv6).match(GLOBAL_UNICAST_V6);
}

/**
 * The normalized text of every address this machine's interfaces have, all of them, read
 * now (they change). Null when they cannot be listed (a sandbox without netlink, see
 * nodes/local-host.ts): then no address can be shown not to be ours, and every one is refused.
 */
export function hostAddresses(): Set<string> | null {
  let lists: (os.NetworkInterfaceInfo[] | undefined)[];
  try {
    lists = Object.values(os.networkInterfaces());
  } catch {
    return null;
  }
  const own = new Set<string>();
  for (const i of lists.flat()) {
    const a = i && parseIp(i.address.split('%')[0]);
    if (a) own.add(a.toNormalizedString());
  }
  return own;
}

/**
 * Whether a customer's webhook may connect to `ip`: a global unicast address (ipaddr.js
 * classifies it), judged by the IPv4 inside when it embeds one, and none of this machine's
 * own addresses (a public address on one of our interfaces reaches our own services).
 * Anything unparsable is refused, and everything when our own addresses are unknown.
 */
export function isPublicAddress(ip: string, own: Set<string> | null = hostAddresses()): boolean {
  // A zone id (%eth0), as resolvers and sockets give it, is dropped.
  const a = parseIp(ip.split('%')[0]);
  if (!a || !own) return false;
  if (a.kind() === 'ipv6' && (a as IPv6).match(LOCAL_NAT64)) return false;
  const inner = a.kind() === 'ipv6' ? embeddedIPv4(a as IPv6) : null;
  const judged = inner ?? [a];
  return judged.every(globalUnicast) && ![a, ...judged].some((x) => own.has(x.toNormalizedString()));
}

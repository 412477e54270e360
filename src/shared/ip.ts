import ipaddr from 'ipaddr.js';

/**
 * The one IP address parser, on ipaddr.js (no Node module, so the client shares it): the
 * strict forms a socket or a person writes, an IPv4 client seen through a dual-stack
 * socket as its IPv4 address, and the IPv6 networks (/48, /64) one client is handed.
 */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Four decimal parts only: "127.1", "0x7f.0.0.1" and "01.2.3.4" are refused, not guessed at. */
export function isIPv4(s: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(s);
}

/** Full, compressed (::) and IPv4-tailed (::ffff:1.2.3.4) forms; no zone ids (%eth0). */
export function isIPv6(s: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || !ipaddr.IPv6.isValid(s)) return false;
  // ipaddr.js reads a tail like "01.2.3.4" too; the tail follows the IPv4 rule above.
  const tail = s.slice(s.lastIndexOf(':') + 1);
  return !tail.includes('.') || isIPv4(tail);
}

const ZONED = /^([^%]*)(?:%[0-9a-zA-Z.:-]+)?$/;

/** 4 or 6 for an address (IPv6 with or without a zone id, %eth0), 0 for anything else: as Node's `net.isIP`. */
export function ipVersion(s: string): 0 | 4 | 6 {
  if (isIPv4(s)) return 4;
  const bare = ZONED.exec(s)?.[1];
  return bare !== undefined && isIPv6(bare) ? 6 : 0;
}

/** An address as resolvers and sockets give it (a zone id is dropped), or null if it is none. */
export function parseIp(s: string): IpAddress | null {
  return ipVersion(s) === 0 ? null : ipaddr.parse(s.split('%')[0]);
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:10.0.0.1) stands for, else the address. */
export function unmapped(a: IpAddress): IpAddress {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

/** An IPv6 address's network of `bits` (a multiple of 16), written out: "2001:db8:1::/48". */
export function ipv6Network(a: ipaddr.IPv6, bits: 48 | 64): string {
  return `${a.parts
    .slice(0, bits / 16)
    .map((g) => g.toString(16))
    .join(':')}::/${bits}`;
}

/**
 * Whether `a` is inside `range`/`prefix`, across the two families as Node's BlockList
 * decides: an IPv4 address in an IPv6 range as its mapped form, an IPv4-mapped address
 * in an IPv4 range as its IPv4 address.
 */
export function inSubnet(a: IpAddress, range: IpAddress, prefix: number): boolean {
  if (a.kind() === range.kind()) return a.match(range, prefix);
  if (a.kind() === 'ipv4') return (a as ipaddr.IPv4).toIPv4MappedAddress().match(range, prefix);
  return (a as ipaddr.IPv6).isIPv4MappedAddress() && (a as ipaddr.IPv6).toIPv4Address().match(range, prefix);
}

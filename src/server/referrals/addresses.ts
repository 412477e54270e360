import ipaddr from 'ipaddr.js';
import { ipv6Network } from '../../shared/ip';

/**
 * The network a client address stands for when two accounts are compared: an IPv4
 * address itself (an IPv4-mapped IPv6 address is its IPv4), an IPv6 address its /64
 * (one household or server is handed a whole /64, so its other addresses are the same
 * client). Null for anything that does not parse, which then matches nothing.
 */
export function addressNetwork(ip: string): string | null {
  // Only the forms a socket gives: dotted quads and IPv6 (not `1.2.3` or hex IPv4 forms).
  if (!ipaddr.IPv4.isValidFourPartDecimal(ip) && !ipaddr.IPv6.isValid(ip)) return null;
  const a = ipaddr.process(ip);
  if (a.kind() === 'ipv4') return `v4:${a.toString()}`;
  return `v6:${ipv6Network(a as ipaddr.IPv6, 64)}`;
}

/** Whether any address of one list is in the same network (see addressNetwork) as one of the other. */
export function shareAnAddress(a: string[], b: string[]): boolean {
  const nets = new Set(a.map(addressNetwork).filter((n) => n !== null));
  return b.some((ip) => {
    const n = addressNetwork(ip);
    return n !== null && nets.has(n);
  });
}

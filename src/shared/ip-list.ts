import ipaddr from 'ipaddr.js';
import { isIPv4, isIPv6 } from './ip';

/**
 * An API key's allow list: "203.0.113.7, 2001:db8::/32, 10.0.0.0/8". Checked here, with
 * ipaddr.js (no Node module), so the page refuses exactly what the server refuses.
 */
export const MAX_ALLOWED_ENTRIES = 50;

export type AllowEntry = { address: string; family: 'ipv4' | 'ipv6'; prefix: number | null };

/** One entry, or the reason it is refused (naming it). */
export function parseAllowEntry(raw: string): AllowEntry | string {
  const entry = raw.trim();
  const bad = `"${entry.slice(0, 60)}" is not an IP address or CIDR range (for example 203.0.113.7, 2001:db8::1 or 10.0.0.0/24)`;
  const [written, prefix, extra] = entry.split('/');
  if (extra !== undefined) return bad;
  // "::ffff:10.0.0.1" is how a dual-stack socket shows an IPv4 client: one address.
  const mapped = prefix === undefined && isIPv6(written) && ipaddr.IPv6.parse(written).isIPv4MappedAddress();
  const address = mapped ? ipaddr.IPv6.parse(written).toIPv4Address().toString() : written;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return bad;
  if (prefix === undefined) return { address: address.toLowerCase(), family, prefix: null };
  const max = family === 'ipv4' ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max)
    return `"${entry.slice(0, 60)}": the range size after / must be 0-${max}`;
  return { address: address.toLowerCase(), family, prefix: Number(prefix) };
}

/** The entries of a comma-separated list (empty = any address), or the first refusal. */
export function parseAllowList(list: string): { entries: AllowEntry[] } | { error: string } {
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length > MAX_ALLOWED_ENTRIES) return { error: `at most ${MAX_ALLOWED_ENTRIES} addresses or ranges` };
  const entries: AllowEntry[] = [];
  for (const p of parts) {
    const e = parseAllowEntry(p);
    if (typeof e === 'string') return { error: e };
    if (!entries.some((x) => x.address === e.address && x.prefix === e.prefix)) entries.push(e);
  }
  return { entries };
}

/** The stored, canonical text of a list: "203.0.113.7,10.0.0.0/8". */
export function formatAllowList(entries: AllowEntry[]): string {
  return entries.map((e) => (e.prefix === null ? e.address : `${e.address}/${e.prefix}`)).join(',');
}

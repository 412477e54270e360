import type { Host } from '../db/schema';
import type { DaemonProfile } from '../fleet/profiles';

export type Usage = Map<number, { dedicated: number; cloud: number; profiles?: Record<string, number> }>;

const GB = 1024 ** 3;

/** What a node of this profile commits of its host: a real daemon's disk (chain growth included) and memory. */
export const resourcesOf = (p: DaemonProfile | undefined) => (p?.run === 'binary' ? (p.resources ?? null) : null);

/** Disk and memory (GB) the host's nodes commit, by their profiles' resources. */
export function committedOn(
  use: { profiles?: Record<string, number> } | undefined,
  profiles: Record<string, DaemonProfile>,
): { diskGb: number; memoryGb: number } {
  let diskGb = 0;
  let memoryGb = 0;
  for (const [id, n] of Object.entries(use?.profiles ?? {})) {
    const r = resourcesOf(profiles[id]);
    if (r) {
      diskGb += n * r.disk_gb;
      memoryGb += n * r.memory_gb;
    }
  }
  return { diskGb, memoryGb };
}

/**
 * Is there room on the host for one more node of `profile`, by disk and memory? A daemon
 * whose profile names its resources goes only on a host that reported its disk and memory
 * (the host check), and only while what its nodes commit, this one included, fits in them.
 */
export function fitsHost(
  host: Host,
  use: { profiles?: Record<string, number> } | undefined,
  profile: DaemonProfile,
  profiles: Record<string, DaemonProfile>,
): boolean {
  const need = resourcesOf(profile);
  if (!need) return true;
  if (host.disk_total_bytes === null || host.memory_total_bytes === null) return false;
  const used = committedOn(use, profiles);
  return (
    (used.diskGb + need.disk_gb) * GB <= host.disk_total_bytes &&
    (used.memoryGb + need.memory_gb) * GB <= host.memory_total_bytes
  );
}

/** The public addresses a host can give its nodes. Today one IPv4 and maybe one IPv6 per host; later a list. */
export type HostAddresses = { ipv4: string[]; ipv6: string[] };

/** Public address:port pairs already taken by live nodes, per host id. */
export type PairsInUse = Map<number, Set<string>>;

/** Where a node goes: its host and the public addresses its P2P port is published on. */
export type Placement = { host: Host; ipv4: string | null; ipv6: string | null; p2pPort: number | null };

export const pairKey = (ip: string, port: number) => `${ip.includes(':') ? `[${ip}]` : ip}:${port}`;

/** The addresses a host row has (the `hosts` table's ipv4/ipv6 columns). */
export const rowAddresses = (h: Host): HostAddresses => ({
  ipv4: h.ipv4 ? [h.ipv4] : [],
  ipv6: h.ipv6 ? [h.ipv6] : [],
});

/** Builds the pairs in use from live nodes' rows: each holds its P2P port on its IPv4 and IPv6. */
export function pairsInUse(
  nodes: Array<{
    host_id: number | null;
    server_ip: string | null;
    server_ip6: string | null;
    p2p_port: number | null;
  }>,
): PairsInUse {
  const used: PairsInUse = new Map();
  for (const n of nodes) {
    if (n.host_id === null || n.p2p_port === null) continue;
    const set = used.get(n.host_id) ?? new Set<string>();
    if (n.server_ip) set.add(pairKey(n.server_ip, n.p2p_port));
    if (n.server_ip6) set.add(pairKey(n.server_ip6, n.p2p_port));
    used.set(n.host_id, set);
  }
  return used;
}

/**
 * Does the host take new nodes of this daemon? Active, and not short of disk: a host
 * whose free space fell below HOST_DISK_MIN_FREE_GB (the host check marks it) gets no
 * chain until it is back above, so a filling disk is not filled further. A simulated
 * node keeps no chain on disk, so the demo (`npm start`) on a small disk still deploys.
 * A host whose disk was never measured is not held back by it.
 */
export function takesNewNodes(host: Host, profile: DaemonProfile): boolean {
  return host.state === 'active' && (host.disk_low_at === null || profile.run === 'simulator');
}

/** Can this host run this kind of daemon? Simulated and binary daemons run locally; containers need an image. */
export function hostRuns(host: Host, profile: DaemonProfile): boolean {
  if (host.engine === 'local') return true;
  return profile.run === 'binary' && !!profile.image;
}

/** The coin's fixed public P2P port, when its daemon has one (the simulator needs none). */
export const fixedP2pPort = (profile: DaemonProfile): number | null =>
  profile.run === 'binary' ? (profile.p2p_port ?? null) : null;

/**
 * The active host with the most free slots of the plan that can run the daemon, or
 * null when the fleet is full for it. Draining and gone hosts, and hosts short of disk,
 * get no new nodes.
 *
 * A daemon with a fixed P2P port (a real masternode: its network knows it as
 * address:port) also needs a public IPv4 of the host where that port is still free:
 * two nodes of one coin cannot share an address. A host whose every IPv4 has the port
 * taken is refused. An IPv6 is added where the host has one with the port free.
 */
export function pickHost(
  hosts: Host[],
  usage: Usage,
  plan: 'dedicated' | 'cloud',
  profile: DaemonProfile,
  opts: {
    inUse?: PairsInUse;
    addresses?: (h: Host) => HostAddresses;
    /** Every profile, to count what the host's nodes commit (fitsHost); absent: disk and memory are not counted. */
    profiles?: Record<string, DaemonProfile>;
  } = {},
): Placement | null {
  const port = fixedP2pPort(profile);
  const addressesOf = opts.addresses ?? rowAddresses;
  let best: Placement | null = null;
  let bestFree = 0;
  for (const h of hosts) {
    if (!takesNewNodes(h, profile) || !hostRuns(h, profile)) continue;
    if (opts.profiles && !fitsHost(h, usage.get(h.id), profile, opts.profiles)) continue;
    const used = usage.get(h.id)?.[plan] ?? 0;
    const free = (plan === 'dedicated' ? h.dedicated_slots : h.cloud_slots) - used;
    if (free <= bestFree) continue;
    const addrs = addressesOf(h);
    if (port === null) {
      best = { host: h, ipv4: addrs.ipv4[0] ?? null, ipv6: addrs.ipv6[0] ?? null, p2pPort: null };
      bestFree = free;
      continue;
    }
    const taken = opts.inUse?.get(h.id) ?? new Set<string>();
    const ipv4 = addrs.ipv4.find((ip) => !taken.has(pairKey(ip, port)));
    if (!ipv4) continue;
    const ipv6 = addrs.ipv6.find((ip) => !taken.has(pairKey(ip, port))) ?? null;
    best = { host: h, ipv4, ipv6, p2pPort: port };
    bestFree = free;
  }
  return best;
}

/** Free slots of a plan over every host that takes new nodes and can run the daemon. */
export function freeSlots(
  hosts: Host[],
  usage: Usage,
  plan: 'dedicated' | 'cloud',
  profile: DaemonProfile,
  profiles?: Record<string, DaemonProfile>,
): number {
  let free = 0;
  for (const h of hosts) {
    if (!takesNewNodes(h, profile) || !hostRuns(h, profile)) continue;
    // Slots are not counted by disk and memory here: a host with room for one more is one.
    if (profiles && !fitsHost(h, usage.get(h.id), profile, profiles)) continue;
    free += Math.max(0, (plan === 'dedicated' ? h.dedicated_slots : h.cloud_slots) - (usage.get(h.id)?.[plan] ?? 0));
  }
  return free;
}

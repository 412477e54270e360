import type { Host } from '../db/schema';
import type { DaemonProfile } from './profiles';

export type Usage = Map<number, { dedicated: number; cloud: number }>;

/** Can this host run this kind of daemon? Simulated and binary daemons run locally; containers need an image. */
export function hostRuns(host: Host, profile: DaemonProfile): boolean {
  if (host.engine === 'local') return true;
  return profile.run === 'binary' && !!profile.image;
}

/**
 * The active host with the most free slots of the plan that can run the daemon, or
 * null when the fleet is full for it. Draining and gone hosts get no new nodes.
 */
export function pickHost(hosts: Host[], usage: Usage, plan: 'dedicated' | 'cloud', profile: DaemonProfile): Host | null {
  let best: Host | null = null;
  let bestFree = 0;
  for (const h of hosts) {
    if (h.state !== 'active' || !hostRuns(h, profile)) continue;
    const used = usage.get(h.id)?.[plan] ?? 0;
    const free = (plan === 'dedicated' ? h.dedicated_slots : h.cloud_slots) - used;
    if (free > bestFree) {
      best = h;
      bestFree = free;
    }
  }
  return best;
}

/** Free slots of a plan over every active host that can run the daemon. */
export function freeSlots(hosts: Host[], usage: Usage, plan: 'dedicated' | 'cloud', profile: DaemonProfile): number {
  let free = 0;
  for (const h of hosts) {
    if (h.state !== 'active' || !hostRuns(h, profile)) continue;
    free += Math.max(0, (plan === 'dedicated' ? h.dedicated_slots : h.cloud_slots) - (usage.get(h.id)?.[plan] ?? 0));
  }
  return free;
}

import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import type { EventHub } from '../events/hub';
import type { EngineRegistry } from '../fleet/engines/registry';
import type { FleetMetrics } from '../fleet/metrics';
import type { DaemonProfile } from '../fleet/profiles';
import type { Logger } from '../kernel/log';
import type { SecretBox } from '../secrets/box';
import { listHosts } from './fleet-queries';
import type { Monitor } from './monitor';

/**
 * What the control loop's steps (placement, reconcile, provisioning, key and version
 * changes) work with; nodes/runtime.ts makes it once. Each step asks for the part it uses.
 */
export type FleetDeps = {
  db: DB;
  hub: EventHub;
  log: Logger;
  engines: EngineRegistry<Host>;
  metrics: FleetMetrics;
  monitor: Monitor;
  profiles: Record<string, DaemonProfile>;
  /** Opens the keys real daemons run with (sealed in nodes.secrets), and seals the key quick setup gives. */
  secrets?: Pick<SecretBox, 'open' | 'seal'>;
  /** FLEET_SIMULATOR: may the simulator serve nodes? */
  simulator: boolean;
  /** <data dir>/fleet: where the engines keep the nodes' files. */
  fleetDir: string;
  /**
   * Nodes an engine call is under way for. Engine calls cannot be aborted: a pass given
   * up on at its deadline may still be working, and the next pass must not touch its nodes.
   */
  inProgress: Set<string>;
  /** One pass of the control loop now, or one more after the current one (single flight). */
  reconcile: () => Promise<void>;
};

/** The host a node is placed on; undefined when it is not placed or the host is gone. */
export async function placedHost(db: DB, node: { host_id: number | null }): Promise<Host | undefined> {
  if (node.host_id === null) return undefined;
  return (await listHosts(db)).find((h) => h.id === node.host_id);
}

import { findCoin } from '../coins/catalog';
import type { Masternode } from '../db/schema';
import { FleetActionError } from '../fleet/access';
import { placedHost, type FleetDeps } from './fleet-deps';
import { withOperatorSecret } from './node-secrets';
import { KEY_MESSAGES, restartWithOperatorKey } from './operator-key-restart';
import { updateNodeRow } from './repository';

/**
 * Quick setup's key change (FleetAccess.setOperatorKey): a real daemon is restarted with
 * the key in its config (operator-key-restart.ts), the simulator takes it through its
 * admin API. Refused while the control loop works on the node.
 */
export async function setOperatorKey(
  d: Pick<FleetDeps, 'db' | 'log' | 'engines' | 'profiles' | 'secrets' | 'fleetDir' | 'inProgress'>,
  backTimeoutMs: number,
  node: Masternode,
  secret: string,
): Promise<void> {
  const profile = d.profiles[node.daemon_profile ?? ''];
  const host = await placedHost(d.db, node);
  const coin = await findCoin(d.db, node.coin_id);
  if (!profile || !host || !coin || node.state !== 'live')
    throw new FleetActionError(KEY_MESSAGES.unsupported, 'unsupported');
  // The control loop leaves nodes in progress alone, and this waits for none of its work.
  if (d.inProgress.has(node.mn_id)) throw new FleetActionError(KEY_MESSAGES.busy, 'busy');
  d.inProgress.add(node.mn_id);
  try {
    if (profile.run === 'simulator') return await simulatorOperatorKey(d, node, secret);
    const deps = { db: d.db, log: d.log, box: d.secrets, fleetDir: d.fleetDir, backTimeoutMs };
    await restartWithOperatorKey(deps, node, coin, profile, host, d.engines.for(host), secret);
  } finally {
    d.inProgress.delete(node.mn_id);
  }
}

/** The simulator's stand-in for a restart with the key in the config: its admin API. */
async function simulatorOperatorKey(
  d: Pick<FleetDeps, 'db' | 'log' | 'engines' | 'secrets'>,
  node: Masternode,
  secret: string,
) {
  const box = d.secrets;
  if (box) await updateNodeRow(d.db, node.id, { secrets: withOperatorSecret(box, node, secret) });
  try {
    await d.engines.local.simulatorOperatorKey(node.mn_id, secret);
  } catch (err) {
    if (box) await updateNodeRow(d.db, node.id, { secrets: node.secrets });
    d.log.warn('simulated node did not take its operator key', {
      node: node.mn_id,
      error: (err as Error).message,
    });
    throw new FleetActionError(KEY_MESSAGES.failed, 'failed');
  }
}

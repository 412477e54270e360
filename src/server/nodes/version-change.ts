import { findCoin } from '../coins/catalog';
import type { Masternode } from '../db/schema';
import { FleetActionError } from '../fleet/access';
import { canChangeVersion } from '../fleet/daemon-version';
import { untilHealthyOn } from '../fleet/upgrade-health';
import { updatePlacement } from './fleet-queries';
import { placedHost, type FleetDeps } from './fleet-deps';
import { operatorKeyFor } from './operator-key';
import { specOf } from './provision';

/**
 * One node's daemon upgrade (a rollout's step): the node runs `version` (null: its
 * profile's) from now on,
 * its data kept. Resolves once the daemon answers on that version and is synced;
 * otherwise the node is put back on `back` (its previous version) and this throws with
 * the reason. Refused for a node the control loop is working on, or whose daemon
 * cannot change version where it runs (daemon-version.ts).
 */
export async function runNodeOnVersion(
  d: Pick<FleetDeps, 'db' | 'log' | 'engines' | 'profiles' | 'secrets' | 'fleetDir' | 'inProgress'>,
  healthTimeoutMs: number,
  node: Masternode,
  version: string | null,
  back: string | null,
): Promise<void> {
  const profile = d.profiles[node.daemon_profile ?? ''];
  const host = await placedHost(d.db, node);
  const coin = await findCoin(d.db, node.coin_id);
  if (!profile || !host || !coin)
    throw new FleetActionError(`node ${node.mn_id} is not placed on a host`, 'unsupported');
  if (!canChangeVersion(profile, host))
    throw new FleetActionError(
      `node ${node.mn_id}: its daemon (${node.daemon_profile} on ${host.name}) cannot change version there`,
      'unsupported',
    );
  if (d.inProgress.has(node.mn_id))
    throw new FleetActionError(`node ${node.mn_id} is being changed; try again in a minute`, 'busy');
  d.inProgress.add(node.mn_id);
  const engine = d.engines.for(host);
  const operatorKey =
    profile.run === 'binary' && (profile.operator_key_option || profile.node_key_file) && d.secrets
      ? operatorKeyFor(d.secrets, node, coin.family)
      : null;
  const runOn = async (v: string | null) => {
    await updatePlacement(d.db, node.id, { daemon_version: v });
    await engine.replace((await specOf(d, node, host, coin, profile, v, operatorKey)).spec);
  };
  try {
    await runOn(version);
    await untilHealthyOn(engine, node, profile, version, healthTimeoutMs);
    d.log.info('node upgraded', { node: node.mn_id, version });
  } catch (err) {
    const reason = (err as Error).message;
    d.log.warn('node upgrade failed; putting the previous version back', {
      node: node.mn_id,
      version,
      back,
      reason,
    });
    try {
      await runOn(back);
    } catch (again) {
      d.log.error('node could not be put back on its previous version', {
        node: node.mn_id,
        back,
        error: (again as Error).message,
      });
    }
    throw new FleetActionError(reason, 'failed');
  } finally {
    d.inProgress.delete(node.mn_id);
  }
}

import path from 'node:path';
import { familyOf } from '../../shared/families';
import { coinDaemonVersion } from '../coins/daemon-versions';
import { findCoin } from '../coins/catalog';
import type { CoinRecord, Host, Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { BootstrapError, fetchSnapshot, type Bootstrap } from '../fleet/bootstrap';
import type { DaemonProfile } from '../fleet/profiles';
import { raise } from '../notifications/raise';
import { buildSpec } from './daemon-spec';
import { updatePlacement } from './fleet-queries';
import type { FleetDeps } from './fleet-deps';
import { openValidatorRun, withKeymanagerToken } from './node-secrets';
import { operatorKeyFor } from './operator-key';
import { transition, updateNodeRow } from './repository';
import { placementVersion } from './version-queries';

/** provisioning → live: the engine creates and starts the node's daemon, and its owner is told. */
export async function provision(
  d: Pick<FleetDeps, 'db' | 'hub' | 'log' | 'engines' | 'monitor' | 'profiles' | 'secrets' | 'fleetDir' | 'reconcile'>,
  given: Masternode,
  host: Host,
): Promise<void> {
  let node = given;
  const coin = await findCoin(d.db, node.coin_id);
  const profile = d.profiles[node.daemon_profile ?? ''];
  if (!coin || !profile) throw new Error(`node ${node.mn_id}: unknown coin or daemon profile ${node.daemon_profile}`);
  const engine = d.engines.for(host);
  const operatorKey =
    profile.run === 'binary' && (profile.operator_key_option || profile.node_key_file) && d.secrets
      ? operatorKeyFor(d.secrets, node, coin.family)
      : null;
  // A validator's client holds its keystore (the simulator stands in for it on simulated nodes).
  const isValidator = familyOf(coin.family).validator && d.secrets;
  const tokenAdded = isValidator ? withKeymanagerToken(d.secrets!, node) : null;
  if (tokenAdded) {
    await updateNodeRow(d.db, node.id, { secrets: tokenAdded });
    node = { ...node, secrets: tokenAdded };
    d.log.info('validator given its Keymanager API token', { node: node.mn_id });
  }
  // The version new nodes of the coin get (a rollout sets it), kept with the placement so
  // a later change of the coin's version never changes this node's without a rollout.
  const version = (await placementVersion(d.db, node.id)) ?? (await coinDaemonVersion(d.db, coin.id));
  const { spec, ports } = await specOf(d, node, host, coin, profile, version, operatorKey);
  if (version) await updatePlacement(d.db, node.id, { daemon_version: version });
  if (profile.run === 'binary' && profile.bootstrap) {
    const seed = await snapshotOf(d, profile.bootstrap, node.mn_id);
    if (seed) spec.seed = seed;
  }
  await engine.create(spec);
  await engine.start(node.mn_id);
  const started = await d.db.transaction().execute(async (trx) => {
    // The owner may have deleted it while the engine was creating it: then it is not
    // announced, and the next pass destroys what the engine just started.
    if (!(await transition(trx, node.id, 'started'))) return false;
    await updatePlacement(trx, node.id, {
      provisioned_at: Date.now(),
      ports: JSON.stringify(ports),
      last_error: null,
      next_attempt_at: null,
      attempts: 0,
    });
    await insertEvent(trx, node.user_id, 'server_created', { server_id: node.mn_id });
    await raise(trx, node.user_id, 'node_deployed', { mn_id: node.mn_id, coin: coin.label, alias: node.alias });
    await insertEvent(trx, node.user_id, 'refresh_queue', {});
    await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
    return true;
  });
  if (!started) {
    d.log.info('node deleted while it was starting; destroying it', { node: node.mn_id, host: host.name });
    void d.reconcile();
    return;
  }
  void d.hub.poke();
  d.monitor.track(node.mn_id, false, true);
  d.log.info('node started on its engine', {
    node: node.mn_id,
    host: host.name,
    engine: engine.kind,
    profile: node.daemon_profile,
    simulated: profile.run === 'simulator',
  });
}

/**
 * The profile's chain snapshot, checked, or null: a snapshot that cannot be had or is not
 * the one pinned is never used, and the node syncs from the network as it would without
 * one (slower, never wrong). The operator reads why in the log.
 */
async function snapshotOf(d: Pick<FleetDeps, 'log' | 'fleetDir'>, boot: Bootstrap, nodeId: string) {
  try {
    return await fetchSnapshot(boot, path.join(d.fleetDir, 'snapshots'));
  } catch (err) {
    if (!(err instanceof BootstrapError)) throw err;
    d.log.warn('chain snapshot not used: the node syncs from the network', { node: nodeId, reason: err.message });
    return null;
  }
}

/**
 * What the engine runs the node with: the profile filled with the node's settings, its
 * operator key and validator keystore, on `version` (the profile's when null). A node
 * provisioned before keeps the ports it has (saved with its placement, or in the
 * engine's record), so config, engine and placement agree.
 */
export async function specOf(
  d: Pick<FleetDeps, 'engines' | 'secrets' | 'fleetDir'>,
  node: Masternode,
  host: Host,
  coin: CoinRecord,
  profile: DaemonProfile,
  version: string | null,
  operatorKey: string | null,
) {
  const validator = familyOf(coin.family).validator && d.secrets ? openValidatorRun(d.secrets, node) : null;
  const saved = JSON.parse(node.ports || '{}') as Record<string, number>;
  const known = Object.keys(saved).length ? saved : await d.engines.for(host).portsOf?.(node.mn_id);
  return buildSpec(node, coin, profile, host, d.fleetDir, {
    operatorKey,
    validator,
    ports: known ?? undefined,
    daemonVersion: version,
  });
}

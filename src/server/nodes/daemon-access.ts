import { coinDetails, findCoin } from '../coins/catalog';
import type { Masternode } from '../db/schema';
import type { BurnResult, DaemonAccess } from '../fleet/access';
import { BURN_MESSAGES, lookUpBurn } from '../fleet/burn-check';
import type { RpcEndpoint } from '../fleet/engine';
import { rpcAuth } from '../fleet/observe';
import { placedHost, type FleetDeps } from './fleet-deps';
import { profileFor } from './lifecycle';
import { findLiveNodeOfCoin } from './repository';

/** Where a live node's daemon answers, with its RPC credentials (FleetAccess.daemonOf). */
export async function daemonOf(
  d: Pick<FleetDeps, 'db' | 'engines' | 'profiles'>,
  node: Masternode,
): Promise<DaemonAccess | null> {
  if (node.state !== 'live' || node.host_id === null) return null;
  const profile = d.profiles[node.daemon_profile ?? ''];
  const host = await placedHost(d.db, node);
  if (!profile || !host) return null;
  const simulated = profile.run === 'simulator';
  const engine = d.engines.for(host);
  const endpoint = await engine.rpcEndpoint(node.mn_id);
  const auth = rpcAuth(node, simulated);
  const vcPort = profile.run === 'binary' ? profile.validator_client?.keymanager_port : undefined;
  const keymanager =
    simulated && profile.rpc === 'evm'
      ? async () => endpoint
      : vcPort
        ? () => engine.rpcEndpoint(node.mn_id, vcPort)
        : undefined;
  return { endpoint, auth, profile, simulated, ...(keymanager ? { keymanager } : {}) };
}

/**
 * SIN's burn check: on the simulator's chain when the coin runs there, else on any live
 * node's daemon of the coin (real daemons index transactions: txindex=1).
 */
export async function checkBurn(
  d: Pick<FleetDeps, 'db' | 'log' | 'engines' | 'profiles' | 'simulator'>,
  coinId: string,
  txid: string,
): Promise<BurnResult> {
  const coin = await findCoin(d.db, coinId);
  if (!coin) return { ok: false, message: BURN_MESSAGES.unavailable };
  const { profile } = profileFor(d.profiles, coin.family, coinDetails(coin).daemon);
  let rpc: { endpoint: RpcEndpoint; auth?: { user: string; password: string } } | null = null;
  try {
    if (profile.run === 'simulator')
      rpc = d.simulator ? { endpoint: await d.engines.local.simulatorCoinEndpoint(coin.id) } : null;
    else {
      const node = await findLiveNodeOfCoin(d.db, coin.id);
      rpc = node ? await daemonOf(d, node) : null;
    }
  } catch (err) {
    d.log.warn('burn check: no daemon reachable', { coin: coin.id, error: (err as Error).message });
  }
  if (!rpc) return { ok: false, message: BURN_MESSAGES.unavailable };
  return lookUpBurn({ ...rpc, timeoutMs: 5_000 }, txid);
}

/** Stops the node's daemon now (a validator before its exit file); the delete then destroys it. */
/** FleetAccess.daemonLog: read through the node's engine; null when it has no host. */
export async function daemonLog(
  d: Pick<FleetDeps, 'db' | 'engines'>,
  node: Masternode,
  tail: number,
): Promise<string | null> {
  const host = await placedHost(d.db, node);
  if (!host || node.destroyed_at !== null) return null;
  return d.engines.for(host).logs(node.mn_id, tail);
}

export async function stopNode(d: Pick<FleetDeps, 'db' | 'log' | 'engines'>, node: Masternode): Promise<void> {
  const host = await placedHost(d.db, node);
  if (!host || node.destroyed_at !== null) return;
  const engine = d.engines.for(host);
  try {
    await engine.stop(node.mn_id);
  } catch (err) {
    // A node being deleted may be gone already: the control loop stopped it before it
    // removed it, which is what the caller asked for.
    const now = await engine.inspect(node.mn_id).catch(() => null);
    if (now?.state !== 'missing') throw err;
    d.log.info('node already stopped and removed', { node: node.mn_id, host: host.name });
    return;
  }
  d.log.info('node stopped', { node: node.mn_id, host: host.name });
}

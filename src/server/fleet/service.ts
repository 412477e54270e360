import { randomBytes } from 'node:crypto';
import { currentPrices } from '../coins/prices';
import { coinDetails, findCoin } from '../coins/queries';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { fail } from '../errors';
import { insertEvent } from '../events/queries';
import type { Logger } from '../log';
import { logOperatorAction } from '../operator/settings';
import { pickHost } from './placement';
import { FAMILY_PROFILES, type DaemonProfile } from './profiles';
import { findNodeAnyState, hostUsage, insertNode, listHosts, updateNode } from './queries';

export const FLEET_FULL = 'No server capacity is free for this plan right now. Please try again later or contact support.';

/** What a customer reads when a coin's daemon would be the simulator and FLEET_SIMULATOR is off. */
export const notOffered = (label: string) => `${label} nodes cannot be deployed right now. Please try again later or contact support.`;

export function profileFor(profiles: Record<string, DaemonProfile>, family: string, named?: string): { id: string; profile: DaemonProfile } {
  const id = named ?? FAMILY_PROFILES[family as keyof typeof FAMILY_PROFILES];
  const profile = profiles[id];
  if (!profile) throw new Error(`daemon profile ${id} is not in catalog/daemons.json`);
  return { id, profile };
}

/**
 * Asks for a node: checks the coin and plan, places it on a host with free capacity
 * and records it as "deploying". The server's reconciler starts it on its engine
 * (so this also works from the operator's CLI, another process).
 */
export async function requestNode(
  db: DB,
  deps: { profiles: Record<string, DaemonProfile>; log: Logger; onFull?: () => void; /** FLEET_SIMULATOR */ simulator: boolean },
  input: { userId: number; coinId: string; plan: 'dedicated' | 'cloud' },
): Promise<Masternode> {
  const coin = await findCoin(db, input.coinId);
  if (!coin) fail('NOT_FOUND', `Unknown coin "${input.coinId}".`);
  if (coin.delisted) fail('BAD_REQUEST', `${coin.label} is delisted: new nodes cannot be deployed.`);
  if (coin.maintenance) fail('BAD_REQUEST', "Deployments of this project's nodes are temporarily disabled due to maintenance. Please check back later.");
  if (input.plan === 'cloud' && !coin.cloud) fail('BAD_REQUEST', `${coin.label} has no cloud plan; choose Dedicated.`);
  const { id: profileId, profile } = profileFor(deps.profiles, coin.family, coinDetails(coin).daemon);
  if (profile.run === 'simulator' && !deps.simulator) {
    deps.log.warn('deploy refused: the coin runs on the simulator, which is off (FLEET_SIMULATOR)', { coin: coin.id, profile: profileId });
    fail('SERVICE_UNAVAILABLE', notOffered(coin.label));
  }
  const prices = currentPrices(coin);

  const node = await db.transaction().execute(async (trx) => {
    // The pairs in use come from the placements' P2P ports once they are stored (issue 8's data model).
    const placed = pickHost(await listHosts(trx), await hostUsage(trx), input.plan, profile);
    if (!placed) return null;
    const { host } = placed;
    const mnId = `${coin.id}-${randomBytes(5).toString('hex')}`;
    const now = Date.now();
    await insertNode(trx, {
      mn_id: mnId,
      user_id: input.userId,
      coin_id: coin.id,
      package: input.plan,
      status: 'deploying',
      created_at: now,
      deleted_at: null,
      host_id: host.id,
      daemon_profile: profileId,
      rpc_user: `nk${randomBytes(4).toString('hex')}`,
      rpc_password: randomBytes(18).toString('base64url'),
      server_ip: placed.ipv4,
      server_ip6: placed.ipv6,
      hosting_price: input.plan === 'cloud' ? (prices.cloud ?? prices.dedicated) : prices.dedicated,
      simulated: profile.run === 'simulator' ? 1 : 0,
    });
    await insertEvent(trx, input.userId, 'refresh_queue', {});
    await insertEvent(trx, input.userId, 'refresh_masternodes', {});
    return findNodeAnyState(trx, mnId);
  });
  if (!node) {
    deps.log.warn('fleet full: no host can take the node', { coin: input.coinId, plan: input.plan, profile: profileId });
    deps.onFull?.();
    fail('SERVICE_UNAVAILABLE', FLEET_FULL);
  }
  deps.log.info('node requested', { node: node.mn_id, coin: node.coin_id, plan: node.package, host_id: node.host_id, user_id: node.user_id });
  return node;
}

/** Marks a node deleted; the reconciler destroys it on its engine. */
export async function requestDestroy(db: DB, node: Masternode, by: string) {
  await db.transaction().execute(async (trx) => {
    await updateNode(trx, node.id, { deleted_at: Date.now() });
    await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
    await logOperatorAction(trx, 'node destroy', { node: node.mn_id, by });
  });
}

export async function requestRestart(db: DB, node: Masternode, by: string) {
  await db.transaction().execute(async (trx) => {
    await updateNode(trx, node.id, { restart_requested_at: Date.now() });
    await logOperatorAction(trx, 'node restart', { node: node.mn_id, by });
  });
}

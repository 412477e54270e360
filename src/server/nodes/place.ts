import { randomBytes } from 'node:crypto';
import { coinDetails, findCoin } from '../coins/catalog';
import type { Masternode } from '../db/schema';
import { insertEvent } from '../events/outbox';
import { hostUsage, insertPlacement, listHosts, placedAddresses } from './fleet-queries';
import type { FleetDeps } from './fleet-deps';
import { FLEET_FULL, profileFor } from './lifecycle';
import { pairsInUse, pickHost } from './placement';
import { transition } from './repository';

/** requested → placing → provisioning on a host with a free slot and address:port, or failed. */
export async function placeNode(
  d: Pick<FleetDeps, 'db' | 'hub' | 'log' | 'metrics' | 'profiles'>,
  node: Masternode,
): Promise<void> {
  const coin = await findCoin(d.db, node.coin_id);
  const placed = await d.db.transaction().execute(async (trx) => {
    if ((await transition(trx, node.id, 'place')) !== 'placing') return null;
    const { id: profileId, profile } = profileFor(
      d.profiles,
      coin?.family ?? 'classic',
      coin ? coinDetails(coin).daemon : undefined,
    );
    const placed = pickHost(await listHosts(trx), await hostUsage(trx), node.package, profile, {
      inUse: pairsInUse(await placedAddresses(trx)),
      profiles: d.profiles,
    });
    if (!placed) {
      await transition(trx, node.id, 'no_capacity', { failed_reason: FLEET_FULL });
      await insertEvent(trx, node.user_id, 'refresh_queue', {});
      await insertEvent(trx, node.user_id, 'refresh_masternodes', {});
      return false;
    }
    await insertPlacement(trx, {
      node_id: node.id,
      host_id: placed.host.id,
      daemon_profile: profileId,
      rpc_user: `nk${randomBytes(4).toString('hex')}`,
      rpc_password: randomBytes(18).toString('base64url'),
      server_ip: placed.ipv4,
      server_ip6: placed.ipv6,
      p2p_port: placed.p2pPort,
    });
    await transition(trx, node.id, 'placed');
    await insertEvent(trx, node.user_id, 'refresh_queue', {});
    return true;
  });
  void d.hub.poke();
  if (placed === false) {
    d.metrics.engineErrors.inc({ host: 'none', op: 'place' });
    d.log.warn('fleet full: no host can take the node', {
      node: node.mn_id,
      coin: node.coin_id,
      plan: node.package,
    });
  }
}

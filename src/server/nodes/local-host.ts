import os from 'node:os';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import type { Logger } from '../kernel/log';
import { insertHost, listHosts, updateHost } from './fleet-queries';

type Addresses = { ipv4: string | null; ipv6: string | null };

/**
 * The local host's public addresses: FLEET_LOCAL_IPV4/IPV6 when the operator set them,
 * else the first IPv4/IPv6 address of this machine's interfaces (a guess: behind NAT it
 * is not what customers can reach, hence the settings).
 */
function localAddresses(
  configured: Addresses,
  log: Logger,
  earlier: Addresses | null = null,
): { ipv4: string; ipv6: string | null } {
  const all = configured.ipv4 && configured.ipv6 ? [] : interfaceAddresses(log);
  return {
    ipv4: configured.ipv4 ?? all.find((a) => a.family === 'IPv4')?.address ?? earlier?.ipv4 ?? '127.0.0.1',
    ipv6:
      configured.ipv6 ??
      all.find((a) => a.family === 'IPv6' && !a.address.startsWith('fe80'))?.address ??
      earlier?.ipv6 ??
      null,
  };
}

/**
 * Listing interfaces needs a netlink socket, which a sandbox may forbid (a systemd unit's
 * RestrictAddressFamilies without AF_NETLINK made the start fail): then none are known,
 * and FLEET_LOCAL_IPV4/IPV6 say what to show.
 */
function interfaceAddresses(log: Logger): os.NetworkInterfaceInfo[] {
  try {
    return Object.values(os.networkInterfaces())
      .flat()
      .filter((a): a is os.NetworkInterfaceInfo => !!a && !a.internal);
  } catch (err) {
    log.warn(
      'cannot list network interfaces; set FLEET_LOCAL_IPV4 (and FLEET_LOCAL_IPV6) to the address customers reach this machine on',
      { error: (err as Error).message },
    );
    return [];
  }
}

/**
 * At start: a fleet without hosts gets this machine as its local host; an existing local
 * host takes the addresses FLEET_LOCAL_IPV4/IPV6 set.
 */
export async function ensureLocalHost(db: DB, log: Logger, configured: Addresses): Promise<void> {
  const hosts = await listHosts(db);
  const local = hosts.find((h) => h.engine === 'local');
  if (hosts.length === 0) {
    const addr = localAddresses(configured, log);
    await insertHost(db, {
      name: 'local',
      engine: 'local',
      url: null,
      ipv4: addr.ipv4,
      ipv6: addr.ipv6,
      dedicated_slots: 100,
      cloud_slots: 1000,
      state: 'active',
      last_error: null,
    });
    log.info('fleet: local host added', { ipv4: addr.ipv4, configured: configured.ipv4 !== null });
  } else if (local && (configured.ipv4 !== null || configured.ipv6 !== null)) {
    // The operator's setting wins over what an earlier start detected.
    const addr = localAddresses(configured, log, local);
    if (addr.ipv4 !== local.ipv4 || addr.ipv6 !== local.ipv6) {
      await updateHost(db, local.id, { ipv4: addr.ipv4, ipv6: addr.ipv6 });
      log.info('fleet: local host address set from FLEET_LOCAL_IPV4/IPV6', { ipv4: addr.ipv4, ipv6: addr.ipv6 });
    }
  }
}

/**
 * What the local engine may run (LocalEngine.setAside): each node the database has, placed
 * on this machine or not. A node it has on another host must not run here too (its keys
 * would run twice); one not placed yet may get other ports.
 */
export function placedHere(
  nodes: Array<Pick<Masternode, 'mn_id' | 'state' | 'host_id'>>,
  localHostId: number | undefined,
): Map<string, { placed: boolean; live: boolean }> {
  return new Map(
    nodes.map((n) => [
      n.mn_id,
      {
        placed:
          localHostId !== undefined && n.host_id === localHostId && n.state !== 'requested' && n.state !== 'placing',
        live: n.state === 'live',
      },
    ]),
  );
}

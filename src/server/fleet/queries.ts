import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, HostsTable, MasternodesTable } from '../db/schema';

type Q = Kysely<Database>;

// Hosts
export function listHosts(db: Q) {
  return db.selectFrom('hosts').selectAll().orderBy('id').execute();
}

export function findHost(db: Q, name: string) {
  return db.selectFrom('hosts').selectAll().where('name', '=', name).executeTakeFirst();
}

export function insertHost(db: Q, h: Omit<Insertable<HostsTable>, 'created_at'>) {
  return db.insertInto('hosts').values({ ...h, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
}

export function updateHost(db: Q, id: number, patch: Updateable<HostsTable>) {
  return db.updateTable('hosts').set(patch).where('id', '=', id).execute();
}

export function deleteHost(db: Q, id: number) {
  return db.deleteFrom('hosts').where('id', '=', id).execute();
}

/** Live nodes per host and plan. */
export async function hostUsage(db: Q): Promise<Map<number, { dedicated: number; cloud: number }>> {
  const rows = await db
    .selectFrom('masternodes')
    .select(['host_id', 'package', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deleted_at', 'is', null)
    .where('host_id', 'is not', null)
    .groupBy(['host_id', 'package'])
    .execute();
  const usage = new Map<number, { dedicated: number; cloud: number }>();
  for (const r of rows) {
    const u = usage.get(r.host_id!) ?? { dedicated: 0, cloud: 0 };
    u[r.package] = Number(r.n);
    usage.set(r.host_id!, u);
  }
  return usage;
}

// Nodes
export function insertNode(db: Q, n: Insertable<MasternodesTable>) {
  return db.insertInto('masternodes').values(n).returning('id').executeTakeFirstOrThrow();
}

/** Any node by id, deleted or not. */
export function findNodeAnyState(db: Q, mnId: string) {
  return db.selectFrom('masternodes').selectAll().where('mn_id', '=', mnId).executeTakeFirstOrThrow();
}

/** Rows the control loop must act on: requested and not started, deleted and not destroyed, restart asked for. */
export function nodesNeedingWork(db: Q, limit = 200) {
  return db
    .selectFrom('masternodes')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('deleted_at', 'is', null), eb('provisioned_at', 'is', null), eb('status', '=', 'deploying')]),
        eb.and([eb('deleted_at', 'is not', null), eb('destroyed_at', 'is', null)]),
        eb.and([eb('deleted_at', 'is', null), eb('restart_requested_at', 'is not', null), eb.or([eb('restarted_at', 'is', null), eb('restarted_at', '<', eb.ref('restart_requested_at'))])]),
      ]),
    )
    .limit(limit)
    .execute();
}

/** Nodes of a removed host keep their rows (history) but lose the host. */
export function detachNodesFromHost(db: Q, hostId: number) {
  return db.updateTable('masternodes').set({ host_id: null }).where('host_id', '=', hostId).execute();
}

export function findNode(db: Q, mnId: string) {
  return db.selectFrom('masternodes').selectAll().where('mn_id', '=', mnId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** A user's live node by its id; another user's id is "not found" (no hint that it exists). */
export function findUserNode(db: Q, userId: number, mnId: string) {
  return db.selectFrom('masternodes').selectAll().where('mn_id', '=', mnId).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
}

export function listUserNodes(db: Q, userId: number) {
  return db.selectFrom('masternodes').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null).orderBy('created_at', 'desc').execute();
}

export function listLiveNodes(db: Q) {
  return db.selectFrom('masternodes').selectAll().where('deleted_at', 'is', null).execute();
}

export function updateNode(db: Q, id: number, patch: Updateable<MasternodesTable>) {
  return db.updateTable('masternodes').set(patch).where('id', '=', id).execute();
}

export async function nodesByStatus(db: Q) {
  return db
    .selectFrom('masternodes')
    .select(['status', 'coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deleted_at', 'is', null)
    .groupBy(['status', 'coin_id'])
    .execute();
}

/**
 * A finished build-queue item: a node the owner deleted and the control loop destroyed.
 * Nothing shows it any more (lists and the queue read live nodes only); deletes up to `limit`.
 */
export async function pruneDestroyedNodes(db: Q, destroyedBefore: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('masternodes')
    .where('id', 'in', (eb) =>
      eb.selectFrom('masternodes').select('id').where('deleted_at', 'is not', null).where('destroyed_at', 'is not', null).where('destroyed_at', '<', destroyedBefore).limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Marks which live nodes the simulator serves, from the daemon profiles in force now. */
export async function markSimulated(db: Q, simulatorProfiles: string[]) {
  const ids = simulatorProfiles.length ? simulatorProfiles : [''];
  await db.updateTable('masternodes').set({ simulated: 1 }).where('daemon_profile', 'in', ids).where('simulated', '=', 0).execute();
  await db.updateTable('masternodes').set({ simulated: 0 }).where((eb) => eb.or([eb('daemon_profile', 'is', null), eb('daemon_profile', 'not in', ids)])).where('simulated', '=', 1).execute();
}

/**
 * What the fleet's own nodes of a coin last saw of its chain: the wallet of the most
 * recently checked node and the highest block among nodes checked since `since`.
 * Real nodes win over simulated ones; `simulated` says which kind answered.
 */
export async function chainObservation(db: Q, coinId: string, since: number) {
  const rows = await db
    .selectFrom('masternodes')
    .select(['wallet_info', 'blocks', 'simulated', 'last_checked_at'])
    .where('coin_id', '=', coinId)
    .where('deleted_at', 'is', null)
    .where('blocks', 'is not', null)
    .where('last_checked_at', '>=', since)
    .orderBy('simulated')
    .orderBy('last_checked_at', 'desc')
    .limit(50)
    .execute();
  if (rows.length === 0) return null;
  const simulated = rows[0].simulated === 1;
  const same = rows.filter((r) => (r.simulated === 1) === simulated);
  const withWallet = same.find((r) => r.wallet_info !== null);
  return {
    simulated,
    latestBlock: Math.max(...same.map((r) => r.blocks ?? 0)),
    wallet: withWallet ? (JSON.parse(withWallet.wallet_info!) as { version: string; protocol_version: string; connections: number | null }) : null,
  };
}

/** Live nodes per coin and kind, for the operator's status. */
export async function nodeCountsBySimulated(db: Q) {
  return db
    .selectFrom('masternodes')
    .select(['simulated', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deleted_at', 'is', null)
    .groupBy('simulated')
    .execute();
}

/** Live nodes per coin that hold real collateral (simulated ones hold none). */
export async function realNodeCounts(db: Q): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('masternodes')
    .select(['coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('deleted_at', 'is', null)
    .where('simulated', '=', 0)
    .groupBy('coin_id')
    .execute();
  return new Map(rows.map((r) => [r.coin_id, Number(r.n)]));
}

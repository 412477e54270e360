import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, HostsTable, ObservationsTable, PlacementsTable, SyncProgressTable } from '../db/schema';
import { userIdsMatching, usernameOf } from '../auth/users';

type Q = Kysely<Database>;

// Hosts
export function listHosts(db: Q) {
  return db.selectFrom('hosts').selectAll().orderBy('id').execute();
}

export function findHost(db: Q, name: string) {
  return db.selectFrom('hosts').selectAll().where('name', '=', name).executeTakeFirst();
}

export function insertHost(db: Q, h: Omit<Insertable<HostsTable>, 'created_at'>) {
  return db
    .insertInto('hosts')
    .values({ ...h, created_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function updateHost(db: Q, id: number, patch: Updateable<HostsTable>) {
  return db.updateTable('hosts').set(patch).where('id', '=', id).execute();
}

export function deleteHost(db: Q, id: number) {
  return db.deleteFrom('hosts').where('id', '=', id).execute();
}

/** Nodes holding a slot, per host: by plan, and by daemon profile (what they commit of the host's disk and memory). */
export type HostUse = { dedicated: number; cloud: number; profiles: Record<string, number> };

/** Nodes holding a slot, per host and plan: placed and not yet destroyed. */
export async function hostUsage(db: Q): Promise<Map<number, HostUse>> {
  const rows = await db
    .selectFrom('node_view')
    .select(['host_id', 'package', 'daemon_profile', (eb) => eb.fn.countAll<number>().as('n')])
    .where('destroyed_at', 'is', null)
    .where('host_id', 'is not', null)
    .where('state', 'not in', ['deleted', 'failed'])
    .groupBy(['host_id', 'package', 'daemon_profile'])
    .execute();
  const usage = new Map<number, HostUse>();
  for (const r of rows) {
    const u = usage.get(r.host_id!) ?? { dedicated: 0, cloud: 0, profiles: {} };
    u[r.package] += Number(r.n);
    if (r.daemon_profile) u.profiles[r.daemon_profile] = (u.profiles[r.daemon_profile] ?? 0) + Number(r.n);
    usage.set(r.host_id!, u);
  }
  return usage;
}

/** A plan's capacity: the slots of the hosts that take new nodes (active ones), together. */
export async function planSlots(db: Q, plan: 'dedicated' | 'cloud'): Promise<number> {
  const row = await db
    .selectFrom('hosts')
    .select(sql<number>`coalesce(sum(${sql.ref(plan === 'dedicated' ? 'dedicated_slots' : 'cloud_slots')}), 0)`.as('n'))
    .where('state', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Nodes asked for and not placed yet, per plan: they will take slots too. */
export async function unplacedCounts(db: Q): Promise<{ dedicated: number; cloud: number }> {
  const rows = await db
    .selectFrom('node_view')
    .select(['package', (eb) => eb.fn.countAll<number>().as('n')])
    .where('state', 'in', ['requested', 'placing'])
    .groupBy('package')
    .execute();
  const out = { dedicated: 0, cloud: 0 };
  for (const r of rows) out[r.package] = Number(r.n);
  return out;
}

/** Placements holding a public address and P2P port (see placement.ts `pairsInUse`). */
export function placedAddresses(db: Q) {
  return db
    .selectFrom('placements')
    .select(['host_id', 'server_ip', 'server_ip6', 'p2p_port'])
    .where('destroyed_at', 'is', null)
    .where('p2p_port', 'is not', null)
    .execute();
}

// Placements and observations (the fleet's and the monitor's parts of a node)
export function insertPlacement(db: Q, p: Insertable<PlacementsTable>) {
  return db.insertInto('placements').values(p).execute();
}

export function updatePlacement(db: Q, nodeId: number, patch: Updateable<PlacementsTable>) {
  return db.updateTable('placements').set(patch).where('node_id', '=', nodeId).execute();
}

/** Writes what the monitor saw; the first look creates the row. */
export function saveObservation(db: Q, nodeId: number, o: Omit<Insertable<ObservationsTable>, 'node_id'>) {
  return db
    .insertInto('observations')
    .values({ ...o, node_id: nodeId })
    .onConflict((oc) => oc.column('node_id').doUpdateSet(o as Updateable<ObservationsTable>))
    .execute();
}

/**
 * Rows the control loop must act on: requested (to place), provisioning and due (to
 * create and start, again after a failure's backoff), deleting and due (to destroy),
 * and live ones with a restart asked for.
 */
export function nodesNeedingWork(db: Q, now: number, limit = 200) {
  return db
    .selectFrom('node_view')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('state', '=', 'requested'),
        eb.and([
          eb('state', '=', 'provisioning'),
          eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]),
        ]),
        eb.and([
          eb('state', '=', 'deleting'),
          eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]),
        ]),
        eb.and([
          eb('state', '=', 'live'),
          eb('restart_requested_at', 'is not', null),
          eb.or([eb('restarted_at', 'is', null), eb('restarted_at', '<', eb.ref('restart_requested_at'))]),
        ]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** When the control loop next has a retry due (null: none waiting). */
export async function nextRetryAt(db: Q): Promise<number | null> {
  const row = await db
    .selectFrom('node_view')
    .select((eb) => eb.fn.min('next_attempt_at').as('at'))
    .where('state', '=', 'provisioning')
    .executeTakeFirst();
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/** Nodes of a removed host keep their rows (history) but lose the host. */
export function detachNodesFromHost(db: Q, hostId: number) {
  return db.updateTable('placements').set({ host_id: null }).where('host_id', '=', hostId).execute();
}

/** A node that exists for its owner (not deleted), by id. */
export function findNode(db: Q, mnId: string) {
  return db
    .selectFrom('node_view')
    .selectAll()
    .where('mn_id', '=', mnId)
    .where('state', 'not in', ['deleting', 'deleted'])
    .executeTakeFirst();
}

/** Every node that exists (being set up, live, failed, going), for the operator. */
export function listExistingNodes(db: Q) {
  return db.selectFrom('node_view').selectAll().where('state', '!=', 'deleted').orderBy('id').execute();
}

/** Nodes running on an engine: what the monitor watches. */
export function listLiveNodes(db: Q) {
  return db.selectFrom('node_view').selectAll().where('state', '=', 'live').execute();
}

export async function nodesByStatus(db: Q) {
  return db
    .selectFrom('node_view')
    .select(['status', 'coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('state', 'not in', ['deleting', 'deleted'])
    .groupBy(['status', 'coin_id'])
    .execute();
}

/**
 * What the fleet's own nodes of a coin last saw of its chain: the wallet of the most
 * recently checked node and the highest block among nodes checked since `since`.
 * Real nodes win over simulated ones; `simulated` says which kind answered.
 */
export async function chainObservation(db: Q, coinId: string, since: number) {
  const rows = await db
    .selectFrom('node_view')
    .select(['wallet_info', 'blocks', 'simulated', 'last_checked_at'])
    .where('coin_id', '=', coinId)
    .where('state', 'not in', ['deleting', 'deleted'])
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
    wallet: withWallet
      ? (JSON.parse(withWallet.wallet_info!) as {
          version: string;
          protocol_version: string;
          connections: number | null;
        })
      : null,
  };
}

/** The user's nodes that are not deleted (row id and `mn_id`), in node id order. */
export function userNodes(db: Q, userId: number): Promise<Array<{ id: number; mn_id: string }>> {
  return db
    .selectFrom('nodes')
    .select(['id', 'mn_id'])
    .where('user_id', '=', userId)
    .where('state', '!=', 'deleted')
    .orderBy('id')
    .execute();
}

/** Live nodes per coin and kind, for the operator's status. */
export async function nodeCountsBySimulated(db: Q) {
  return db
    .selectFrom('node_view')
    .select(['simulated', (eb) => eb.fn.countAll<number>().as('n')])
    .where('state', 'not in', ['deleting', 'deleted'])
    .groupBy('simulated')
    .execute();
}

/** Hosted (not deleted) nodes per coin. */
export async function hostedCounts(db: Q): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('node_view')
    .select(['coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('state', 'not in', ['deleting', 'deleted', 'failed'])
    .groupBy('coin_id')
    .execute();
  return new Map(rows.map((r) => [r.coin_id, Number(r.n)]));
}

/** Live nodes per coin that hold real collateral (simulated ones hold none). */
export async function realNodeCounts(db: Q): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('node_view')
    .select(['coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('state', 'not in', ['deleting', 'deleted', 'failed'])
    .where('simulated', '=', 0)
    .groupBy('coin_id')
    .execute();
  return new Map(rows.map((r) => [r.coin_id, Number(r.n)]));
}

// The operator console's overview (issue 11)

/** Nodes asked for since `since`, and how many of those failed to start. */
export async function deploysSince(db: Q, since: number): Promise<{ total: number; failed: number }> {
  const row = await db
    .selectFrom('node_view')
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      (eb) => eb.fn.sum<number>(eb.case().when('state', '=', 'failed').then(1).else(0).end()).as('failed'),
    ])
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), failed: Number(row.failed ?? 0) };
}

/** The live nodes' oldest and newest monitor check (null with no live node checked yet). */
export async function monitorCheckSpread(
  db: Q,
): Promise<{ live: number; unchecked: number; oldest: number | null; newest: number | null }> {
  const row = await db
    .selectFrom('node_view')
    .select([
      (eb) => eb.fn.countAll<number>().as('live'),
      (eb) => eb.fn.sum<number>(eb.case().when('last_checked_at', 'is', null).then(1).else(0).end()).as('unchecked'),
      (eb) => eb.fn.min('last_checked_at').as('oldest'),
      (eb) => eb.fn.max('last_checked_at').as('newest'),
    ])
    .where('state', '=', 'live')
    .executeTakeFirstOrThrow();
  return {
    live: Number(row.live),
    unchecked: Number(row.unchecked ?? 0),
    oldest: row.oldest ?? null,
    newest: row.newest ?? null,
  };
}

/**
 * How many nodes were hosted at each instant (a day's end): created by then, not deleted
 * by then, and not failed (a failed node never ran for its owner).
 */
export async function hostedAt(db: Q, instants: number[]): Promise<number[]> {
  return Promise.all(
    instants.map(async (t) => {
      const row = await db
        .selectFrom('node_view')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('created_at', '<', t)
        .where('state', '!=', 'failed')
        .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>=', t)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }),
  );
}

export type NodeSearch = { q?: string; status?: string; coin?: string; page: number; perPage: number };

/**
 * The operator's node search: every node that exists, matched on its id, owner (name or
 * email), coin or address by `q`, and on status and coin exactly; newest first.
 */
export async function searchNodes(db: Q, s: NodeSearch) {
  let q = db
    .selectFrom('node_view')
    .leftJoin('hosts', 'hosts.id', 'node_view.host_id')
    .where('node_view.state', '!=', 'deleted');
  if (s.status) q = q.where('node_view.status', '=', s.status);
  if (s.coin) q = q.where('node_view.coin_id', '=', s.coin);
  if (s.q) {
    const like = `%${s.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`node_view.mn_id`, 'like', sql`${like} escape '\\'`),
        eb(sql`node_view.user_id`, 'in', userIdsMatching(like)),
        eb(sql`node_view.coin_id`, 'like', sql`${like} escape '\\'`),
        eb(sql`coalesce(node_view.server_ip, '')`, 'like', sql`${like} escape '\\'`),
        eb(sql`coalesce(node_view.server_ip6, '')`, 'like', sql`${like} escape '\\'`),
      ]),
    );
  }
  const [rows, total] = await Promise.all([
    q
      .select([
        'node_view.id',
        'node_view.mn_id',
        'node_view.coin_id',
        'node_view.user_id',
        usernameOf('node_view.user_id').as('username'),
        'node_view.package',
        'node_view.status',
        'node_view.state',
        'node_view.server_ip',
        'node_view.simulated',
        'node_view.failed_reason',
        'node_view.created_at',
        'hosts.name as host_name',
      ])
      .orderBy('node_view.id', 'desc')
      .limit(s.perPage)
      .offset((s.page - 1) * s.perPage)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The node's sync progress row (sync-progress.ts), or undefined before its first answer. */
export function findSyncRow(db: Q, nodeId: number) {
  return db.selectFrom('sync_progress').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
}

export function saveSyncRow(db: Q, nodeId: number, row: Omit<Insertable<SyncProgressTable>, 'node_id'>) {
  return db
    .insertInto('sync_progress')
    .values({ ...row, node_id: nodeId })
    .onConflict((oc) => oc.column('node_id').doUpdateSet(row))
    .execute();
}

import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { CHARGED, nextState, statesFor, type LifecycleEvent, type LifecycleState } from '../../shared/lifecycle';
import type { Database, Masternode, NodesTable } from '../db/schema';
import { withAddress } from './output-text';

type Q = Kysely<Database>;

/**
 * The nodes domain's SQL: the customer's node rows and their lifecycle. Readers get the
 * joined node_view (the fleet's placement and the monitor's observation of the node);
 * writers touch only `nodes`. Other domains read nodes through these functions.
 */

/** What its owner reads: the output text with the node's public ip:port once it has one (output-text.ts). */
const forOwner = (n: Masternode): Masternode =>
  n.output_text ? { ...n, output_text: withAddress(n.output_text, n.server_ip, n.p2p_port) } : n;

/** A user's node by its id; another user's id, or a deleted node, is "not found". */
export async function findUserNode(db: Q, userId: number, mnId: string): Promise<Masternode | undefined> {
  const n = await db
    .selectFrom('node_view')
    .selectAll()
    .where('mn_id', '=', mnId)
    .where('user_id', '=', userId)
    .where('state', 'not in', ['deleting', 'deleted'])
    .executeTakeFirst();
  return n && forOwner(n);
}

/** The user's nodes that exist for them (set up, live or failed), newest first. */
export async function listUserNodes(db: Q, userId: number): Promise<Masternode[]> {
  const rows = await db
    .selectFrom('node_view')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', 'not in', ['deleting', 'deleted'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(forOwner);
}

export function insertNodeRow(db: Q, n: Omit<Insertable<NodesTable>, 'state' | 'state_at'>) {
  const now = Date.now();
  return db
    .insertInto('nodes')
    .values({ ...n, state: 'requested', state_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Customer fields only (alias, payee, output text, secrets...), never the state. */
export function updateNodeRow(
  db: Q,
  id: number,
  patch: Omit<Updateable<NodesTable>, 'state' | 'state_at' | 'id' | 'mn_id' | 'user_id'>,
) {
  return db.updateTable('nodes').set(patch).where('id', '=', id).execute();
}

/**
 * Moves a node along its lifecycle (src/shared/lifecycle.ts) with a conditional update:
 * only from a state the event allows, so two racing callers cannot both move it (the
 * loser gets false). Other fields may change in the same statement.
 */
export async function transition(
  db: Q,
  id: number,
  event: LifecycleEvent,
  patch: Omit<Updateable<NodesTable>, 'state' | 'state_at' | 'id'> = {},
): Promise<LifecycleState | null> {
  const from = statesFor(event);
  const row = await db.selectFrom('nodes').select('state').where('id', '=', id).executeTakeFirst();
  if (!row || !from.includes(row.state)) return null;
  const to = nextState(row.state, event);
  const res = await db
    .updateTable('nodes')
    .set({ ...patch, state: to, state_at: Date.now() })
    .where('id', '=', id)
    .where('state', '=', row.state)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? to : null;
}

/** The node (any state) by id. */
export function findNodeById(db: Q, id: number): Promise<Masternode | undefined> {
  return db.selectFrom('node_view').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Has this coin's entry (a ZEN t_address) served a node before, on any account? */
export async function entryUsed(db: Q, coinIds: string[], entry: string): Promise<boolean> {
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('coin_id', 'in', coinIds)
    .where('entry', '=', entry)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Is this validator key running (or being set up) anywhere? */
export async function validatorKeyInUse(db: Q, pubkey: string): Promise<boolean> {
  // The same rows as the unique index nodes_validator_pubkey: a failed node never ran the key.
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('validator_pubkey', '=', pubkey)
    .where('state', 'not in', ['deleted', 'failed'])
    .where('failed_reason', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Any running node of the coin (a daemon to ask about the coin's chain). */
export function findLiveNodeOfCoin(db: Q, coinId: string): Promise<Masternode | undefined> {
  return db
    .selectFrom('node_view')
    .selectAll()
    .where('coin_id', '=', coinId)
    .where('state', '=', 'live')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * A deploy of this user for the same coin and entry that is still being set up or runs:
 * the same deploy sent twice (a double click, a retried script) finds the first one.
 */
export async function sameDeployExists(db: Q, userId: number, coinId: string, entry: string): Promise<boolean> {
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('user_id', '=', userId)
    .where('coin_id', '=', coinId)
    .where('entry', '=', entry)
    .where('state', 'in', ['requested', 'placing', 'provisioning', 'live'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user's nodes that hold or will hold a slot (everything but deleted and failed ones). */
export async function countUserNodes(db: Q, userId: number): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('state', 'not in', ['deleted', 'failed'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's nodes that hold a place and are charged now (lifecycle CHARGED), any plan. */
export async function countChargedNodes(db: Q, userId: number): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('state', 'in', CHARGED)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Per owner, how many charged nodes of this plan they hold: the fleet's use by account. */
export async function chargedNodesByOwner(
  db: Q,
  plan: 'dedicated' | 'cloud',
): Promise<{ user_id: number; n: number }[]> {
  const rows = await db
    .selectFrom('nodes')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('package', '=', plan)
    .where('state', 'in', CHARGED)
    .groupBy('user_id')
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, n: Number(r.n) }));
}

/**
 * How long a start claim holds: longer than the slowest start (a real daemon restarted
 * with a new key: stop, start, up to a minute to answer, and the undo on failure). A claim
 * older than this was left by a process that died meanwhile and may be taken again.
 */
export const START_CLAIM_MS = 5 * 60_000;

/**
 * A node's one start, claimed before its daemon is asked (register_submit, quick_setup):
 * false when it is started, claimed by a start under way (a racing second submit), or
 * being deleted.
 */
export async function claimStart(db: Q, id: number, at: number): Promise<boolean> {
  const res = await db
    .updateTable('nodes')
    .set({ start_claim_at: at })
    .where('id', '=', id)
    .where('started_at', 'is', null)
    .where((eb) => eb.or([eb('start_claim_at', 'is', null), eb('start_claim_at', '<', at - START_CLAIM_MS)]))
    .where('state', 'not in', ['deleting', 'deleted'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** When the node's start was claimed, if a start is (or was, expired) under way. */
export async function startClaimOf(db: Q, id: number): Promise<number | null> {
  const row = await db.selectFrom('nodes').select('start_claim_at').where('id', '=', id).executeTakeFirst();
  return row?.start_claim_at ?? null;
}

/** The daemon refused the start: the claim made at `at` is given back. */
export async function releaseStart(db: Q, id: number, at: number): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ start_claim_at: null })
    .where('id', '=', id)
    .where('start_claim_at', '=', at)
    .execute();
}

/**
 * The start claimed at `at` went through: recorded, and the output text's not_active
 * marker turned active (in SQL, so a change made meanwhile, a fee recipient say, is kept).
 * False when the node was deleted meanwhile (or the claim expired and was taken again).
 */
export async function completeStart(db: Q, id: number, at: number, now = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('nodes')
    .set({
      started_at: now,
      start_claim_at: null,
      output_text: sql<string>`replace(output_text, 'not_active', 'active')`,
    })
    .where('id', '=', id)
    .where('start_claim_at', '=', at)
    .where('state', 'not in', ['deleting', 'deleted'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * The monitor sees a node running whose start nobody recorded (started from the owner's
 * wallet): recorded once, its not_active marker turned active, so `started` is sent once
 * however the status flaps afterwards. Not while a start call holds a live claim (it sends
 * its own). False when already recorded.
 */
export async function noteFirstRun(db: Q, id: number, at: number): Promise<boolean> {
  const res = await db
    .updateTable('nodes')
    .set({
      started_at: at,
      start_claim_at: null,
      output_text: sql<string>`replace(output_text, 'not_active', 'active')`,
    })
    .where('id', '=', id)
    .where('started_at', 'is', null)
    .where((eb) => eb.or([eb('start_claim_at', 'is', null), eb('start_claim_at', '<', at - START_CLAIM_MS)]))
    .where('state', '=', 'live')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * A finished node: one the owner deleted and the control loop destroyed. Nothing shows
 * it any more; deletes up to `limit` (with its placement and observations).
 */
export async function pruneDestroyedNodes(db: Q, destroyedBefore: number, limit: number): Promise<number> {
  const ids = (
    await db
      .selectFrom('nodes')
      .select('id')
      .where('state', '=', 'deleted')
      .where('state_at', '<', destroyedBefore)
      .limit(limit)
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return 0;
  await db.deleteFrom('observations').where('node_id', 'in', ids).execute();
  await db.deleteFrom('placements').where('node_id', 'in', ids).execute();
  const res = await db.deleteFrom('nodes').where('id', 'in', ids).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Marks which nodes the simulator serves, from the daemon profiles in force now. */
export async function markSimulated(db: Q, simulatorProfiles: string[]) {
  const ids = simulatorProfiles.length ? simulatorProfiles : [''];
  const placedOn = (sim: boolean) => (eb: any) =>
    eb
      .selectFrom('placements')
      .select('node_id')
      .where('daemon_profile', sim ? 'in' : 'not in', ids);
  await db
    .updateTable('nodes')
    .set({ simulated: 1 })
    .where('id', 'in', placedOn(true))
    .where('simulated', '=', 0)
    .execute();
  await db
    .updateTable('nodes')
    .set({ simulated: 0 })
    .where('id', 'in', placedOn(false))
    .where('simulated', '=', 1)
    .execute();
}

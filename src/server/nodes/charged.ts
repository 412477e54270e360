import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { CHARGED } from '../../shared/lifecycle';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/*
 * The nodes that are charged, as billing and referrals ask for them: query builders they
 * complete with their own tables (the daily charge's node_charges, the reminders' ledger
 * accounts), so the rule of which node is charged stays here, with the nodes' SQL.
 */

export type ChargeableNode = {
  id: number;
  user_id: number;
  mn_id: string;
  coin_id: string;
  alias: string | null;
  hosting_price: number;
};

/**
 * The nodes that owe a fee for the day starting at `start`. The same rule as `CHARGED`
 * (src/shared/lifecycle.ts) asked of a past moment, so a catch-up after downtime charges
 * what existed then: created before the day began, never failed, and not deleted before it
 * began (a node destroyed for unpaid fees gets `deleted_at` = the start of the day it did
 * not pay, so it is charged neither that day nor after). Read from the index
 * `nodes_charged` alone.
 */
export function nodesChargedOn(db: Q, start: number) {
  return db
    .selectFrom('nodes')
    .where('failed_reason', 'is', null)
    .where('hosting_price', '>', 0)
    .where('created_at', '<', start)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', start)]));
}

/** What naming a node or destroying it needs, for the given ids. */
export function chargeableNodes(db: Q, ids: number[]): Promise<ChargeableNode[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('nodes')
    .select(['id', 'user_id', 'mn_id', 'coin_id', 'alias', 'hosting_price'])
    .where('id', 'in', sql<number>`(SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .execute();
}

/**
 * The nodes charged now, as `n`. `+`: not by the state index (every charged node, read again
 * for each window of users), by the user index the caller filters on.
 */
export function chargedNodesByUserIndex(db: Q) {
  return db.selectFrom('nodes as n').where(sql<boolean>`+n.state IN (${sql.join([...CHARGED])})`);
}

/** How many of the user's nodes are charged, and their daily fees together (micro-dollars). */
export async function chargedNodeTotals(db: Q, userId: number): Promise<{ count: number; daily: number }> {
  const row = await db
    .selectFrom('nodes')
    .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(hosting_price), 0)`.as('daily')])
    .where('user_id', '=', userId)
    .where('state', 'in', CHARGED)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), daily: Number(row.daily) };
}

/** How many charged nodes the owners a subquery names hold (a referrer's referred users). */
export async function countChargedNodesOf(
  db: Q,
  owners: SelectQueryBuilder<Database, 'users', { id: number }>,
): Promise<number> {
  const row = await db
    .selectFrom('nodes')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', 'in', owners)
    .where('state', 'in', CHARGED)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The owner of the node `nodeId` names (an SQL expression), as a scalar subquery: for billing's checks of old charge keys. */
export const ownerOfNode = (nodeId: RawBuilder<number>) =>
  sql<number>`(SELECT user_id FROM nodes WHERE id = ${nodeId})`;

/** The user's charged nodes with a fee, oldest first: the order the daily charge pays them in. */
export function chargedNodesOf(db: Q, userId: number): Promise<ChargeableNode[]> {
  return db
    .selectFrom('nodes')
    .select(['id', 'user_id', 'mn_id', 'coin_id', 'alias', 'hosting_price'])
    .where('user_id', '=', userId)
    .where('state', 'in', CHARGED)
    .where('hosting_price', '>', 0)
    .orderBy('id')
    .execute();
}

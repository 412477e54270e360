import type { Insertable, Kysely } from 'kysely';
import type { Database, NodeRewardsTable } from '../db/schema';

type Q = Kysely<Database>;

/** One reward, once per (node, paid height): a check seen twice writes it once. Answers whether it was new. */
export async function insertReward(db: Q, row: Insertable<NodeRewardsTable>): Promise<boolean> {
  const r = await db
    .insertInto('node_rewards')
    .values(row)
    .onConflict((oc) => oc.columns(['node_id', 'height']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The newest `limit` rewards of a user, or of one of their nodes. */
export function listRewards(db: Q, userId: number, limit: number, nodeId?: number) {
  let q = db
    .selectFrom('node_rewards')
    // A pruned node's rewards stay, without its alias.
    .leftJoin('nodes', 'nodes.id', 'node_rewards.node_id')
    .selectAll('node_rewards')
    .select('nodes.alias')
    .where('node_rewards.user_id', '=', userId);
  if (nodeId !== undefined) q = q.where('node_rewards.node_id', '=', nodeId);
  return q.orderBy('node_rewards.paid_at', 'desc').orderBy('node_rewards.id', 'desc').limit(limit).execute();
}

/** The user's nodes that still exist, counted by kind: only real ones can earn. */
export async function nodeKinds(db: Q, userId: number) {
  const rows = await db
    .selectFrom('nodes')
    .select(['simulated', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .where('state', 'not in', ['deleting', 'deleted', 'failed'])
    .groupBy('simulated')
    .execute();
  const n = (sim: number) => Number(rows.find((r) => r.simulated === sim)?.n ?? 0);
  return { real: n(0), simulated: n(1) };
}

/** How many rewards, and the USD they were worth when they arrived, since `since` (all time when 0). */
export async function rewardTotals(db: Q, userId: number, since: number, nodeId?: number) {
  let q = db
    .selectFrom('node_rewards')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number | null>('usd_micros').as('usd_micros'),
      eb.fn.count<number>('usd_micros').as('priced'),
    ])
    .where('user_id', '=', userId)
    .where('paid_at', '>=', since);
  if (nodeId !== undefined) q = q.where('node_id', '=', nodeId);
  const r = await q.executeTakeFirstOrThrow();
  return { count: Number(r.count), usdMicros: Number(r.usd_micros ?? 0), priced: Number(r.priced) };
}

import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, DaemonRolloutsTable, RolloutNodeState } from '../db/schema';

type Q = Kysely<Database>;

export function openRolloutOf(db: Q, coinId: string) {
  return db
    .selectFrom('daemon_rollouts')
    .selectAll()
    .where('coin_id', '=', coinId)
    .where('state', 'in', ['running', 'paused'])
    .executeTakeFirst();
}

export function findRollout(db: Q, id: number) {
  return db.selectFrom('daemon_rollouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function runningRollouts(db: Q) {
  return db.selectFrom('daemon_rollouts').selectAll().where('state', '=', 'running').orderBy('id').execute();
}

export function recentRollouts(db: Q, limit: number) {
  return db.selectFrom('daemon_rollouts').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

export async function insertRollout(db: Q, r: Omit<DaemonRolloutsTable, 'id' | 'current_batch'>): Promise<number> {
  return (await db.insertInto('daemon_rollouts').values(r).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateRollout(db: Q, id: number, patch: Updateable<DaemonRolloutsTable>): Promise<void> {
  await db.updateTable('daemon_rollouts').set(patch).where('id', '=', id).execute();
}

export async function insertRolloutNodes(
  db: Q,
  rolloutId: number,
  nodes: Array<{ node_id: number; batch: number; state: RolloutNodeState; error: string | null }>,
  now: number,
): Promise<void> {
  if (!nodes.length) return;
  await sql`
    INSERT INTO daemon_rollout_nodes (rollout_id, node_id, batch, state, error, updated_at)
    SELECT ${rolloutId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, ${now} FROM json_each(${JSON.stringify(nodes.map((n) => [n.node_id, n.batch, n.state, n.error]))})`.execute(
    db,
  );
}

export function batchNodes(db: Q, rolloutId: number, batch: number) {
  return db
    .selectFrom('daemon_rollout_nodes')
    .selectAll()
    .where('rollout_id', '=', rolloutId)
    .where('batch', '=', batch)
    .orderBy('node_id')
    .execute();
}

export async function setRolloutNode(
  db: Q,
  rolloutId: number,
  nodeId: number,
  state: RolloutNodeState,
  error: string | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('daemon_rollout_nodes')
    .set({ state, error, updated_at: now })
    .where('rollout_id', '=', rolloutId)
    .where('node_id', '=', nodeId)
    .execute();
}

/** Each rollout's nodes counted by state: the console's progress. */
export async function rolloutCounts(
  db: Q,
  ids: number[],
): Promise<Map<number, Partial<Record<RolloutNodeState, number>>>> {
  const out = new Map<number, Partial<Record<RolloutNodeState, number>>>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('daemon_rollout_nodes')
    .select(['rollout_id', 'state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('rollout_id', 'in', ids)
    .groupBy(['rollout_id', 'state'])
    .execute();
  for (const r of rows) out.set(r.rollout_id, { ...out.get(r.rollout_id), [r.state]: Number(r.n) });
  return out;
}

/** A rollout's nodes with what the console shows of each. */
export function rolloutNodeList(db: Q, rolloutId: number) {
  return db
    .selectFrom('daemon_rollout_nodes as r')
    .innerJoin('nodes as n', 'n.id', 'r.node_id')
    .select(['r.node_id', 'n.mn_id', 'n.user_id', 'r.batch', 'r.state', 'r.error'])
    .where('r.rollout_id', '=', rolloutId)
    .orderBy('r.batch')
    .orderBy('r.node_id')
    .execute();
}

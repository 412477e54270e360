import type { Insertable, Kysely } from 'kysely';
import type { Database, NodesTable, ObservationsTable, PlacementsTable } from '../../src/server/db/schema';

/**
 * Writes a node straight into the three tables (nodes, placements, observations), for
 * tests that need a node in a given state without running the fleet. `status` makes an
 * observation (what the monitor saw); `host_id` / `daemon_profile` make a placement.
 */
export async function insertTestNode(
  db: Kysely<Database>,
  n: Pick<Insertable<NodesTable>, 'mn_id' | 'user_id' | 'coin_id'> &
    Partial<Omit<Insertable<NodesTable>, 'mn_id' | 'user_id' | 'coin_id'>> & {
      status?: string;
      placement?: Partial<Omit<Insertable<PlacementsTable>, 'node_id'>>;
      observation?: Partial<Omit<Insertable<ObservationsTable>, 'node_id' | 'status'>>;
    },
): Promise<number> {
  const { status, placement, observation, ...fields } = n;
  const now = Date.now();
  const { id } = await db
    .insertInto('nodes')
    .values({ package: 'dedicated', state: 'live', created_at: now, state_at: fields.created_at ?? now, ...fields })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (placement)
    await db
      .insertInto('placements')
      .values({ daemon_profile: 'simulator-dash', ...placement, node_id: id })
      .execute();
  if (status !== undefined || observation)
    await db
      .insertInto('observations')
      .values({ status: status ?? 'unknown', ...observation, node_id: id })
      .execute();
  return id;
}

/** A node's daily fees, day by day, as the daily charge kept them (its owner's transfers hold the sums). */
export function nodeCharges(db: Kysely<Database>, nodeId: number): Promise<Array<{ day: string; amount: number }>> {
  return db.selectFrom('node_charges').select(['day', 'amount']).where('node_id', '=', nodeId).orderBy('day').execute();
}

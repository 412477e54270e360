import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/** The daemon version a node runs (null: its profile's). */
export async function placementVersion(db: Q, nodeId: number): Promise<string | null> {
  const row = await db
    .selectFrom('placements')
    .select('daemon_version')
    .where('node_id', '=', nodeId)
    .executeTakeFirst();
  return row?.daemon_version ?? null;
}

/** The daemon version each placed node of a coin runs, where one was set (others run their profile's). */
export async function nodeVersions(db: Q, coinId: string): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('placements as p')
    .innerJoin('nodes as n', 'n.id', 'p.node_id')
    .select(['p.node_id', 'p.daemon_version'])
    .where('n.coin_id', '=', coinId)
    .where('p.daemon_version', 'is not', null)
    .execute();
  return new Map(rows.map((r) => [r.node_id, r.daemon_version!]));
}

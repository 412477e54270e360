import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/**
 * Sessions that can no longer sign anyone in: expired, or revoked (logout, password
 * change), before `endedBefore`. Deletes up to `limit`; returns how many.
 */
export async function pruneEndedSessions(db: Q, endedBefore: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('sessions')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('sessions')
        .select('id')
        .where((w) => w.or([w('expires_at', '<', endedBefore), w('revoked_at', '<', endedBefore)]))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Page visits before `before`; up to `limit`. */
export async function prunePageVisits(db: Q, before: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('page_visits')
    .where('id', 'in', (eb) => eb.selectFrom('page_visits').select('id').where('at', '<', before).orderBy('id').limit(limit))
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

import type { Kysely, Updateable } from 'kysely';
import type { CoinChecksTable, Database } from '../db/schema';

type Q = Kysely<Database>;

export function insertCoinCheck(db: Q, c: { coin_id: string; profile_id: string; host_id: number | null }) {
  return db
    .insertInto('coin_checks')
    .values({ ...c, state: 'queued', requested_at: Date.now() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function findCoinCheck(db: Q, id: number) {
  return db.selectFrom('coin_checks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function updateCoinCheck(db: Q, id: number, patch: Updateable<CoinChecksTable>) {
  return db.updateTable('coin_checks').set(patch).where('id', '=', id).execute();
}

/** Is a check of the coin queued or running (one at a time per coin)? */
export async function coinCheckUnderWay(db: Q, coinId: string): Promise<boolean> {
  const row = await db
    .selectFrom('coin_checks')
    .select('id')
    .where('coin_id', '=', coinId)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return !!row;
}

/** The newest finished check per coin and host (the coin's readiness on that host). */
export function latestCoinChecks(db: Q) {
  return db
    .selectFrom('coin_checks as c')
    .selectAll('c')
    .where('c.state', 'in', ['passed', 'failed'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('coin_checks as n')
            .select('n.id')
            .whereRef('n.coin_id', '=', 'c.coin_id')
            .where((eb) => eb('n.host_id', 'is', eb.ref('c.host_id')))
            .where('n.state', 'in', ['passed', 'failed'])
            .whereRef('n.id', '>', 'c.id'),
        ),
      ),
    )
    .orderBy('c.id', 'desc')
    .execute();
}

/** The newest check of a coin, finished or not (what the console and `coins check` show). */
/** The newest check of every coin that has one, by coin: one query for the whole catalog. */
export async function newestCoinChecks(db: Q) {
  const rows = await db
    .selectFrom('coin_checks')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('coin_checks')
        .select((e) => e.fn.max('id').as('id'))
        .groupBy('coin_id'),
    )
    .execute();
  return new Map(rows.map((r) => [r.coin_id, r]));
}

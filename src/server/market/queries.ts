import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ExchangeTicker, PricePoint, Quote } from './provider';

type Q = Kysely<Database>;

/** History kept per coin: charts show the last 60 points, the rest is headroom. */
export const HISTORY_KEEP = 500;

export function upsertQuote(db: Q, coinId: string, provider: string, q: Quote, at: number) {
  const values = {
    price_usd: q.price_usd,
    volume_24h_usd: q.volume_24h_usd,
    market_cap_usd: q.market_cap_usd,
    change_24h_pct: q.change_24h_pct,
    provider,
    updated_at: at,
  };
  return db
    .insertInto('market_quotes')
    .values({ coin_id: coinId, ...values })
    .onConflict((oc) => oc.column('coin_id').doUpdateSet(values))
    .execute();
}

export function saveExchanges(db: Q, coinId: string, tickers: ExchangeTicker[]) {
  return db
    .updateTable('market_quotes')
    .set({ exchanges: JSON.stringify(tickers) })
    .where('coin_id', '=', coinId)
    .execute();
}

export async function addHistory(db: Q, coinId: string, points: PricePoint[]) {
  if (!points.length) return;
  for (let i = 0; i < points.length; i += 200) {
    await db
      .insertInto('market_history')
      .values(
        points.slice(i, i + 200).map((p) => ({
          coin_id: coinId,
          at: p.at,
          price_usd: p.price_usd,
          volume_24h_usd: p.volume_24h_usd,
          market_cap_usd: p.market_cap_usd,
        })),
      )
      .onConflict((oc) => oc.columns(['coin_id', 'at']).doNothing())
      .execute();
  }
  const cutoff = await db
    .selectFrom('market_history')
    .select('at')
    .where('coin_id', '=', coinId)
    .orderBy('at', 'desc')
    .offset(HISTORY_KEEP)
    .limit(1)
    .executeTakeFirst();
  if (cutoff)
    await db.deleteFrom('market_history').where('coin_id', '=', coinId).where('at', '<=', cutoff.at).execute();
}

export function allQuotes(db: Q) {
  return db.selectFrom('market_quotes').selectAll().execute();
}

export function findQuote(db: Q, coinId: string) {
  return db.selectFrom('market_quotes').selectAll().where('coin_id', '=', coinId).executeTakeFirst();
}

/** The last `n` points, oldest first. */
export async function lastHistory(db: Q, coinId: string, n: number) {
  const rows = await db
    .selectFrom('market_history')
    .selectAll()
    .where('coin_id', '=', coinId)
    .orderBy('at', 'desc')
    .limit(n)
    .execute();
  return rows.reverse();
}

export async function historyCounts(db: Q): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('market_history')
    .select(['coin_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('coin_id')
    .execute();
  return new Map(rows.map((r) => [r.coin_id, Number(r.n)]));
}

import type { Kysely, Updateable } from 'kysely';
import type { CoinsTable, Database } from '../db/schema';
import type { CatalogCoin, CoinDetails } from './catalog-file';

type Q = Kysely<Database>;

export function listCoins(db: Q) {
  return db.selectFrom('coins').selectAll().orderBy('position').execute();
}

export function findCoin(db: Q, id: string) {
  return db.selectFrom('coins').selectAll().where('id', '=', id).executeTakeFirst();
}

export function coinDetails(row: { details: string }): CoinDetails {
  return JSON.parse(row.details) as CoinDetails;
}

const flag = (b: boolean) => (b ? 1 : 0);

/** A catalog entry as the coins row it becomes. */
export function columns(c: CatalogCoin, position: number) {
  return {
    id: c.id,
    position,
    label: c.label,
    ticker: c.ticker,
    family: c.family,
    collateral: c.collateral,
    dedicated_price: c.dedicated_price,
    cloud_price: c.cloud_price,
    campaign: flag(c.campaign),
    campaign_dedicated_price: c.campaign_dedicated_price,
    campaign_cloud_price: c.campaign_cloud_price,
    cloud: flag(c.cloud),
    maintenance: flag(c.maintenance),
    delisted: flag(c.delisted),
    kyd: flag(c.kyd),
    dip003: flag(c.dip003),
    dip003_restrict: flag(c.dip003_restrict),
    monero: flag(c.monero),
    validator_evm: flag(c.validator_evm),
    market_id: c.market_id,
    details: JSON.stringify(c.details),
    updated_at: Date.now(),
  };
}

/** Inserts a coin, or replaces every field of an existing one. */
export function upsertCoin(db: Q, c: CatalogCoin, position: number) {
  const values = columns(c, position);
  const { id: _id, ...rest } = values;
  return db
    .insertInto('coins')
    .values(values)
    .onConflict((oc) => oc.column('id').doUpdateSet(rest))
    .execute();
}

/** Inserts a coin only if it is new: what the operator changed in the database stays. */
export function insertCoinIfNew(db: Q, c: CatalogCoin, position: number) {
  return db
    .insertInto('coins')
    .values(columns(c, position))
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
}

export function updateCoin(db: Q, id: string, patch: Updateable<CoinsTable>) {
  return db
    .updateTable('coins')
    .set({ ...patch, updated_at: Date.now() })
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function maxPosition(db: Q): Promise<number> {
  const row = await db
    .selectFrom('coins')
    .select((eb) => eb.fn.max('position').as('p'))
    .executeTakeFirst();
  return Number(row?.p ?? -1);
}

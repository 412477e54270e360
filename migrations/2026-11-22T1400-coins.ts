import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
export async function up(db: Kysely<any>): Promise<void> {
  // The catalog as imported from catalog/*.json; the operator's CLI changes prices and
  // switches here. Prices are integer micro-dollars per day.
  await db.schema
    .createTable('coins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('collateral', 'text', (c) => c.notNull())
    .addColumn('dedicated_price', 'integer', (c) => c.notNull().check(sql`dedicated_price >= 0`))
    .addColumn('cloud_price', 'integer', (c) => c.notNull().check(sql`cloud_price >= 0`))
    .addColumn('campaign', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('campaign_dedicated_price', 'integer', (c) => c.notNull())
    .addColumn('campaign_cloud_price', 'integer', (c) => c.notNull())
    .addColumn('cloud', 'integer', (c) => c.notNull())
    .addColumn('maintenance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delisted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kyd', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dip003', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('dip003_restrict', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('monero', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('validator_evm', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('market_id', 'text')
    // alerts, links, specifications, reward parameters, demo market figures, sources
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();

  // Latest market figures per coin. Market data is information from a price API, not
  // money: kept as floating point, never used for a charge.
  await db.schema
    .createTable('market_quotes')
    .addColumn('coin_id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('price_usd', 'real', (c) => c.notNull())
    .addColumn('volume_24h_usd', 'real', (c) => c.notNull())
    .addColumn('market_cap_usd', 'real', (c) => c.notNull())
    .addColumn('change_24h_pct', 'real')
    .addColumn('exchanges', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('market_history')
    .addColumn('coin_id', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('price_usd', 'real', (c) => c.notNull())
    .addColumn('volume_24h_usd', 'real', (c) => c.notNull())
    .addColumn('market_cap_usd', 'real', (c) => c.notNull())
    .addPrimaryKeyConstraint('market_history_pk', ['coin_id', 'at'])
    .execute();

  // Hosted nodes. The fleet (a later migration) adds what it needs to run them; the
  // catalog only counts them.
  await db.schema
    .createTable('masternodes')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('mn_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('coin_id', 'text', (c) => c.notNull().references('coins.id'))
    .addColumn('package', 'text', (c) => c.notNull().check(sql`package in ('dedicated', 'cloud')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('deleted_at', 'integer')
    .execute();
  await db.schema.createIndex('masternodes_coin').on('masternodes').columns(['coin_id', 'deleted_at']).execute();
  await db.schema.createIndex('masternodes_user').on('masternodes').columns(['user_id', 'deleted_at']).execute();
}

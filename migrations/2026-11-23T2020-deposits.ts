import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Crypto deposits (issue 10). `deposit_currencies`: what the operator accepts and the
// watch-only source of each (an extended public key with a Bitcoin-family daemon, or a
// Monero-family view-only wallet RPC); the daemon's RPC password is sealed. `next_index`
// is the next derivation index to hand out and `imported_to` how far the daemon's
// watch-only wallet was told to look (exclusive), so the watcher can grow it ahead.
// `deposit_addresses`: one address per user and currency, its index unique per currency.
// `deposits`: every payment seen on chain (txid and output, or subaddress for Monero),
// pending until credited once at the currency's confirmations; a reorg marks it removed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('deposit_currencies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('icon_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('bitcoin', 'monero')`))
    .addColumn('confirmations', 'integer', (c) => c.notNull().check(sql`confirmations between 1 and 1000`))
    .addColumn('minimum', 'integer', (c) => c.notNull().check(sql`minimum >= 10000`))
    .addColumn('price_coin', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`enabled in (0, 1)`),
    )
    .addColumn('xpub', 'text')
    .addColumn('address_type', 'text')
    .addColumn('rpc_url', 'text', (c) => c.notNull())
    .addColumn('rpc_user', 'text')
    .addColumn('rpc_password', 'text')
    .addColumn('rpc_cookie', 'text')
    .addColumn('wallet', 'text')
    .addColumn('next_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported_to', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cursor', 'text')
    .addColumn('watch_from', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('deposit_addresses')
    .addColumn('currency_id', 'text', (c) => c.notNull().references('deposit_currencies.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('deposit_addresses_pk', ['currency_id', 'user_id'])
    .addUniqueConstraint('deposit_addresses_idx', ['currency_id', 'idx'])
    .addUniqueConstraint('deposit_addresses_address', ['currency_id', 'address'])
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('currency_id', 'text', (c) => c.notNull().references('deposit_currencies.id'))
    .addColumn('txid', 'text', (c) => c.notNull())
    .addColumn('vout', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    // Atomic units (satoshi, piconero) as decimal text: Monero amounts can pass 2^53.
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'credited', 'below_minimum', 'removed')`),
    )
    .addColumn('usd_micros', 'integer')
    .addColumn('seen_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('deposits_output', ['currency_id', 'txid', 'vout'])
    .execute();
  await db.schema.createIndex('deposits_user_state').on('deposits').columns(['user_id', 'state']).execute();
  await db.schema.createIndex('deposits_currency_state').on('deposits').columns(['currency_id', 'state']).execute();
}

import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The rewards a (real) node was paid, one row per new paid height the monitor saw. The
// amount is the node's share of a block's reward from the catalog (daemons report heights,
// not amounts), in 1e-8 units; the USD value is priced from the quote the platform held
// when the reward was seen, kept as it was then. No foreign key to nodes: a destroyed
// node's rewards stay in its owner's history after the node row is pruned.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('node_rewards')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('node_id', 'integer', (c) => c.notNull())
    .addColumn('mn_id', 'text', (c) => c.notNull())
    .addColumn('coin_id', 'text', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('paid_at', 'integer', (c) => c.notNull())
    .addColumn('amount_atomic', 'integer', (c) => c.notNull())
    .addColumn('price_usd', 'real')
    .addColumn('usd_micros', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('node_rewards_node_height')
    .on('node_rewards')
    .columns(['node_id', 'height'])
    .unique()
    .execute();
  await db.schema.createIndex('node_rewards_user_paid').on('node_rewards').columns(['user_id', 'paid_at']).execute();
}

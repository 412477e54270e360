import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A destroyed validator's EIP-3076 slashing-protection file, kept for its owner for 30
// days. Keyed by the node's id text (mn_id, never reused) and standing alone: the node's
// own row is pruned a week after it is destroyed, while the file must outlive it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('validator_exit_files')
    .addColumn('mn_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('coin_id', 'text', (c) => c.notNull())
    .addColumn('alias', 'text')
    .addColumn('pubkey', 'text', (c) => c.notNull())
    .addColumn('interchange', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('validator_exit_files_user')
    .on('validator_exit_files')
    .columns(['user_id', 'expires_at'])
    .execute();
}

import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A syncing node's progress, one row per node, written by the monitor: the chain's target
// height (headers), when its blocks last rose (a stall is measured from it), and two
// reference points of a sliding window the estimate's rate is taken over. The stall alert's
// state sits with the node's other alert states (node_alerts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sync_progress')
    .addColumn('node_id', 'integer', (c) => c.primaryKey().references('nodes.id').onDelete('cascade'))
    .addColumn('blocks', 'integer')
    .addColumn('headers', 'integer')
    .addColumn('synced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rose_at', 'integer', (c) => c.notNull())
    .addColumn('ref_blocks', 'integer', (c) => c.notNull())
    .addColumn('ref_at', 'integer', (c) => c.notNull())
    .addColumn('mid_blocks', 'integer', (c) => c.notNull())
    .addColumn('mid_at', 'integer', (c) => c.notNull())
    // Blocks per second over the window, null until blocks rose within it.
    .addColumn('rate', 'real')
    .execute();
  // 1 once a stall was told (raised once per stall), 0 again when the node moves on.
  await db.schema
    .alterTable('node_alerts')
    .addColumn('sync_stall_raised', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

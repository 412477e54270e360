import { type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// `node_running` is told once per node, when it first runs (node_deployed now says
// "deployed and syncing"). Nodes with an alert state already were told "deployed and
// running" at their deploy: they are counted as told, so none hears it twice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('node_alerts')
    .addColumn('running_raised', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.updateTable('node_alerts').set({ running_raised: 1 }).execute();
}

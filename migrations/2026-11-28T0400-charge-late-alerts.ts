import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// One row per UTC day whose daily charge was not completed by 01:00 UTC and for which the
// operators were told: the primary key makes the alert once per day across restarts and
// processes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('charge_late_alerts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('alerted_at', 'integer', (c) => c.notNull())
    .execute();
}

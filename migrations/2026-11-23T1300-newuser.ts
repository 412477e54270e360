import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
export async function up(db: Kysely<any>): Promise<void> {
  // 1 when the coin-daemon simulator serves the node: shown as "Simulated" to its owner and
  // the operator, and never counted as earning. The server re-derives it from the daemon
  // profiles at every start, so rows made before this column get it right too.
  await db.schema
    .alterTable('masternodes')
    .addColumn('simulated', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

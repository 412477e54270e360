import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// What each host last said of its disk (the fleet's host check), and since when it has
// been short of space: set when free space falls below the operator's threshold (the
// operators are alerted then, once), cleared when it is back above; placement passes a
// host while it is set. Null: never measured, or the engine cannot say.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE hosts ADD COLUMN disk_free_bytes INTEGER`.execute(db);
  await sql`ALTER TABLE hosts ADD COLUMN disk_total_bytes INTEGER`.execute(db);
  await sql`ALTER TABLE hosts ADD COLUMN disk_checked_at INTEGER`.execute(db);
  await sql`ALTER TABLE hosts ADD COLUMN disk_low_at INTEGER`.execute(db);
}

import type { Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// A host's memory, as the host check reads it: placement counts what its nodes commit
// (each daemon profile's resources) against it, as it does disk.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('hosts').addColumn('memory_total_bytes', 'integer').execute();
}

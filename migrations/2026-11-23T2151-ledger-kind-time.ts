import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The console's daily charge runs add up the charge transfers of each recent day; by
// kind and time that is a range read rather than a scan of the whole ledger.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX ledger_kind_time ON ledger_transfers (kind, created_at)`.execute(db);
}

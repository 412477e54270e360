import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// What /metrics reads at every scrape, answered from indexes instead of table scans:
// - a day's transfers of one kind (the daily charge's total per day), covering: the sum
//   is read from the index alone;
// - deposits counted by state (the existing indexes lead with the user or the currency);
// - customers counted by state from a narrow index instead of the wide user rows.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX ledger_transfers_kind_at ON ledger_transfers (kind, created_at, amount)`.execute(db);
  await sql`CREATE INDEX deposits_state ON deposits (state)`.execute(db);
  await sql`CREATE INDEX users_role_state ON users (role, disabled_at, verified_at)`.execute(db);
}

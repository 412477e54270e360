import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The operator may revoke a gift code that nobody redeemed yet (a batch sent to the
// wrong list, a leaked code): `revoked_at` is set once, and redemption refuses the code
// from then on. A redeemed code cannot be revoked; its credit stands.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE gift_codes ADD COLUMN revoked_at INTEGER`.execute(db);
  await sql`CREATE INDEX gift_codes_batch ON gift_codes (batch)`.execute(db);
}

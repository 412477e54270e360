import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Who referred a user, as the referrer's id, fixed at registration. `users.referrer`
// keeps the code as it was sent (any text, for the record); the id is what the
// affiliate page and the referral bonus go by, so a code that names nobody, the user's
// own name or a name registered later can never make a referral or move one.
//
// Rows from before: resolved the way registration resolves a code (trimmed, any case),
// and only to an account that existed before the referred user's.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('referrer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`
    UPDATE users SET referrer_id = (
      SELECT r.id FROM users r
      WHERE r.username_key = lower(trim(users.referrer)) AND r.id != users.id AND r.created_at <= users.created_at
    )
    WHERE referrer IS NOT NULL`.execute(db);
  await db.schema.createIndex('users_referrer_id').on('users').columns(['referrer_id', 'created_at']).execute();
}

import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Referral bonuses are held before they are paid (src/server/referrals/README.md):
// - `users.registered_ip`: the address an account registered from, compared with the
//   referrer's addresses (null for accounts from before: their logins still count);
// - `card_sessions.card_fingerprint`: Stripe's fingerprint of the card that paid a
//   session, recorded when it is credited, so a referrer's own card is recognised;
// - `referral_bonuses`: one row per referred user, ever (unique), from the first
//   qualifying deposit on. No money moves until a pending row matures (`matures_at`):
//   then the ledger transfer `referral-bonus:<referred user id>` is posted and the row
//   becomes paid. Cancelled (the deposit refunded or disputed), refused (the operator,
//   or a shared address or card) and paid are final.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('registered_ip', 'text').execute();
  await db.schema.alterTable('card_sessions').addColumn('card_fingerprint', 'text').execute();
  await sql`CREATE INDEX card_sessions_fingerprint ON card_sessions (card_fingerprint, user_id) WHERE card_fingerprint IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE referral_bonuses (
      id INTEGER PRIMARY KEY,
      referred_user_id INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      referrer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      deposit_transfer_id INTEGER NOT NULL,
      amount INTEGER NOT NULL CHECK (amount > 0),
      status TEXT NOT NULL CHECK (status IN ('pending', 'awaiting_approval', 'paid', 'cancelled', 'refused')),
      reason TEXT,
      created_at INTEGER NOT NULL,
      matures_at INTEGER NOT NULL,
      decided_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      decided_at INTEGER
    ) STRICT`.execute(db);
  await sql`CREATE INDEX referral_bonuses_referrer ON referral_bonuses (referrer_id, created_at)`.execute(db);
  await sql`CREATE INDEX referral_bonuses_due ON referral_bonuses (status, matures_at)`.execute(db);
  await sql`CREATE INDEX referral_bonuses_deposit ON referral_bonuses (deposit_transfer_id)`.execute(db);
}

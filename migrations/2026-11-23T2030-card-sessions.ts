import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Stripe Checkout sessions a user opened to pay by card. `id` is Stripe's session id;
// `amount` (micro-dollars) and `currency` are what we asked Stripe for, compared with
// every webhook before anything is credited. `request_key` is the Idempotency-Key sent
// with the create call (unique: a repeated request answers the session it made). The
// credit itself is a ledger transfer keyed `card:<id>`; `status` only says what the user
// sees: pending until paid (credited), cancelled (by the user) or expired (by Stripe).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE card_sessions (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      amount INTEGER NOT NULL CHECK (amount > 0),
      currency TEXT NOT NULL,
      url TEXT NOT NULL,
      request_key TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled', 'expired')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`CREATE INDEX card_sessions_user_status ON card_sessions (user_id, status)`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Card refunds and disputes (issue 21).
// - `card_sessions.payment_intent`: Stripe's PaymentIntent of a paid session, recorded when
//   its payment is credited; a charge's refund or dispute names it, and is matched by it.
// - `card_reversals`: per paid session, the largest `amount_refunded` seen (`refunded`) and
//   what is taken back from the customer now (`taken`), both micro-dollars, never above the
//   credited amount. Every event recomputes what should be taken and posts the difference.
// - `card_disputes`: one row per Stripe dispute, its amount and where it stands.
// - `card_events`: the Stripe event ids applied, so a delivery repeated is applied once.
// - A debt is the ledger account `debt:<user id>`: what the customer owes after a reversal
//   their balance did not cover. It is an asset of the platform (debits >= credits); the
//   trigger refuses, in the very statement, a payment that would take it past zero.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE card_sessions ADD COLUMN payment_intent TEXT`.execute(db);
  await sql`CREATE UNIQUE INDEX card_sessions_payment_intent ON card_sessions (payment_intent) WHERE payment_intent IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE TABLE card_reversals (
      session_id TEXT PRIMARY KEY REFERENCES card_sessions (id) ON DELETE CASCADE,
      refunded INTEGER NOT NULL DEFAULT 0 CHECK (refunded >= 0),
      taken INTEGER NOT NULL DEFAULT 0 CHECK (taken >= 0),
      updated_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`
    CREATE TABLE card_disputes (
      id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES card_sessions (id) ON DELETE CASCADE,
      amount INTEGER NOT NULL CHECK (amount >= 0),
      status TEXT NOT NULL CHECK (status IN ('open', 'won', 'lost')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`CREATE INDEX card_disputes_session ON card_disputes (session_id)`.execute(db);
  await sql`
    CREATE TABLE card_events (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      session_id TEXT NOT NULL,
      applied_at INTEGER NOT NULL
    ) STRICT`.execute(db);
  await sql`
    CREATE TRIGGER debt_not_overpaid AFTER UPDATE OF credits ON ledger_accounts
    WHEN NEW.account LIKE 'debt:%' AND NEW.credits > NEW.debits
    BEGIN SELECT raise(abort, 'debt_not_overpaid'); END`.execute(db);
}

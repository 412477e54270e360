import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Operator-made gift codes. The code itself is shown once by the CLI and never stored:
// `code_hash` is the SHA-256 of its normalized form (upper case, no separators), so a
// reader of the database cannot redeem one; `hint` (its last four characters) lets the
// operator tell codes apart in `coupons list`. Single use: `redeemed_by` is set once, in
// the transaction that posts the credit (ledger key `coupon:<id>`).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE gift_codes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      code_hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      amount INTEGER NOT NULL CHECK (amount > 0),
      expires_at INTEGER NOT NULL,
      batch TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      redeemed_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
      redeemed_at INTEGER
    ) STRICT`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Less work per transfer, the same rules (the daily charge posts one per owner, a
// hundred thousand a day on a large platform):
// - `ledger_kind_time (kind, created_at)` is a prefix of `ledger_transfers_kind_at (kind,
//   created_at, amount)`: two helpers added one each; every read it served the other serves.
// - The trigger makes an account's row with `ON CONFLICT DO NOTHING` (one seek) instead of
//   a NOT EXISTS read and an insert. The row it makes is (0, 0), which the balance CHECK
//   accepts, so the upsert never trips it (the reason the amount is added apart).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX ledger_kind_time`.execute(db);
  await sql`DROP TRIGGER ledger_post`.execute(db);
  await sql`
    CREATE TRIGGER ledger_post AFTER INSERT ON ledger_transfers
    BEGIN
      INSERT INTO ledger_accounts (account) VALUES (NEW.debit_account) ON CONFLICT DO NOTHING;
      INSERT INTO ledger_accounts (account) VALUES (NEW.credit_account) ON CONFLICT DO NOTHING;
      UPDATE ledger_accounts SET debits = debits + NEW.amount WHERE account = NEW.debit_account;
      UPDATE ledger_accounts SET credits = credits + NEW.amount WHERE account = NEW.credit_account;
    END`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// Posted counters per ledger account. A balance was a SUM over the account's whole
// history, read inside every debit; now each account keeps the totals of what was
// debited from it and credited to it, updated by a trigger in the very statement that
// inserts a transfer, so no writer (server, CLI, a future one) can post a transfer
// without moving the counters, and a failed insert moves nothing.
//
// A user's balance never goes below zero: the CHECK fails the insert that would take it
// there, inside the writer's transaction, whatever the writer checked before. Platform
// accounts (revenue, clearing, expense) may be negative by design: they are the other
// side of what users hold.
//
// `meta` carries what a transfer was computed from (a deposit's price and its source,
// the txid, a card session), as JSON, for the record; never read back to move money.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE ledger_accounts (
      account TEXT PRIMARY KEY,
      debits INTEGER NOT NULL DEFAULT 0,
      credits INTEGER NOT NULL DEFAULT 0,
      CONSTRAINT user_balance_not_negative CHECK (account NOT LIKE 'user:%' OR credits >= debits)
    ) STRICT`.execute(db);
  await sql`
    INSERT INTO ledger_accounts (account, debits, credits)
    SELECT account, sum(debits), sum(credits) FROM (
      SELECT debit_account AS account, amount AS debits, 0 AS credits FROM ledger_transfers
      UNION ALL
      SELECT credit_account, 0, amount FROM ledger_transfers
    ) GROUP BY account`.execute(db);
  // Make the row first, then add: an upsert would test the CHECK on its candidate row
  // (debits only, credits 0) before finding the conflict, and refuse every debit.
  await sql`
    CREATE TRIGGER ledger_post AFTER INSERT ON ledger_transfers
    BEGIN
      INSERT INTO ledger_accounts (account) SELECT NEW.debit_account WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE account = NEW.debit_account);
      INSERT INTO ledger_accounts (account) SELECT NEW.credit_account WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts WHERE account = NEW.credit_account);
      UPDATE ledger_accounts SET debits = debits + NEW.amount WHERE account = NEW.debit_account;
      UPDATE ledger_accounts SET credits = credits + NEW.amount WHERE account = NEW.credit_account;
    END`.execute(db);
  await sql`
    CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts
    BEGIN SELECT raise(abort, 'ledger accounts are kept'); END`.execute(db);
  await db.schema.alterTable('ledger_transfers').addColumn('meta', 'text').execute();
  // A transfer from an account to itself would move nothing and count twice.
  await sql`
    CREATE TRIGGER ledger_distinct_accounts BEFORE INSERT ON ledger_transfers
    WHEN NEW.debit_account = NEW.credit_account
    BEGIN SELECT raise(abort, 'a transfer needs two different accounts'); END`.execute(db);
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/** One ledger line of an account: signed from its side (negative when the balance went down). */
export type AccountEntry = { id: number; created_at: number; description: string; signed: number };

/**
 * The account's transfers with `from <= created_at < to`, oldest first, each read through
 * the index of its side (debit, credit).
 */
export async function accountEntries(db: Q, account: string, from: number, to: number): Promise<AccountEntry[]> {
  const { rows } = await sql<AccountEntry>`
    SELECT id, created_at, description, -amount AS signed FROM ledger_transfers
      WHERE debit_account = ${account} AND created_at >= ${from} AND created_at < ${to}
    UNION ALL
    SELECT id, created_at, description, amount FROM ledger_transfers
      WHERE credit_account = ${account} AND created_at >= ${from} AND created_at < ${to}
    ORDER BY id`.execute(db);
  return rows;
}

/** The account's balance from its transfers made before `before` (a statement's opening balance). */
export async function balanceBefore(db: Q, account: string, before: number): Promise<number> {
  const { rows } = await sql<{ b: number }>`
    SELECT coalesce((SELECT sum(amount) FROM ledger_transfers WHERE credit_account = ${account} AND created_at < ${before}), 0)
         - coalesce((SELECT sum(amount) FROM ledger_transfers WHERE debit_account = ${account} AND created_at < ${before}), 0) AS b`.execute(
    db,
  );
  return Number(rows[0]?.b ?? 0);
}

/** When the account's first transfer was made; null when it has none. */
export async function firstEntryAt(db: Q, account: string): Promise<number | null> {
  const { rows } = await sql<{ at: number | null }>`
    SELECT min(at) AS at FROM (
      SELECT min(created_at) AS at FROM ledger_transfers WHERE debit_account = ${account}
      UNION ALL SELECT min(created_at) FROM ledger_transfers WHERE credit_account = ${account}
    )`.execute(db);
  return rows[0]?.at ?? null;
}

import { sql, type Kysely } from 'kysely';
import type { Micros } from '../../shared/money';
import type { Database } from '../db/schema';
import type { TransferKind } from './ledger';

type Q = Kysely<Database>;

/**
 * Balances of every account that is not a user's (the platform's few), from their
 * posted counters. Two range reads on the primary key around the `user:` accounts,
 * however many users there are.
 */
export async function nonUserBalances(db: Q): Promise<Array<{ account: string; balance: Micros }>> {
  const { rows } = await sql<{ account: string; balance: number }>`
    SELECT account, credits - debits AS balance FROM ledger_accounts WHERE account < 'user:' OR account >= 'user;'
    ORDER BY account`.execute(db);
  return rows.map((r) => ({ account: r.account, balance: Number(r.balance) }));
}

/**
 * What all users hold together. Every transfer moves an amount from one account to
 * another, so all balances sum to zero: the users' total is minus the sum of the other
 * accounts' (nonUserBalances), read without visiting a user's row.
 */
export async function customerBalancesTotal(db: Q): Promise<Micros> {
  const others = await nonUserBalances(db);
  return -others.reduce((sum, a) => sum + a.balance, 0);
}

/** Transfers of one kind posted in [from, to): how many and their total. Covered by the `ledger_transfers_kind_at` index. */
export async function transfersOfKind(db: Q, kind: TransferKind, from: number, to: number): Promise<{ count: number; total: Micros }> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('total')])
    .where('kind', '=', kind)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), total: Number(row.total) };
}

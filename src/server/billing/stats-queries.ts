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

/** Transfers of one kind posted in [from, to) (and up to transfer `upToId`): how many and their total. Covered by the `ledger_transfers_kind_at` index. */
export async function transfersOfKind(
  db: Q,
  kind: TransferKind,
  from: number,
  to: number,
  upToId?: number,
): Promise<{ count: number; total: Micros }> {
  let q = db
    .selectFrom('ledger_transfers')
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('total'),
    ])
    .where('kind', '=', kind)
    .where('created_at', '>=', from)
    .where('created_at', '<', to);
  if (upToId !== undefined) q = q.where('id', '<=', upToId);
  const row = await q.executeTakeFirstOrThrow();
  return { count: Number(row.n), total: Number(row.total) };
}

/**
 * Transfers of one kind in [from, to) among those written after transfer `afterId`, and
 * the newest transfer id of any kind: a read of the new rows only (a range of the
 * primary key), for totals kept up to date at every scrape. Ids are handed out by the
 * one writer in commit order, so no row appears below an id already read.
 */
export async function transfersOfKindAfter(
  db: Q,
  kind: TransferKind,
  afterId: number,
  from: number,
  to: number,
): Promise<{ count: number; total: Micros; maxId: number }> {
  const { rows } = await sql<{ n: number; total: number; max_id: number | null }>`
    SELECT count(*) FILTER (WHERE kind = ${kind} AND created_at >= ${from} AND created_at < ${to}) AS n,
           coalesce(sum(amount) FILTER (WHERE kind = ${kind} AND created_at >= ${from} AND created_at < ${to}), 0) AS total,
           max(id) AS max_id
    FROM ledger_transfers WHERE id > ${afterId}`.execute(db);
  const r = rows[0];
  return {
    count: Number(r?.n ?? 0),
    total: Number(r?.total ?? 0),
    maxId: r?.max_id === null || r?.max_id === undefined ? afterId : Number(r.max_id),
  };
}

/** The newest transfer's id (0: none). */
export async function lastTransferId(db: Q): Promise<number> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

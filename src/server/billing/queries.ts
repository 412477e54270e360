import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema';
import { CHARGED } from '../../shared/lifecycle';
import { userAccount } from './ledger';


/** How many of the user's nodes are charged, and their daily fees together (micro-dollars). */
export async function chargedNodeTotals(db: Kysely<Database>, userId: number): Promise<{ count: number; daily: number }> {
  const row = await db
    .selectFrom('nodes')
    .select([sql<number>`count(*)`.as('count'), sql<number>`coalesce(sum(hosting_price), 0)`.as('daily')])
    .where('user_id', '=', userId)
    .where('state', 'in', CHARGED)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), daily: Number(row.daily) };
}

/** A page of the transfers that moved the user's balance, newest first, with the total count. */
export async function userTransfers(db: Kysely<Database>, userId: number, page: number, perPage: number) {
  const account = userAccount(userId);
  const touching = db.selectFrom('ledger_transfers').where((eb) => eb.or([eb('debit_account', '=', account), eb('credit_account', '=', account)]));
  const [rows, total] = await Promise.all([
    touching
      .select(['id', 'debit_account', 'amount', 'description', 'created_at'])
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    touching.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, signed: r.debit_account === account ? -r.amount : r.amount })), total: Number(total.n) };
}

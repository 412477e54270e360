import { sql, type Kysely } from 'kysely';
import { CHARGED } from '../../shared/lifecycle';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

export type ChargeableNode = { id: number; user_id: number; mn_id: string; coin_id: string; alias: string | null; hosting_price: number };

/**
 * The nodes that owe a fee for the day starting at `start`, after node id `after`, by id
 * (oldest first), `limit` of them. The same rule as `CHARGED` (src/shared/lifecycle.ts)
 * asked of a past moment, so a catch-up after downtime charges what existed then: created
 * before the day began, never failed, and not deleted before it began (a node destroyed
 * for unpaid fees gets `deleted_at` = the start of the day it did not pay, so it is
 * charged neither that day nor after).
 */
export function nodesChargedOn(db: Q, start: number, after: number, limit: number): Promise<Array<Pick<ChargeableNode, 'id' | 'user_id'>>> {
  return chargedOn(db, start, after).select(['id', 'user_id']).limit(limit).execute();
}

/** `nodesChargedOn` with what charging them one by one needs, ids (after, upTo]. */
export function nodesChargedOnUpTo(db: Q, start: number, after: number, upTo: number): Promise<ChargeableNode[]> {
  return chargedOn(db, start, after).select(['id', 'user_id', 'mn_id', 'coin_id', 'alias', 'hosting_price']).where('id', '<=', upTo).execute();
}

function chargedOn(db: Q, start: number, after: number) {
  return db
    .selectFrom('nodes')
    .where('id', '>', after)
    .where('created_at', '<', start)
    .where('failed_reason', 'is', null)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', start)]))
    .where('hosting_price', '>', 0)
    .orderBy('id');
}

export function chargeDay(db: Q, day: string) {
  return db.selectFrom('charge_days').selectAll().where('day', '=', day).executeTakeFirst();
}

/** Starts a day's record (once; a second runner finds it there). */
export async function openChargeDay(db: Q, day: string, now: number): Promise<void> {
  await db.insertInto('charge_days').values({ day, started_at: now }).onConflict((oc) => oc.column('day').doNothing()).execute();
}

export async function moveChargeCursor(db: Q, day: string, cursor: number): Promise<void> {
  await db.updateTable('charge_days').set({ cursor }).where('day', '=', day).execute();
}

export async function completeChargeDay(db: Q, day: string, now: number): Promise<void> {
  await db.updateTable('charge_days').set({ completed_at: now }).where('day', '=', day).where('completed_at', 'is', null).execute();
}

export async function markReminded(db: Q, day: string, now: number): Promise<void> {
  await db.updateTable('charge_days').set({ reminded_at: now }).where('day', '=', day).execute();
}

/** Where a run begins: the day after the newest completed one, else the oldest begun, else null (never ran). */
export async function firstOpenDay(db: Q): Promise<{ afterCompleted: string | null; oldestOpen: string | null }> {
  const row = await db
    .selectFrom('charge_days')
    .select([sql<string | null>`max(case when completed_at is not null then day end)`.as('done'), sql<string | null>`min(case when completed_at is null then day end)`.as('open')])
    .executeTakeFirstOrThrow();
  return { afterCompleted: row.done, oldestOpen: row.open };
}

export type LowBalance = { user_id: number; daily: number; balance: number };

/**
 * Users with ids in (after, upTo] whose balance is below `days` days of their charged
 * nodes' fees: the candidates for a low-balance reminder. A window of user ids, not a
 * LIMIT: each read covers a bounded slice of the nodes, so none holds the event loop
 * (better-sqlite3 reads synchronously) for long.
 */
export function lowBalances(db: Q, days: number, after: number, upTo: number): Promise<LowBalance[]> {
  return db
    .selectFrom('nodes as n')
    .leftJoin('ledger_accounts as a', (j) => j.on(sql<boolean>`a.account = 'user:' || n.user_id`))
    .select(['n.user_id', sql<number>`sum(n.hosting_price)`.as('daily'), sql<number>`coalesce(max(a.credits - a.debits), 0)`.as('balance')])
    .where('n.user_id', '>', after)
    .where('n.user_id', '<=', upTo)
    .where('n.state', 'in', CHARGED)
    .groupBy('n.user_id')
    .having(sql<boolean>`coalesce(max(a.credits - a.debits), 0) < ${days} * sum(n.hosting_price)`)
    .orderBy('n.user_id')
    .execute();
}

/** The highest user id (0 with none): where the reminders' windows end. */
export async function lastUserId(db: Q): Promise<number> {
  const row = await db.selectFrom('users').select(sql<number | null>`max(id)`.as('id')).executeTakeFirstOrThrow();
  return Number(row.id ?? 0);
}

/** True for the first reminder of the user's day; false when one was raised already. */
export async function claimReminder(db: Q, userId: number, day: string, now: number): Promise<boolean> {
  const r = await db.insertInto('balance_reminders').values({ user_id: userId, day, at: now }).onConflict((oc) => oc.columns(['user_id', 'day']).doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * A chunk's daily charges as one statement: the transfers of the nodes in (after, upTo]
 * that owe the day (the same rule as `nodesChargedOn`), each keyed by node and day, a
 * key written before is skipped. The ledger's trigger moves both counters per row and its
 * CHECK refuses the whole statement when any owner's balance would go below zero (the
 * caller then charges that chunk node by node, `postTransfer`). A batch `postTransfer`:
 * same table, keys, kinds and descriptions (`dailyChargeKey`, daily-charge.ts).
 * Returns how many were written; the users whose balance moved are the chunk's owners.
 */
export async function insertDailyCharges(db: Q, day: string, start: number, after: number, upTo: number, now: number, revenue: string): Promise<number> {
  const r = await sql`
    INSERT INTO ledger_transfers (idempotency_key, debit_account, credit_account, amount, kind, description, created_at)
    SELECT 'charge:' || id || ':' || ${day}, 'user:' || user_id, ${revenue}, hosting_price, 'daily_charge',
           'Daily charge: ' || coalesce(alias, mn_id) || ' (' || ${day} || ')', ${now}
    FROM nodes
    WHERE id > ${after} AND id <= ${upTo} AND created_at < ${start} AND failed_reason IS NULL
      AND (deleted_at IS NULL OR deleted_at > ${start}) AND hosting_price > 0
    ORDER BY id
    ON CONFLICT (idempotency_key) DO NOTHING`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

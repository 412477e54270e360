import type { Kysely, RawBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema';
import { usernameOf } from '../auth/users';
import { userAccount, type TransferKind } from './ledger';
import { MICROS_PER_USD, type Micros } from '../../shared/money';
import { CARD_MINIMUM } from '../../shared/schemas/billing';

/**
 * A page of the transfers that moved the user's balance, newest first, with the total count.
 * Each side is read down its own index (`ledger_debit`, `ledger_credit`: the account, then
 * the id) and the two are merged: a `debit = ? OR credit = ?` filter read every transfer of
 * the account and sorted them all on each call (600 ms of a blocked event loop for a
 * history of 360,000, a year of 1,000 nodes). A transfer never has one account on both
 * sides (a trigger refuses it), so the union has no duplicates.
 */
export async function userTransfers(db: Kysely<Database>, userId: number, page: number, perPage: number) {
  const account = userAccount(userId);
  const offset = (page - 1) * perPage;
  const newest = (side: 'debit_account' | 'credit_account') =>
    db
      .selectFrom('ledger_transfers')
      .select('id')
      .where(side, '=', account)
      .orderBy('id', 'desc')
      .limit(offset + perPage);
  const [rows, total] = await Promise.all([
    db
      .with('page', (w) =>
        w
          .selectFrom(newest('debit_account').as('d'))
          .select('d.id')
          .unionAll(w.selectFrom(newest('credit_account').as('c')).select('c.id'))
          .orderBy('id', 'desc')
          .limit(perPage)
          .offset(offset),
      )
      .selectFrom('ledger_transfers as t')
      .innerJoin('page', 'page.id', 't.id')
      .select(['t.id', 't.debit_account', 't.amount', 't.kind', 't.description', 't.created_at'])
      .orderBy('t.id', 'desc')
      .execute(),
    transferCount(db, account),
  ]);
  return { rows: rows.map((r) => ({ ...r, signed: r.debit_account === account ? -r.amount : r.amount })), total };
}

/**
 * How many transfers touch the account. Counting is a read of every one of them (25 ms for
 * 300,000), so the last count is kept with the account's posted counters: transfers are
 * immutable and each moves a counter up, so while the counters are unchanged so is the
 * count. The counters are read before the count: a transfer landing in between leaves
 * counters older than the count, which the next call finds changed, never the reverse.
 */
const countedIn = new WeakMap<Kysely<Database>, Map<string, { debits: number; credits: number; n: number }>>();
const MAX_COUNTED = 10_000;

async function transferCount(db: Kysely<Database>, account: string): Promise<number> {
  const posted = await db
    .selectFrom('ledger_accounts')
    .select(['debits', 'credits'])
    .where('account', '=', account)
    .executeTakeFirst();
  if (!posted) return 0;
  // Per database: a process may hold more than one (tests, the CLI).
  let counted = countedIn.get(db);
  if (!counted) countedIn.set(db, (counted = new Map()));
  const known = counted.get(account);
  if (known && known.debits === posted.debits && known.credits === posted.credits) return known.n;
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('ledger_transfers')
        .select(sql<number>`count(*)`.as('n'))
        .where('debit_account', '=', account)
        .as('debits'),
      eb
        .selectFrom('ledger_transfers')
        .select(sql<number>`count(*)`.as('n'))
        .where('credit_account', '=', account)
        .as('credits'),
    ])
    .executeTakeFirstOrThrow();
  const n = Number(row.debits) + Number(row.credits);
  if (counted.size >= MAX_COUNTED) counted.clear();
  counted.set(account, { debits: posted.debits, credits: posted.credits, n });
  return n;
}

/**
 * What the platform's revenue account earned per UTC day from `from` (a day's start) to
 * `to` (exclusive): credits less debits (a refund of a fee), in micro-dollars, keyed by
 * the day's start.
 */
export async function revenueByDay(
  db: Kysely<Database>,
  revenueAccount: string,
  from: number,
  to: number,
): Promise<Map<number, number>> {
  const day = sql<number>`(created_at / 86400000) * 86400000`;
  const rows = await db
    .selectFrom('ledger_transfers')
    .select([
      day.as('day'),
      sql<number>`sum(case when credit_account = ${revenueAccount} then amount else -amount end)`.as('net'),
    ])
    .where((eb) => eb.or([eb('credit_account', '=', revenueAccount), eb('debit_account', '=', revenueAccount)]))
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(day)
    .execute();
  return new Map(rows.map((r) => [Number(r.day), Number(r.net)]));
}

/** Crypto deposits seen on chain and waiting for confirmations: how many, and their dollar value when known. */
export async function pendingDepositTotals(db: Kysely<Database>): Promise<{ count: number; usd: number }> {
  const row = await db
    .selectFrom('deposits')
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(usd_micros), 0)`.as('usd')])
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), usd: Number(row.usd) };
}

/** The transfer written under an idempotency key, if any. */
export function findTransferByKey(db: Kysely<Database>, key: string) {
  return db.selectFrom('ledger_transfers').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

/** The daily charge's runs, newest day first (`charge_days`). */
export function listChargeDays(db: Kysely<Database>, limit: number) {
  return db.selectFrom('charge_days').selectAll().orderBy('day', 'desc').limit(limit).execute();
}

/**
 * The charges posted per UTC day (of the transfer's time) since `from`: sum and count of
 * `daily_charge` and of `initial_charge` transfers, keyed "YYYY-MM-DD".
 */
export async function chargeTotalsByDay(db: Kysely<Database>, from: number) {
  const day = sql<string>`strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')`;
  const rows = await db
    .selectFrom('ledger_transfers')
    .select([day.as('day'), 'kind', sql<number>`sum(amount)`.as('total'), sql<number>`count(*)`.as('n')])
    .where('kind', 'in', ['daily_charge', 'initial_charge'])
    .where('created_at', '>=', from)
    .groupBy([day, 'kind'])
    .execute();
  return rows.map((r) => ({
    day: r.day,
    kind: r.kind as 'daily_charge' | 'initial_charge',
    total: Number(r.total),
    count: Number(r.n),
  }));
}

/**
 * The least a customer must have paid in, net of what was taken back, to count as paying
 * (micro-dollars): the smallest card payment. Below it an account is "free"
 * (deploy/free-limits.ts), so a deposit refunded, disputed, or of one cent does not lift
 * the free limits: escaping them costs this much real money per account.
 */
export const PAYING_MINIMUM: Micros = CARD_MINIMUM * MICROS_PER_USD;

/**
 * Which of these users are paying customers: their paid deposits (`crypto_deposit`,
 * `card_payment`), less what card refunds and disputes took back (`card_refund`,
 * `card_dispute`, plus `card_dispute_won` given back), come to at least PAYING_MINIMUM.
 * Sign-up credit, gift codes, referral bonuses and the operator's credits are not paid
 * money. One statement for all the ids (one JSON array). Each side is pinned to the small
 * read (a unary `+` keeps SQLite off an index): the paid side down `ledger_credit` (an
 * account's credits are few; the kind index would read every deposit of the platform),
 * the taken-back side down the kind index (reversals are few; `ledger_debit` would read
 * every daily charge of the account).
 */
export async function payingUsers(db: Kysely<Database>, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const { rows } = await sql<{ account: string }>`
    WITH ids(account) AS (SELECT 'user:' || value FROM json_each(${JSON.stringify(userIds)})),
    moves(account, amount) AS (
      SELECT credit_account, amount FROM ledger_transfers
       WHERE +kind IN ('crypto_deposit', 'card_payment', 'card_dispute_won') AND credit_account IN (SELECT account FROM ids)
      UNION ALL
      SELECT debit_account, -amount FROM ledger_transfers
       WHERE kind IN ('card_refund', 'card_dispute') AND +debit_account IN (SELECT account FROM ids)
    )
    SELECT account FROM moves GROUP BY account HAVING sum(amount) >= ${PAYING_MINIMUM}`.execute(db);
  return new Set(rows.map((r) => Number(r.account.slice('user:'.length))));
}

/** Is the user a paying customer (payingUsers)? */
export async function isPaying(db: Kysely<Database>, userId: number): Promise<boolean> {
  return (await payingUsers(db, [userId])).has(userId);
}

/** The open debts (`debt:<user>` accounts with more debited than credited), largest first, with the username. */
export async function listOpenDebts(db: Kysely<Database>, limit: number) {
  const rows = await db
    .selectFrom('ledger_accounts as a')
    .select([
      'a.account',
      usernameOf(sql<number>`CAST(substr(a.account, 6) AS INTEGER)`).as('username'),
      sql<number>`a.debits - a.credits`.as('owed'),
    ])
    .where('a.account', 'like', 'debt:%')
    .where(sql<boolean>`a.debits > a.credits`)
    .orderBy('owed', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ user_id: Number(r.account.slice(5)), username: r.username, owed: Number(r.owed) }));
}

/** The id of the user's first deposit transfer (crypto or card; gift codes and credits are not deposits), if any. */
export async function firstDepositTransferId(db: Kysely<Database>, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select('id')
    .where('credit_account', '=', userAccount(userId))
    .where('kind', 'in', ['crypto_deposit', 'card_payment'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** A referrer's paid bonuses less those taken back (a refund or dispute of the deposit after payment), in micro-dollars. */
export async function referralEarnings(db: Kysely<Database>, referrerId: number): Promise<number> {
  const row = await db
    .selectFrom('ledger_transfers')
    .select(sql<number>`coalesce(sum(CASE WHEN kind = 'referral_bonus' THEN amount ELSE -amount END), 0)`.as('n'))
    .where((eb) =>
      eb.or([
        eb.and([eb('credit_account', '=', userAccount(referrerId)), eb('kind', '=', 'referral_bonus')]),
        eb.and([eb('debit_account', '=', userAccount(referrerId)), eb('kind', '=', 'referral_bonus_reversed')]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The transfers of one kind credited to (or debited from) an account (created_at, description, amount, id), as a subquery for another domain's history. */
export function transfersOfAccountSql(
  side: 'credit' | 'debit',
  account: string,
  kind: TransferKind,
): RawBuilder<unknown> {
  return side === 'credit'
    ? sql`SELECT created_at, description, amount, id FROM ledger_transfers WHERE credit_account = ${account} AND kind = ${kind}`
    : sql`SELECT created_at, description, amount, id FROM ledger_transfers WHERE debit_account = ${account} AND kind = ${kind}`;
}

/** How many customers owe money (open `debt:<user>` accounts) and how much in all, in micro-dollars. */
export async function openDebtTotals(db: Kysely<Database>): Promise<{ count: number; owed: number }> {
  const r = await db
    .selectFrom('ledger_accounts')
    .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(debits - credits), 0)`.as('owed')])
    .where('account', 'like', 'debt:%')
    .where(sql<boolean>`debits > credits`)
    .executeTakeFirstOrThrow();
  return { count: Number(r.n), owed: Number(r.owed) };
}

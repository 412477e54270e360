import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Micros } from '../../shared/money';
import { assertMicros, toUsdNumber } from '../../shared/money';
import type { Database } from '../db/schema';
import { compiledQuery, hotRead } from '../db/hot-read';
import { insertEvent, insertEvents } from '../events/outbox';

/** A money transaction: every transfer is written inside one (BEGIN IMMEDIATE, see fifo-driver). */
export type MoneyTx = Transaction<Database>;

/** Ledger accounts are strings: one per user, plus the platform's own accounts. */
export const userAccount = (userId: number) => `user:${userId}`;

/** The user an account belongs to, or null for a platform account. */
export function userOfAccount(account: string): number | null {
  const m = /^user:(\d+)$/.exec(account);
  return m ? Number(m[1]) : null;
}

/**
 * The platform's side of every transfer. Users' balances are liabilities; these hold
 * the other side, so the sum over all accounts is always zero:
 * - revenue: hosting fees earned (credited by charges);
 * - crypto, card: clearing accounts that money enters through (debited by deposits);
 * - gift_codes, referrals, signup_credit: what the platform gives away (expenses);
 * - adjustments: the operator's corrections.
 * Besides these, `debt:<user>` (debt.ts): what a customer owes after a card payment was
 * taken back and their balance did not cover it.
 */
export const PLATFORM = {
  adjustments: 'platform:adjustments',
  revenue: 'platform:revenue',
  crypto: 'platform:crypto_clearing',
  card: 'platform:card_clearing',
  giftCodes: 'platform:gift_codes',
  referrals: 'platform:referrals',
  signupCredit: 'platform:signup_credit',
} as const;

/** What a transfer is; the transaction history and the invariants group by it. */
export type TransferKind =
  | 'adjustment'
  | 'initial_charge'
  | 'daily_charge'
  | 'crypto_deposit'
  | 'card_payment'
  | 'gift_code'
  | 'referral_bonus'
  | 'signup_credit'
  // A card payment taken back (card/reversals.ts), given back, and the debt it may leave (debt.ts).
  | 'card_refund'
  | 'card_dispute'
  | 'card_dispute_won'
  | 'debt'
  | 'debt_payment'
  // A paid referral bonus taken back because the deposit that earned it was refunded or disputed later.
  | 'referral_bonus_reversed';

export type TransferInput = {
  /** Unique in the database: a second transfer with the same key is not written. */
  idempotencyKey: string;
  debit: string;
  credit: string;
  amount: Micros;
  kind: TransferKind;
  /** Shown to the user in the transaction history. */
  description: string;
  /** What the amount was computed from (price and source, txid, session), kept as JSON. */
  meta?: Record<string, unknown>;
  /**
   * Leave out the live `update_balance`/`refresh_transactions` events: for a writer that
   * posts many transfers in one transaction and sends each user's events once itself
   * (`balanceChanged`).
   */
  quiet?: boolean;
};

/** The debited user's balance is lower than the amount; nothing was written. */
export class InsufficientFunds extends Error {
  constructor(readonly account: string) {
    super(`account ${account} has less than the amount`);
  }
}

/** An account's balance (credits - debits) from its posted counters: one row read. */
/** The posted counters (moved by trigger with every transfer), compiled once (db/hot-read.ts). */
const accountCounters = hotRead((db: Kysely<Database>, account: string) =>
  db.selectFrom('ledger_accounts').select(['debits', 'credits']).where('account', '=', account),
);

export async function accountBalance(db: Kysely<Database>, account: string): Promise<Micros> {
  const row = await accountCounters(db, account);
  return row ? row.credits - row.debits : 0;
}

/**
 * Writes one immutable transfer; returns false when its idempotency key was used before
 * (the earlier transfer stands, nothing changes). The insert moves both accounts'
 * counters (trigger) and fails, writing nothing, when it would take a user's balance
 * below zero: the limit holds in the statement itself, whatever was read before.
 * Tells each user whose balance moved, live, after the commit.
 */
export async function postTransfer(trx: MoneyTx, t: TransferInput): Promise<boolean> {
  assertMicros(t.amount);
  if (t.amount <= 0) throw new RangeError('transfer amount must be positive');
  let inserted: bigint;
  try {
    const r = await trx
      .insertInto('ledger_transfers')
      .values({
        idempotency_key: t.idempotencyKey,
        debit_account: t.debit,
        credit_account: t.credit,
        amount: t.amount,
        kind: t.kind,
        description: t.description,
        meta: t.meta ? JSON.stringify(t.meta) : null,
        created_at: Date.now(),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .executeTakeFirst();
    inserted = r.numInsertedOrUpdatedRows ?? 0n;
  } catch (err) {
    if (err instanceof Error && err.message.includes('user_balance_not_negative')) throw new InsufficientFunds(t.debit);
    throw err;
  }
  if (inserted === 0n) return false;
  if (!t.quiet) {
    for (const account of [t.debit, t.credit]) {
      const userId = userOfAccount(account);
      if (userId !== null) await balanceChanged(trx, userId);
    }
  }
  return true;
}

/** Queues the owner's live `update_balance` (the new balance) and `refresh_transactions`, delivered after the commit. */
export async function balanceChanged(trx: MoneyTx, userId: number): Promise<void> {
  const balance = await accountBalance(trx, userAccount(userId));
  await insertEvent(trx, userId, 'update_balance', { balance: toUsdNumber(balance) });
  await insertEvent(trx, userId, 'refresh_transactions', {});
}

/**
 * `balanceChanged` for many users in three statements (the same events, the same
 * payload): for a writer that moved many balances in one transaction (a daily-charge chunk).
 * `known`: the balances after the change, when the writer computed them (saves a read).
 */
export async function balancesChanged(trx: MoneyTx, userIds: number[], known?: Map<number, Micros>): Promise<void> {
  if (!userIds.length) return;
  const balanceOf = known ?? (await userBalances(trx, userIds));
  await insertEvents(
    trx,
    'update_balance',
    userIds.map((id) => ({ userId: id, payload: { balance: toUsdNumber(balanceOf.get(id) ?? 0) } })),
  );
  await insertEvents(
    trx,
    'refresh_transactions',
    userIds.map((id) => ({ userId: id, payload: {} })),
  );
}

/** Users' balances from the counters, in one read; an account never written has 0. */
export async function userBalances(db: Kysely<Database>, userIds: number[]): Promise<Map<number, Micros>> {
  const out = new Map<number, Micros>(userIds.map((id) => [id, 0]));
  if (!userIds.length) return out;
  const { rows } = await countersOf(db, JSON.stringify(userIds));
  for (const r of rows) out.set(userOfAccount(r.account)!, r.credits - r.debits);
  return out;
}

// The ids as one JSON array: one statement text whatever their number, compiled once (the
// daily charge reads a chunk's owners this way a thousand times a day).
const countersOf = compiledQuery((db: Kysely<Database>, ids: string) =>
  db
    .selectFrom('ledger_accounts')
    .select(['account', 'debits', 'credits'])
    .where('account', 'in', sql<string>`(SELECT 'user:' || value FROM json_each(${ids}))`),
);

export type LedgerMismatch = {
  account: string;
  debits: number;
  credits: number;
  transfer_debits: number;
  transfer_credits: number;
};

/**
 * The accounts whose counters differ from the sum of their transfers (empty when the
 * ledger is whole), plus any account missing from the counters. For tests, the
 * operator's check and the benchmark.
 */
export async function ledgerMismatches(db: Kysely<Database>): Promise<LedgerMismatch[]> {
  const { rows } = await sql<LedgerMismatch>`
    WITH sums AS (
      SELECT account, sum(d) AS transfer_debits, sum(c) AS transfer_credits FROM (
        SELECT debit_account AS account, amount AS d, 0 AS c FROM ledger_transfers
        UNION ALL SELECT credit_account, 0, amount FROM ledger_transfers
      ) GROUP BY account
    )
    SELECT coalesce(a.account, s.account) AS account, coalesce(a.debits, 0) AS debits, coalesce(a.credits, 0) AS credits,
           coalesce(s.transfer_debits, 0) AS transfer_debits, coalesce(s.transfer_credits, 0) AS transfer_credits
    FROM sums s FULL OUTER JOIN ledger_accounts a ON a.account = s.account
    WHERE coalesce(a.debits, 0) != coalesce(s.transfer_debits, 0) OR coalesce(a.credits, 0) != coalesce(s.transfer_credits, 0)`.execute(
    db,
  );
  return rows;
}

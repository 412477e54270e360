import type { Kysely } from 'kysely';
import type { Micros } from '../../shared/money';
import { usd } from '../../shared/notification-kinds';
import type { Database } from '../db/schema';
import { accountBalance, PLATFORM, postTransfer, userAccount, type MoneyTx, type TransferKind } from './ledger';
import { remindIfLow } from './runway';

/*
 * A debt is what a customer owes after a card payment was taken back (refund, dispute)
 * and their balance did not cover it. It lives in its own ledger account, `debt:<user>`,
 * the platform's claim on the customer (debits >= credits, a trigger holds it), so every
 * sum stays zero and the user's own balance never goes below zero. Deposits pay it first
 * (creditDeposit), and no node is deployed while it is open (chargeInitial).
 */

export const debtAccount = (userId: number) => `debt:${userId}`;

export const debtOpen = (owed: Micros) =>
  `Your account owes ${usd(owed)} after a card payment was refunded or disputed. New nodes cannot be deployed until it is paid: add funds on the Billing page, and your next deposit pays it first.`;

/** What the user owes now (0 when nothing). */
export async function openDebt(db: Kysely<Database>, userId: number): Promise<Micros> {
  return 0 - (await accountBalance(db, debtAccount(userId)));
}

export type TakeBack = {
  userId: number;
  amount: Micros;
  idempotencyKey: string;
  kind: TransferKind;
  description: string;
  meta?: Record<string, unknown>;
  /** Where the money goes back to: the card clearing account unless said (a referral bonus goes back to the referrals account). */
  credit?: string;
};

/**
 * Takes `amount` back from the user's balance toward the card clearing account (or `credit`). What the
 * balance does not cover is first moved from the debt account to the balance (a line the
 * customer sees: "owed"), so the take itself leaves the balance at zero, never below.
 * Returns the part recorded as debt. Keys: `<key>:debt` and `<key>`.
 */
export async function takeBack(trx: MoneyTx, t: TakeBack): Promise<Micros> {
  const balance = await accountBalance(trx, userAccount(t.userId));
  const short = Math.max(0, t.amount - balance);
  if (short > 0) {
    await postTransfer(trx, {
      idempotencyKey: `${t.idempotencyKey}:debt`,
      debit: debtAccount(t.userId),
      credit: userAccount(t.userId),
      amount: short,
      kind: 'debt',
      description: `Owed: ${usd(short)} your balance did not cover (your next deposits pay it first)`,
      meta: t.meta,
      quiet: true,
    });
  }
  await postTransfer(trx, {
    idempotencyKey: t.idempotencyKey,
    debit: userAccount(t.userId),
    credit: t.credit ?? PLATFORM.card,
    amount: t.amount,
    kind: t.kind,
    description: t.description,
    meta: t.meta,
  });
  // A payment taken back shortens the runway: the customer hears it before a node goes.
  await remindIfLow(trx, t.userId, Date.now());
  return short;
}

/**
 * Pays the user's open debt from their balance, at most `upTo` (the money that just came
 * in), once per key. Returns what was paid.
 */
export async function payDebt(trx: MoneyTx, userId: number, upTo: Micros, idempotencyKey: string): Promise<Micros> {
  const owed = await openDebt(trx, userId);
  if (owed <= 0) return 0;
  const pay = Math.min(owed, upTo, await accountBalance(trx, userAccount(userId)));
  if (pay <= 0) return 0;
  const paid = await postTransfer(trx, {
    idempotencyKey,
    debit: userAccount(userId),
    credit: debtAccount(userId),
    amount: pay,
    kind: 'debt_payment',
    description: `Owed amount paid: ${usd(pay)}${pay < owed ? ` (${usd(owed - pay)} still owed)` : ''}`,
  });
  return paid ? pay : 0;
}

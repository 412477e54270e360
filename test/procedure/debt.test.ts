import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debtAccount, openDebt, payDebt, takeBack } from '../../src/server/billing/debt';
import { creditDeposit } from '../../src/server/billing/deposit';
import {
  accountBalance,
  ledgerMismatches,
  PLATFORM,
  postTransfer,
  userAccount,
  type MoneyTx,
} from '../../src/server/billing/ledger';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser } from '../support/users';

// The debt a card payment taken back leaves (billing/debt.ts), at the ledger: the sums
// stay zero, the user's balance never goes below zero, the debt account never above it,
// and the next deposit, crypto as well as card, pays it first, once.

let d: Deps;
beforeAll(async () => {
  d = await makeDeps();
});
afterAll(() => d.close());

const USD = 1_000_000;
const allSum = () =>
  d.db
    .selectFrom('ledger_accounts')
    .select(sql<number>`coalesce(sum(credits - debits), 0)`.as('s'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.s));
const tx = <T>(fn: (trx: MoneyTx) => Promise<T>) => d.db.transaction().execute(fn);

describe('debt', () => {
  it('a take larger than the balance leaves 0 and the rest owed; a crypto deposit pays it first, once per key', async () => {
    const u = await freshUser(d.deps, { prefix: 'debtproc' });
    await tx((trx) =>
      postTransfer(trx, {
        idempotencyKey: `fund:${u.id}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(u.id),
        amount: 3 * USD,
        kind: 'adjustment',
        description: 'funds',
      }),
    );
    const short = await tx((trx) =>
      takeBack(trx, {
        userId: u.id,
        amount: 10 * USD,
        idempotencyKey: `take:${u.id}`,
        kind: 'card_refund',
        description: 'Card payment refunded',
      }),
    );
    expect(short).toBe(7 * USD);
    expect(await accountBalance(d.db, userAccount(u.id))).toBe(0);
    expect(await openDebt(d.db, u.id)).toBe(7 * USD);
    const deposit = {
      userId: u.id,
      amount: 4 * USD,
      via: 'crypto' as const,
      idempotencyKey: `crypto:test:${u.id}:0`,
      description: 'Crypto deposit',
    };
    expect(await tx((trx) => creditDeposit(trx, deposit))).toBe(true);
    expect(await tx((trx) => creditDeposit(trx, deposit))).toBe(false);
    expect(await openDebt(d.db, u.id)).toBe(3 * USD);
    expect(await accountBalance(d.db, userAccount(u.id))).toBe(0);
    expect(
      await tx((trx) => creditDeposit(trx, { ...deposit, amount: 5 * USD, idempotencyKey: `crypto:test:${u.id}:1` })),
    ).toBe(true);
    expect(await openDebt(d.db, u.id)).toBe(0);
    expect(await accountBalance(d.db, userAccount(u.id))).toBe(2 * USD);
    // Nothing owed: nothing paid.
    expect(await tx((trx) => payDebt(trx, u.id, USD, `extra:${u.id}`))).toBe(0);
    expect(await allSum()).toBe(0);
    expect(await ledgerMismatches(d.db)).toEqual([]);
  });

  it('the debt account cannot be paid past zero, in the insert itself', async () => {
    const u = await freshUser(d.deps, { prefix: 'overpay' });
    await tx((trx) =>
      postTransfer(trx, {
        idempotencyKey: `fund:${u.id}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(u.id),
        amount: 5 * USD,
        kind: 'adjustment',
        description: 'funds',
      }),
    );
    const err = await tx((trx) =>
      postTransfer(trx, {
        idempotencyKey: `over:${u.id}`,
        debit: userAccount(u.id),
        credit: debtAccount(u.id),
        amount: USD,
        kind: 'debt_payment',
        description: 'x',
      }),
    ).catch((e: unknown) => e);
    expect(String(err)).toMatch(/debt_not_overpaid/);
    expect(await accountBalance(d.db, userAccount(u.id))).toBe(5 * USD);
    expect(await openDebt(d.db, u.id)).toBe(0);
  });
});

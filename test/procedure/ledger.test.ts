import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountBalance,
  InsufficientFunds,
  ledgerMismatches,
  PLATFORM,
  postTransfer,
  userAccount,
  type TransferInput,
} from '../../src/server/billing/ledger';
import { makeDeps, type Deps, rejection } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

let d: Deps;
let a: FreshUser;
let b: FreshUser;
beforeAll(async () => {
  d = await makeDeps();
  a = await freshUser(d.deps, { prefix: 'ledgera' });
  b = await freshUser(d.deps, { prefix: 'ledgerb' });
});
afterAll(() => d.close());

const post = (t: Omit<TransferInput, 'kind' | 'description'> & Partial<TransferInput>) =>
  d.db.transaction().execute((trx) => postTransfer(trx, { kind: 'adjustment', description: 'test', ...t }));
const transfers = () =>
  d.db
    .selectFrom('ledger_transfers')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
const events = (u: FreshUser) =>
  d.db.selectFrom('events').select(['type', 'payload']).where('user_id', '=', u.id).orderBy('id').execute();
const allSum = () =>
  d.db
    .selectFrom('ledger_accounts')
    .select(sql<number>`coalesce(sum(credits - debits), 0)`.as('s'))
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.s));

describe('the ledger', () => {
  it('moves both counters with each transfer; a reused idempotency key writes nothing', async () => {
    expect(
      await post({ idempotencyKey: 'l1', debit: PLATFORM.adjustments, credit: userAccount(a.id), amount: 5_000_000 }),
    ).toBe(true);
    expect(
      await post({ idempotencyKey: 'l1', debit: PLATFORM.adjustments, credit: userAccount(a.id), amount: 7_000_000 }),
    ).toBe(false);
    expect(await accountBalance(d.db, userAccount(a.id))).toBe(5_000_000);
    expect(await accountBalance(d.db, PLATFORM.adjustments)).toBe(-5_000_000);
    expect(await ledgerMismatches(d.db)).toEqual([]);
    // The owner hears of it live: the new balance (cents) and a refresh of the history.
    const ev = await events(a);
    expect(ev.map((e) => e.type)).toEqual(['update_balance', 'refresh_transactions']);
    expect(JSON.parse(ev[0].payload)).toEqual({ balance: 5 });
  });

  it("refuses a debit below a user's zero in the insert itself, writing nothing", async () => {
    const before = await transfers();
    const err = await post({
      idempotencyKey: 'l2',
      debit: userAccount(a.id),
      credit: PLATFORM.revenue,
      amount: 5_000_001,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect(await transfers()).toBe(before);
    expect(await accountBalance(d.db, userAccount(a.id))).toBe(5_000_000);
    expect(await accountBalance(d.db, PLATFORM.revenue)).toBe(0);
    // Exactly the balance is allowed.
    expect(
      await post({ idempotencyKey: 'l3', debit: userAccount(a.id), credit: PLATFORM.revenue, amount: 5_000_000 }),
    ).toBe(true);
    expect(await accountBalance(d.db, userAccount(a.id))).toBe(0);
  });

  it('refuses a transfer to the same account, a zero, a fraction and an unsafe amount', async () => {
    const before = await transfers();
    await expect(
      post({ idempotencyKey: 'l4', debit: userAccount(b.id), credit: userAccount(b.id), amount: 1 }),
    ).rejects.toThrow(/two different accounts/);
    await expect(
      post({ idempotencyKey: 'l5', debit: PLATFORM.revenue, credit: userAccount(b.id), amount: 0 }),
    ).rejects.toThrow(RangeError);
    await expect(
      post({ idempotencyKey: 'l6', debit: PLATFORM.revenue, credit: userAccount(b.id), amount: 1.5 }),
    ).rejects.toThrow(RangeError);
    await expect(
      post({ idempotencyKey: 'l7', debit: PLATFORM.revenue, credit: userAccount(b.id), amount: 2 ** 60 }),
    ).rejects.toThrow(RangeError);
    expect(await transfers()).toBe(before);
  });

  it('keeps transfers and counters immutable', async () => {
    await expect(sql`update ledger_transfers set amount = 1`.execute(d.db)).rejects.toThrow(/immutable/);
    await expect(sql`delete from ledger_transfers`.execute(d.db)).rejects.toThrow(/immutable/);
    await expect(sql`delete from ledger_accounts`.execute(d.db)).rejects.toThrow(/kept/);
    // Counters cannot be pushed below a user's zero even by hand.
    await expect(
      sql`update ledger_accounts set debits = credits + 1 where account = ${userAccount(a.id)}`.execute(d.db),
    ).rejects.toThrow(/user_balance_not_negative/);
  });

  it('a rolled-back transaction leaves no transfer and no counter moved', async () => {
    const balance = await accountBalance(d.db, userAccount(b.id));
    await d.db
      .transaction()
      .execute(async (trx) => {
        await postTransfer(trx, {
          idempotencyKey: 'l8',
          debit: PLATFORM.giftCodes,
          credit: userAccount(b.id),
          amount: 3_000_000,
          kind: 'gift_code',
          description: 'Gift code',
        });
        throw new Error('crash after the transfer');
      })
      .catch(() => undefined);
    expect(await accountBalance(d.db, userAccount(b.id))).toBe(balance);
    expect(
      await d.db.selectFrom('ledger_transfers').select('id').where('idempotency_key', '=', 'l8').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('holds its invariants over random sequences of credits and debits (property test)', async () => {
    // A seeded generator: a failure reproduces with the same seed.
    let seed = 20261123;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const users = await Promise.all([0, 1, 2, 3].map((i) => freshUser(d.deps, { prefix: `prop${i}` })));
    const platform = Object.values(PLATFORM);
    const expected = new Map<string, number>();
    for (const u of users) expected.set(userAccount(u.id), await accountBalance(d.db, userAccount(u.id)));
    for (let i = 0; i < 400; i++) {
      const u = userAccount(users[Math.floor(rand() * users.length)].id);
      const p = platform[Math.floor(rand() * platform.length)];
      const amount = 1 + Math.floor(rand() * 20_000_000);
      const credit = rand() < 0.5;
      const key = rand() < 0.1 && i > 0 ? `prop-${i - 1}` : `prop-${i}`; // some replays of the previous key
      const have = expected.get(u)!;
      try {
        const done = await post({ idempotencyKey: key, debit: credit ? p : u, credit: credit ? u : p, amount });
        if (done) expected.set(u, have + (credit ? amount : -amount));
        else expect(key).not.toBe(`prop-${i}`);
      } catch (err) {
        expect(err).toBeInstanceOf(InsufficientFunds);
        expect(credit).toBe(false);
        expect(amount).toBeGreaterThan(have);
      }
      expect(await accountBalance(d.db, u)).toBeGreaterThanOrEqual(0);
    }
    for (const [account, balance] of expected) expect(await accountBalance(d.db, account)).toBe(balance);
    expect(await ledgerMismatches(d.db)).toEqual([]);
    expect(await allSum()).toBe(0);
  });
});

describe('get_balance and get_transactions', () => {
  it('answer from the ledger, newest first, paged, amounts signed from the user side', async () => {
    const u = await freshUser(d.deps, { prefix: 'hist' });
    for (let i = 1; i <= 7; i++)
      await post({
        idempotencyKey: `h${i}`,
        debit: PLATFORM.adjustments,
        credit: userAccount(u.id),
        amount: i * 1_000_000,
        description: `credit ${i}`,
      });
    await post({
      idempotencyKey: 'h-debit',
      debit: userAccount(u.id),
      credit: PLATFORM.revenue,
      amount: 63_000,
      kind: 'daily_charge',
      description: 'Daily charge',
    });
    const balance = await d.caller(u.token).billing.get_balance();
    expect(balance).toEqual({
      success: true,
      balance: 27.94,
      total_masternodes: 0,
      monthly_cost: 0,
      daily_cost: 0,
      runway_hours: null,
      at_risk: [],
      keep: 0,
    });
    const first = await d.caller(u.token).billing.get_transactions({ page: 1, per_page: 5 });
    expect(first.total).toBe(8);
    expect(first.transactions.map((t) => [t.description, t.amount])).toEqual([
      ['Daily charge', -0.063],
      ['credit 7', 7],
      ['credit 6', 6],
      ['credit 5', 5],
      ['credit 4', 4],
    ]);
    expect(first.transactions[0].date).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const second = await d.caller(u.token).billing.get_transactions({ page: 2, per_page: 5 });
    expect(second.transactions.map((t) => t.description)).toEqual(['credit 3', 'credit 2', 'credit 1']);
    // Another user's history is their own.
    expect(
      (await d.caller(b.token).billing.get_transactions()).transactions.some((t) => t.description.startsWith('credit')),
    ).toBe(false);
    expect((await rejection(d.caller(u.token).billing.get_transactions({ page: 0, per_page: 5 }))).message).toMatch(
      /page/,
    );
    expect((await rejection(d.caller(u.token).billing.get_transactions({ page: 1, per_page: 500 }))).message).toMatch(
      /per_page/,
    );
  });
});

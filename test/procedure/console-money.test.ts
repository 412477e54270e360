import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { insertCardSession } from '../../src/server/billing/card/queries';
import { takeBack } from '../../src/server/billing/debt';
import { insertCurrency } from '../../src/server/billing/crypto/queries';
import { runCli } from '../../src/server/cli/main';
import { describeZodError } from '../../src/server/rpc/trpc';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// The console's Money page procedures: gift codes through the service the CLI's `coupons`
// calls, currencies through the one `deposits enable|disable` calls, and the lists.

let d: Deps;
let operator: FreshUser;
let customer: FreshUser;
const OPERATOR_IP = '198.51.100.42';

beforeAll(async () => {
  d = await makeDeps();
  operator = await freshUser(d.deps, { prefix: 'op', tfa: true });
  customer = await freshUser(d.deps, { prefix: 'cust' });
  expect((await cli('users', 'promote', operator.username)).code).toBe(0);
});
afterAll(() => d?.close());

const op = () => d.caller(operator.token, OPERATOR_IP).console;
const nextYear = () => `${new Date().getUTCFullYear() + 1}-06-30`;

async function cli(...args: string[]) {
  const out: string[] = [];
  const stderr = process.stderr.write;
  let err = '';
  process.stderr.write = ((s: string) => ((err += s), true)) as typeof process.stderr.write;
  try {
    const code = await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) });
    return { code, out, err };
  } finally {
    process.stderr.write = stderr;
  }
}
const logTotal = async () => (await op().log({})).total;
const lastLine = async () => (await op().log({ per_page: 1 })).lines[0];
function expectOperatorLine(line: Awaited<ReturnType<typeof lastLine>>, action: string) {
  expect(line).toMatchObject({
    action,
    actor: 'operator',
    operator: { id: operator.id, username: operator.username },
    address: OPERATOR_IP,
  });
  expect(Math.abs(Date.parse(line.at) - Date.now())).toBeLessThan(60_000);
}
const codeCount = async () => (await d.db.selectFrom('gift_codes').select('id').execute()).length;

describe('gift codes', () => {
  it('creates a batch shown once (never stored or logged), lists it, and a customer redeems a code', async () => {
    const made = await op().money.create_gift_codes({ amount: '15', count: 3, expires: nextYear() });
    expect(made.codes).toHaveLength(3);
    // Valid through the given UTC day: it ends at the next midnight.
    expect(made).toMatchObject({
      amount_micros: 15_000_000,
      expires_at: `${new Date().getUTCFullYear() + 1}-07-01T00:00:00.000Z`,
    });
    const line = await lastLine();
    expectOperatorLine(line, 'coupons create');
    expect(line.detail).toMatchObject({ batch: made.batch, count: 3, amount: 15_000_000 });
    const dump =
      JSON.stringify(await d.db.selectFrom('operator_log').selectAll().execute()) +
      JSON.stringify(await d.db.selectFrom('gift_codes').selectAll().execute());
    for (const c of made.codes) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(c.replace(/-/g, ''));
    }
    const list = (await op().money.gift_codes({ batch: made.batch })).codes;
    expect(list.map((c) => c.hint).sort()).toEqual(made.codes.map((c) => c.replace(/-/g, '').slice(-4)).sort());
    expect(list.every((c) => c.state === 'unused' && c.amount_micros === 15_000_000)).toBe(true);

    expect((await d.caller(customer.token).billing.redeem_coupon({ code: made.codes[0].toLowerCase() })).success).toBe(
      true,
    );
    const after = (await op().money.gift_codes({ batch: made.batch })).codes;
    expect(after.find((c) => c.hint === made.codes[0].slice(-4))).toMatchObject({
      state: 'redeemed',
      redeemed_by: customer.username,
    });
  });

  it('the CLI and the console make and list codes through the same service', async () => {
    const r = await cli('coupons', 'create', '--amount', '2.5', '--count', '2', '--expires', nextYear());
    expect(r.code).toBe(0);
    const batch = /batch (\w+)\)/.exec(r.out[0])![1];
    expect(await lastLine()).toMatchObject({
      action: 'coupons create',
      actor: 'cli',
      detail: { batch, count: 2, amount: 2_500_000 },
    });
    const console = (await op().money.gift_codes({ batch })).codes;
    expect(console.map((c) => c.hint).sort()).toEqual(
      r.out
        .slice(1)
        .map((c) => c.slice(-4))
        .sort(),
    );
    const made = await op().money.create_gift_codes({ amount: '1', count: 1, expires: nextYear() });
    expect((await cli('coupons', 'list', '--batch', made.batch)).out).toEqual([
      expect.stringMatching(
        new RegExp(
          `…${made.codes[0].slice(-4)} \\$1\\.00 valid through ${nextYear()} UTC batch ${made.batch}: unused$`,
        ),
      ),
    ]);
  });

  it('refuses bad batches with a clear message and creates nothing', async () => {
    const [codes, lines] = [await codeCount(), await logTotal()];
    const bad = [
      [{ amount: '0', count: 1, expires: nextYear() }, 'amount: must be more than 0'],
      [{ amount: '-5', count: 1, expires: nextYear() }, 'amount: must be a dollar amount such as 25 or 2.50'],
      [{ amount: '10000.01', count: 1, expires: nextYear() }, 'amount: must be at most 10000 dollars'],
      [{ amount: '5', count: 0, expires: nextYear() }, 'count: must be 1-1000'],
      [{ amount: '5', count: 1001, expires: nextYear() }, 'count: must be 1-1000'],
      [{ amount: '5', count: 1.5, expires: nextYear() }, 'count: must be a whole number'],
      [{ amount: '5', count: 1, expires: '2027-02-30' }, 'expires: must be a date such as 2027-01-31'],
    ] as const;
    for (const [input, message] of bad) {
      const err = await rejection(op().money.create_gift_codes(input));
      expect(err.code).toBe('BAD_REQUEST');
      expect(describeZodError(err.cause as ZodError)).toBe(message);
    }
    const past = await rejection(op().money.create_gift_codes({ amount: '5', count: 1, expires: '2020-01-01' }));
    expect([past.code, past.message]).toEqual(['BAD_REQUEST', 'The expiry must be in the future.']);
    expect(await codeCount()).toBe(codes);
    expect(await logTotal()).toBe(lines);
  });

  it('revokes unused codes: a revoked code cannot be redeemed, a redeemed one cannot be revoked', async () => {
    const made = await op().money.create_gift_codes({ amount: '9', count: 3, expires: nextYear() });
    const rows = (await op().money.gift_codes({ batch: made.batch })).codes;
    const idOf = (code: string) => rows.find((r) => r.hint === code.replace(/-/g, '').slice(-4))!.id;
    const [a, b, c] = made.codes;

    expect(await op().money.revoke_gift_codes({ ids: [idOf(a)] })).toEqual({ revoked: 1 });
    expectOperatorLine(await lastLine(), 'coupons revoke');
    expect((await lastLine()).detail).toEqual({ ids: [idOf(a)], count: 1 });
    const before = (await d.caller(customer.token).billing.get_balance()).balance;
    const refused = await rejection(d.caller(customer.token).billing.redeem_coupon({ code: a }));
    expect([refused.code, refused.message]).toEqual(['NOT_FOUND', 'Invalid gift code.']);
    expect((await d.caller(customer.token).billing.get_balance()).balance).toBe(before);
    expect(
      (
        await d.db
          .selectFrom('ledger_transfers')
          .select('id')
          .where('idempotency_key', '=', `coupon:${idOf(a)}`)
          .execute()
      ).length,
    ).toBe(0);

    // Redeemed: cannot be revoked; nothing changes, nothing logged.
    await d.caller(customer.token).billing.redeem_coupon({ code: b });
    const lines = await logTotal();
    const used = await rejection(op().money.revoke_gift_codes({ ids: [idOf(b), idOf(c)] }));
    expect([used.code, used.message]).toEqual([
      'CONFLICT',
      `Gift code #${idOf(b)} was already redeemed; it cannot be revoked.`,
    ]);
    expect((await rejection(op().money.revoke_gift_codes({ ids: [999_999] }))).message).toBe('No gift code #999999.');
    expect((await rejection(op().money.revoke_gift_codes({ batch: 'nosuchbatch' }))).message).toBe(
      'No gift code batch "nosuchbatch".',
    );
    expect((await rejection(op().money.revoke_gift_codes({ ids: [] }))).code).toBe('BAD_REQUEST');
    expect(await logTotal()).toBe(lines);
    expect((await op().money.gift_codes({ batch: made.batch })).codes.find((r) => r.id === idOf(c))!.state).toBe(
      'unused',
    );

    // The CLI revokes the batch's remaining unused code; the redeemed one stands.
    expect(await cli('coupons', 'revoke', '--batch', made.batch)).toMatchObject({
      code: 0,
      out: ['1 gift code revoked'],
    });
    expect(await lastLine()).toMatchObject({
      action: 'coupons revoke',
      actor: 'cli',
      detail: { batch: made.batch, ids: [idOf(c)], count: 1 },
    });
    const states = Object.fromEntries(
      (await op().money.gift_codes({ batch: made.batch })).codes.map((r) => [r.id, r.state]),
    );
    expect(states).toEqual({ [idOf(a)]: 'revoked', [idOf(b)]: 'redeemed', [idOf(c)]: 'revoked' });
    expect((await rejection(d.caller(customer.token).billing.redeem_coupon({ code: c }))).message).toBe(
      'Invalid gift code.',
    );
    // Again: nothing to revoke, nothing logged.
    const lines2 = await logTotal();
    expect(await op().money.revoke_gift_codes({ batch: made.batch })).toEqual({ revoked: 0 });
    expect(await logTotal()).toBe(lines2);
    expect(
      (await cli('coupons', 'list', '--batch', made.batch)).out.filter((l) => l.includes('revoked at')),
    ).toHaveLength(2);
  });
  it('a revoke racing a redemption: each code ends either redeemed and credited, or revoked and not credited', async () => {
    const made = await op().money.create_gift_codes({ amount: '4', count: 8, expires: nextYear() });
    const rows = (await op().money.gift_codes({ batch: made.batch })).codes;
    const idOf = (code: string) => rows.find((r) => r.hint === code.replace(/-/g, '').slice(-4))!.id;
    const users = await Promise.all(made.codes.map(() => freshUser(d.deps, { prefix: 'race' })));
    await Promise.all(
      made.codes.flatMap((code, i) => [
        op()
          .money.revoke_gift_codes({ ids: [idOf(code)] })
          .catch(() => null),
        d
          .caller(users[i].token, `127.1.0.${i + 1}`)
          .billing.redeem_coupon({ code })
          .catch(() => null),
      ]),
    );
    const states = (await op().money.gift_codes({ batch: made.batch })).codes;
    for (const code of made.codes) {
      const id = idOf(code);
      const credited = await d.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('idempotency_key', '=', `coupon:${id}`)
        .execute();
      const state = states.find((r) => r.id === id)!.state;
      expect(['redeemed', 'revoked']).toContain(state);
      expect(credited.length).toBe(state === 'redeemed' ? 1 : 0);
    }
  });
});

describe('deposits, currencies and card sessions', () => {
  it('lists currencies and switches one off and on through the service `deposits` uses', async () => {
    const now = Date.now();
    await insertCurrency(d.db, {
      id: 'ltc-test',
      label: 'Litecoin',
      ticker: 'LTC',
      icon_id: null,
      kind: 'bitcoin',
      confirmations: 3,
      minimum: 10_000,
      price_coin: 'litecoin',
      decimals: 8,
      xpub: 'tpubX',
      address_type: 'wpkh:rltc',
      rpc_url: 'http://127.0.0.1:1',
      rpc_user: null,
      rpc_password: null,
      rpc_cookie: null,
      wallet: null,
      watch_from: now,
      created_at: now,
    });
    expect((await op().money.currencies()).currencies).toEqual([
      expect.objectContaining({
        id: 'ltc-test',
        label: 'Litecoin',
        enabled: true,
        confirmations: 3,
        minimum_micros: 10_000,
      }),
    ]);
    expect(await op().money.set_currency({ id: 'ltc-test', enabled: false })).toEqual({ changed: true });
    expectOperatorLine(await lastLine(), 'deposits disable');
    expect((await cli('deposits', 'list')).out[0]).toContain('disabled');
    expect((await d.caller(customer.token).billing.get_alt_payments()).currencies).not.toContainEqual(
      expect.objectContaining({ ticker: 'LTC' }),
    );
    const lines = await logTotal();
    expect(await op().money.set_currency({ id: 'ltc-test', enabled: false })).toEqual({ changed: false });
    expect(await logTotal()).toBe(lines);
    expect(await cli('deposits', 'enable', 'ltc-test')).toMatchObject({ code: 0, out: ['ltc-test: enabled'] });
    expect(await lastLine()).toMatchObject({ action: 'deposits enable', actor: 'cli', detail: { id: 'ltc-test' } });
    expect((await op().money.currencies()).currencies[0].enabled).toBe(true);
    const missing = await rejection(op().money.set_currency({ id: 'nope', enabled: true }));
    expect([missing.code, missing.message]).toEqual(['NOT_FOUND', 'No deposit currency "nope".']);
    expect(await logTotal()).toBe(lines + 1);
  });

  it('lists deposits and card sessions of every customer, filtered by state', async () => {
    const now = Date.now();
    await d.db
      .insertInto('deposits')
      .values({
        currency_id: 'ltc-test',
        txid: 'ab'.repeat(32),
        vout: 0,
        user_id: customer.id,
        address: 'rltc1qtest',
        amount: '0.5',
        confirmations: 1,
        state: 'pending',
        usd_micros: null,
        seen_at: now,
        updated_at: now,
      })
      .execute();
    await d.db
      .insertInto('deposits')
      .values({
        currency_id: 'ltc-test',
        txid: 'cd'.repeat(32),
        vout: 1,
        user_id: customer.id,
        address: 'rltc1qtest',
        amount: '1',
        confirmations: 3,
        state: 'credited',
        usd_micros: 80_000_000,
        seen_at: now,
        updated_at: now,
      })
      .execute();
    expect((await op().money.deposits({})).deposits.map((x) => x.state).sort()).toEqual(['credited', 'pending']);
    expect((await op().money.deposits({ state: 'pending' })).deposits).toEqual([
      expect.objectContaining({ username: customer.username, amount: '0.5', confirmations: 1, usd_micros: null }),
    ]);
    expect((await rejection(op().money.deposits({ state: 'lost' as never }))).code).toBe('BAD_REQUEST');

    await insertCardSession(d.db, {
      id: 'cs_test_1',
      user_id: customer.id,
      amount: 25_000_000,
      currency: 'usd',
      url: 'https://checkout.example/1',
      request_key: 'rk1',
    });
    await insertCardSession(d.db, {
      id: 'cs_test_2',
      user_id: customer.id,
      amount: 50_000_000,
      currency: 'usd',
      url: 'https://checkout.example/2',
      request_key: 'rk2',
    });
    await d.db.updateTable('card_sessions').set({ status: 'paid' }).where('id', '=', 'cs_test_2').execute();
    expect((await op().money.card_sessions({ status: 'paid' })).sessions).toEqual([
      expect.objectContaining({
        id: 'cs_test_2',
        username: customer.username,
        amount_micros: 50_000_000,
        status: 'paid',
      }),
    ]);
    expect((await op().money.card_sessions({})).sessions).toHaveLength(2);
  });
});

describe('open debts', () => {
  it('lists customers who owe after a card payment was taken back, largest first; nobody else sees the list', async () => {
    const [small, large] = [
      await freshUser(d.deps, { prefix: 'owesmall' }),
      await freshUser(d.deps, { prefix: 'owelarge' }),
    ];
    expect((await op().money.debts()).debts).toEqual([]);
    for (const [u, amount] of [
      [small, 2_000_000],
      [large, 9_000_000],
    ] as const) {
      await d.db.transaction().execute((trx) =>
        takeBack(trx, {
          userId: u.id,
          amount,
          idempotencyKey: `debt-list:${u.id}`,
          kind: 'card_refund',
          description: 'Card payment refunded',
        }),
      );
    }
    expect((await op().money.debts()).debts).toEqual([
      { user_id: large.id, username: large.username, owed_micros: 9_000_000 },
      { user_id: small.id, username: small.username, owed_micros: 2_000_000 },
    ]);
    expect((await rejection(d.caller(customer.token).console.money.debts())).code).toBe('NOT_FOUND');
  });
});

describe('daily charge runs', () => {
  it('shows each day’s run beside the daily and initial charges the ledger holds for that day', async () => {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = Date.now();
    const today = day(now);
    const yesterdayMs = Math.floor(now / 86_400_000) * 86_400_000 - 86_400_000 + 60_000;
    await op().customers.adjust_balance({ id: customer.id, amount: '100', reason: 'funds', key: 'runs-funds' });
    await d.db
      .insertInto('charge_days')
      .values({ day: day(yesterdayMs), started_at: yesterdayMs, completed_at: yesterdayMs + 5_000, cursor: 99 })
      .execute();
    await d.db.insertInto('charge_days').values({ day: today, started_at: now, cursor: 3 }).execute();
    const charge = (key: string, amount: number, kind: 'daily_charge' | 'initial_charge') =>
      d.db.transaction().execute((trx) =>
        postTransfer(trx, {
          idempotencyKey: key,
          debit: userAccount(customer.id),
          credit: PLATFORM.revenue,
          amount,
          kind,
          description: kind,
        }),
      );
    await charge('t-daily-1', 1_000_000, 'daily_charge');
    await charge('t-daily-2', 500_000, 'daily_charge');
    await charge('t-initial-1', 250_000, 'initial_charge');
    // Yesterday's charge, posted yesterday (transfers are immutable: the clock is set back).
    vi.useFakeTimers({ toFake: ['Date'], now: yesterdayMs + 1_000 });
    try {
      await charge('t-daily-y', 700_000, 'daily_charge');
    } finally {
      vi.useRealTimers();
    }

    const runs = (await op().money.charge_runs()).days;
    expect(runs.map((r) => r.day)).toEqual([today, day(yesterdayMs)]);
    expect(runs[0]).toMatchObject({
      started_at: new Date(now).toISOString(),
      completed_at: null,
      daily_micros: 1_500_000,
      daily_transfers: 2,
      initial_micros: 250_000,
      initial_transfers: 1,
    });
    expect(runs[1]).toMatchObject({
      completed_at: new Date(yesterdayMs + 5_000).toISOString(),
      daily_micros: 700_000,
      daily_transfers: 1,
      initial_micros: 0,
      initial_transfers: 0,
    });
  });
});

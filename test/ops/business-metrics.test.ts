import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PLATFORM, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { creditDeposit } from '../../src/server/billing/deposit';
import { scrape } from '../support/metrics';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser } from '../support/users';

const TOKEN = 'operator-token-metrics-0123';
const DAY_MS = 86_400_000;

// The business metrics read back after real ledger transfers (postTransfer, creditDeposit:
// the trigger moves the counters the scrape reads), real deposits and mail rows, a real
// websocket. Every value is compared with what this test made, from a fresh database.
describe('business metrics in /metrics', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ OPERATOR_TOKEN: TOKEN });
  });
  afterAll(() => stopTestServer(s));

  it('counts customers, balances, daily charges, deposits, mail backlog and live connections', async () => {
    const { db } = s.deps;
    const a = await freshUser(s.deps, { prefix: 'ma' });
    const b = await freshUser(s.deps, { prefix: 'mb' });
    await freshUser(s.deps, { prefix: 'mc', verified: false, login: false });
    const disabled = await freshUser(s.deps, { prefix: 'md', login: false });
    await db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', disabled.id).execute();
    const operator = await freshUser(s.deps, { prefix: 'mo', login: false });
    await db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.id).execute();

    // Money in: a crypto deposit of $40 to a, $10 by card to b; the daily charge takes
    // $1.25 from a and $0.75 from b today, and took $2 from a yesterday.
    await db.transaction().execute(async (trx) => {
      await creditDeposit(trx, {
        userId: a.id,
        amount: 40_000_000,
        via: 'crypto',
        idempotencyKey: 'm:dep:a',
        description: 'Deposit',
        meta: {},
      });
      await creditDeposit(trx, {
        userId: b.id,
        amount: 10_000_000,
        via: 'card',
        card: { fingerprint: null },
        idempotencyKey: 'm:card:b',
        description: 'Card',
        meta: {},
      });
    });
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    await db
      .insertInto('ledger_transfers')
      .values({
        idempotency_key: 'm:charge:a:y',
        debit_account: userAccount(a.id),
        credit_account: PLATFORM.revenue,
        amount: 2_000_000,
        kind: 'daily_charge',
        description: 'Daily charge',
        created_at: today - DAY_MS + 3_600_000,
        meta: null,
      })
      .execute();
    await db.transaction().execute(async (trx) => {
      await postTransfer(trx, {
        idempotencyKey: 'm:charge:a:t',
        debit: userAccount(a.id),
        credit: PLATFORM.revenue,
        amount: 1_250_000,
        kind: 'daily_charge',
        description: 'Daily charge',
      });
      await postTransfer(trx, {
        idempotencyKey: 'm:charge:b:t',
        debit: userAccount(b.id),
        credit: PLATFORM.revenue,
        amount: 750_000,
        kind: 'daily_charge',
        description: 'Daily charge',
      });
      // Not a daily charge: counted in balances, not in the day's charges.
      await postTransfer(trx, {
        idempotencyKey: 'm:initial:b',
        debit: userAccount(b.id),
        credit: PLATFORM.revenue,
        amount: 500_000,
        kind: 'initial_charge',
        description: 'Initial charge',
      });
    });

    // Deposits seen on chain: two waiting for confirmations, one credited, one too small.
    await db
      .insertInto('deposit_currencies')
      .values({
        id: 'ltc-m',
        label: 'Litecoin',
        ticker: 'LTC',
        kind: 'bitcoin',
        confirmations: 3,
        minimum: 10_000,
        price_coin: 'litecoin',
        decimals: 8,
        rpc_url: 'http://127.0.0.1:1',
        watch_from: 0,
        created_at: Date.now(),
      })
      .execute();
    const dep = (txid: string, state: 'pending' | 'credited' | 'below_minimum') => ({
      currency_id: 'ltc-m',
      txid,
      vout: 0,
      user_id: a.id,
      address: 'addr',
      amount: '0.1',
      confirmations: 1,
      state,
      usd_micros: null,
      seen_at: Date.now(),
      updated_at: Date.now(),
    });
    await db
      .insertInto('deposits')
      .values([dep('t1', 'pending'), dep('t2', 'pending'), dep('t3', 'credited'), dep('t4', 'below_minimum')])
      .execute();

    // Mail: one waiting for a retry an hour from now (not due: the runner leaves it be).
    await db
      .insertInto('mail_outbox')
      .values({
        to_addr: 'later@example.test',
        subject: 's',
        text: 't',
        status: 'pending',
        next_attempt_at: Date.now() + 3_600_000,
        created_at: Date.now(),
      })
      .execute();

    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/live`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const { samples: m } = await scrape(s.url, TOKEN);
      expect(m.get('nodekeep_customers{state="verified"}')).toBe(2);
      expect(m.get('nodekeep_customers{state="unverified"}')).toBe(1);
      expect(m.get('nodekeep_customers{state="disabled"}')).toBe(1);
      // 40 + 10 - 2 - 1.25 - 0.75 - 0.5
      expect(m.get('nodekeep_customer_balances_usd')).toBeCloseTo(45.5, 6);
      expect(m.get('nodekeep_platform_account_usd{account="platform:revenue"}')).toBeCloseTo(4.5, 6);
      expect(m.get('nodekeep_platform_account_usd{account="platform:crypto_clearing"}')).toBeCloseTo(-40, 6);
      expect(m.get('nodekeep_daily_charge_usd{day="today"}')).toBeCloseTo(2, 6);
      expect(m.get('nodekeep_daily_charge_transfers{day="today"}')).toBe(2);
      expect(m.get('nodekeep_daily_charge_usd{day="yesterday"}')).toBeCloseTo(2, 6);
      expect(m.get('nodekeep_daily_charge_transfers{day="yesterday"}')).toBe(1);
      expect(m.get('nodekeep_deposits{state="pending"}')).toBe(2);
      expect(m.get('nodekeep_deposits{state="credited"}')).toBe(1);
      expect(m.get('nodekeep_deposits{state="below_minimum"}')).toBe(1);
      expect(m.get('nodekeep_deposits{state="removed"}')).toBe(0);
      expect(m.get('nodekeep_mail_backlog')).toBe(1);
      expect(m.get('nodekeep_mail_oldest_pending_seconds')).toBe(0);
      expect(m.get('nodekeep_live_connections')).toBe(1);
      // The fleet's metrics are still there beside them.
      expect([...m.keys()].some((k) => k.startsWith('nodekeep_monitor_check_seconds'))).toBe(true);
    } finally {
      ws.close();
    }

    // Moves with the ledger: another charge today shows at the next scrape.
    await db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: 'm:charge:a:t2',
        debit: userAccount(a.id),
        credit: PLATFORM.revenue,
        amount: 3_000_000,
        kind: 'daily_charge',
        description: 'Daily charge',
      }),
    );
    const { samples: after } = await scrape(s.url, TOKEN);
    expect(after.get('nodekeep_daily_charge_usd{day="today"}')).toBeCloseTo(5, 6);
    expect(after.get('nodekeep_customer_balances_usd')).toBeCloseTo(42.5, 6);
    // The socket closed above: the server counts it gone once its close arrives.
    for (let i = 0; i < 50 && (await scrape(s.url, TOKEN)).samples.get('nodekeep_live_connections') !== 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect((await scrape(s.url, TOKEN)).samples.get('nodekeep_live_connections')).toBe(0);
  });
});

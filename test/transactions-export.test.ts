import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM, userAccount } from '../src/server/billing/ledger';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser, type FreshUser } from './support/users';

// The money exports over real HTTP (issue 24, "Money"): the history as a CSV file, exact
// to the micro-dollar, each customer only their own; the monthly statement from the ledger.

let s: TestServer;
let ann: FreshUser;
let bob: FreshUser;

const at = (iso: string) => Date.parse(iso);

/**
 * A ledger line dated `createdAt`, written as the daily charge writes its own (a plain
 * insert; the ledger's trigger moves the counters): the server's clock stays real.
 */
async function post(userId: number, key: string, amount: number, description: string, createdAt: number) {
  const down = amount < 0;
  await s.deps.db
    .insertInto('ledger_transfers')
    .values({
      idempotency_key: key,
      debit_account: down ? userAccount(userId) : PLATFORM.adjustments,
      credit_account: down ? PLATFORM.revenue : userAccount(userId),
      amount: Math.abs(amount),
      kind: down ? 'daily_charge' : 'adjustment',
      description,
      meta: null,
      created_at: createdAt,
    })
    .execute();
}

beforeAll(async () => {
  s = await startTestServer({});
  [ann, bob] = await Promise.all([freshUser(s.deps, { prefix: 'ann' }), freshUser(s.deps, { prefix: 'bob' })]);
});
afterAll(() => stopTestServer(s));

const get = (path: string, token?: string) =>
  fetch(`${s.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('GET /api/export_transactions', () => {
  it("answers the customer's own history as CSV, exact amounts and the balance after each line", async () => {
    await post(ann.id, 'x:ann:1', 10_000_000, 'Card payment', at('2026-09-30T23:59:59.000Z'));
    await post(ann.id, 'x:ann:2', -63_000, 'Daily charge: home (2026-10-01)', at('2026-10-01T00:00:30.000Z'));
    await post(
      ann.id,
      'x:ann:3',
      -330_000,
      'Daily charge: 2 nodes, "cloud" (2026-10-02)',
      at('2026-10-02T00:00:30.000Z'),
    );
    await post(ann.id, 'x:ann:4', 1_500_000, '=HYPERLINK("x") refund, reason', at('2026-11-03T10:00:00.000Z'));
    await post(bob.id, 'x:bob:1', 7_000_000, 'Bob only', at('2026-10-05T00:00:00.000Z'));

    const res = await get('/api/export_transactions', ann.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="nodekeep-transactions-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect((await res.text()).split('\r\n')).toEqual([
      'date_utc,description,amount_usd,balance_usd',
      '2026-09-30 23:59:59,Card payment,10.00,10.00',
      '2026-10-01 00:00:30,Daily charge: home (2026-10-01),-0.063,9.937',
      '2026-10-02 00:00:30,"Daily charge: 2 nodes, ""cloud"" (2026-10-02)",-0.33,9.607',
      `2026-11-03 10:00:00,"'=HYPERLINK(""x"") refund, reason",1.50,11.107`,
      '',
    ]);
    const bobs = await (await get('/api/export_transactions', bob.token)).text();
    expect(bobs).toBe('date_utc,description,amount_usd,balance_usd\r\n2026-10-05 00:00:00,Bob only,7.00,7.00\r\n');
    expect(bobs).not.toContain('Card payment');
  });

  it('refuses a caller without a token', async () => {
    const res = await get('/api/export_transactions');
    expect(res.status).toBe(401);
    expect((await res.json()).success).toBe(false);
  });
});

describe('GET /api/get_statement', () => {
  it("gives a month's opening balance, its lines and its closing balance from the ledger", async () => {
    const oct = await (await get('/api/get_statement?month=2026-10', ann.token)).json();
    expect(oct).toMatchObject({
      success: true,
      month: '2026-10',
      opening: 10,
      money_in: 0,
      money_out: 0.393,
      closing: 9.607,
      entries: [
        { date: '2026-10-01 00:00', description: 'Daily charge: home (2026-10-01)', amount: -0.063, balance: 9.937 },
        {
          date: '2026-10-02 00:00',
          description: 'Daily charge: 2 nodes, "cloud" (2026-10-02)',
          amount: -0.33,
          balance: 9.607,
        },
      ],
    });
    expect(oct.months).toEqual(['2026-11', '2026-10', '2026-09']);
    const bobs = await (await get('/api/get_statement?month=2026-10', bob.token)).json();
    expect(bobs).toMatchObject({ opening: 0, closing: 7, entries: [{ description: 'Bob only', amount: 7 }] });
  });

  it('refuses a month that is not one, or has not begun, and changes nothing', async () => {
    const bad = await get('/api/get_statement?month=2026-13', ann.token);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('The month must be written YYYY-MM, such as 2026-11.');
    const future = await get('/api/get_statement?month=2999-01', ann.token);
    expect(future.status).toBe(400);
    expect((await future.json()).message).toBe('That month has not begun yet: there is no statement for it.');
  });
});

import http from 'node:http';
import { MAINNET } from '../support/addresses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debtOpen } from '../../src/server/billing/debt';
import { accountBalance, ledgerMismatches, userAccount } from '../../src/server/billing/ledger';
import { settledSnapshot, snapshot } from '../support/db-snapshot';
import { signedEvent, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { callerFor, freshUser, type FreshUser } from '../support/users';

// Attack: a customer pays by card, then asks the bank for the money back (refund or
// chargeback). The signed `charge.refunded` / `charge.dispute.created` answered "not used"
// and the credit stayed: free money. Against the FAKE of Stripe's API
// (test/support/fake-stripe.ts), real HTTP, a real server; events signed by the SDK.

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_nodekeep',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_nodekeep',
  STRIPE_WEBHOOK_SECRET: 'whsec_nodekeeptest',
};
const SECRET = KEYS.STRIPE_WEBHOOK_SECRET;
const USD = 1_000_000;

let stripe: FakeStripe;
let s: TestServer;
let operator: FreshUser;
let nextIp = 40_000;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY });
  s = await startTestServer({ ...KEYS, STRIPE_API_BASE: stripe.url });
  operator = await freshUser(s.deps, { prefix: 'refundop', tfa: true });
  await s.deps.db.updateTable('users').set({ role: 'operator' }).where('id', '=', operator.id).execute();
});
afterAll(async () => {
  await stopTestServer(s);
  await stripe?.close();
});

const api = (path: string, body: unknown, token: string) =>
  requestFrom(loopback(nextIp++), `${s.url}${path}`, { method: 'POST', body, token });
const get = (path: string, token: string) => requestFrom(loopback(nextIp++), `${s.url}${path}`, { token });
/** One signed delivery, from its own loopback address. */
function deliver(
  ev: { payload: string; signature: string },
  ip = loopback(nextIp++),
): Promise<{ status: number; body: any }> {
  const u = new URL(`${s.url}/api/stripe_webhook`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        localAddress: ip,
        agent: false,
        headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature, connection: 'close' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(ev.payload);
  });
}
const balance = (u: FreshUser) => accountBalance(s.deps.db, userAccount(u.id));
const debt = async (u: FreshUser) => 0 - (await accountBalance(s.deps.db, `debt:${u.id}`));
const kinds = async (userId: number, kind: string) =>
  (
    await s.deps.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .execute()
  ).map((n) => n.message);

/** A paid and credited card payment of `dollars`: its session id. */
async function paid(u: FreshUser, dollars: number): Promise<string> {
  const r = await api('/api/credit_card', { amount: dollars }, u.token);
  expect(r.status).toBe(200);
  const session = r.body.session as string;
  expect(
    (await deliver(signedEvent('checkout.session.completed', stripe.complete(session), SECRET))).body.message,
  ).toBe('Credited.');
  return session;
}

describe('refunds', () => {
  it('the replay: a signed full charge.refunded takes the credit back; the customer sees a line and a notification, the operators a notification', async () => {
    const u = await freshUser(s.deps, { prefix: 'refunder' });
    const session = await paid(u, 10);
    expect(await balance(u)).toBe(10 * USD);
    const r = await deliver(signedEvent('charge.refunded', stripe.refund(session, 1000), SECRET));
    expect(r).toEqual({ status: 200, body: { success: true, message: 'Taken back.' } });
    expect(await balance(u)).toBe(0);
    expect(await debt(u)).toBe(0);
    const tx = (await get('/api/get_transactions', u.token)).body.transactions as {
      description: string;
      amount: number;
    }[];
    expect(tx[0]).toMatchObject({
      amount: -10,
      description: expect.stringMatching(/^Card payment refunded: \$10\.00 of your payment of \d{4}-\d\d-\d\d$/),
    });
    expect(await kinds(u.id, 'card_payment_reversed')).toEqual([
      'Your card payment was refunded: $10.00 was taken from your balance.',
    ]);
    expect((await kinds(operator.id, 'card_reversal_alert')).at(-1)).toBe(
      `${u.username}: a card payment was refunded, $10.00 taken back.`,
    );
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('partial refunds take the growth of amount_refunded once: duplicates, stale and same-growth events take nothing more', async () => {
    const u = await freshUser(s.deps, { prefix: 'partial' });
    const session = await paid(u, 50);
    const first = signedEvent('charge.refunded', stripe.refund(session, 1000), SECRET);
    expect((await deliver(first)).body.message).toBe('Taken back.');
    expect(await balance(u)).toBe(40 * USD);
    const grown = stripe.refund(session, 1500); // amount_refunded 2500
    expect((await deliver(signedEvent('charge.refunded', grown, SECRET))).body.message).toBe('Taken back.');
    expect(await balance(u)).toBe(25 * USD);
    // The first event again (same id), another event for the same growth, and the older state under a new id.
    expect((await deliver(first)).body.message).toBe('Already applied.');
    expect((await deliver(signedEvent('charge.refunded', grown, SECRET))).body.message).toBe(
      'Applied; nothing more to take.',
    );
    expect(
      (await deliver(signedEvent('charge.refunded', { ...grown, amount_refunded: 1000 }, SECRET))).body.message,
    ).toBe('Applied; nothing more to take.');
    expect(await balance(u)).toBe(25 * USD);
  });

  it('out of order: the larger refund first, then the smaller one, takes the larger once', async () => {
    const u = await freshUser(s.deps, { prefix: 'ooorefund' });
    const session = await paid(u, 30);
    const small = signedEvent('charge.refunded', stripe.refund(session, 500), SECRET);
    const large = signedEvent('charge.refunded', stripe.refund(session, 1000), SECRET);
    expect((await deliver(large)).body.message).toBe('Taken back.');
    expect((await deliver(small)).body.message).toBe('Applied; nothing more to take.');
    expect(await balance(u)).toBe(15 * USD);
  });

  it('a refund that overtakes the payment is refused (Stripe retries) and applied once the payment is credited', async () => {
    const u = await freshUser(s.deps, { prefix: 'overtake' });
    const r = await api('/api/credit_card', { amount: 12 }, u.token);
    const completed = stripe.complete(r.body.session);
    const refund = signedEvent('charge.refunded', stripe.refund(r.body.session, 1200), SECRET);
    const first = await deliver(refund);
    expect(first.status).toBe(404);
    expect(first.body.message).toMatch(
      /^Unknown charge ch_test_\w+: no credited card payment has its payment intent; nothing was changed\.$/,
    );
    expect((await deliver(signedEvent('checkout.session.completed', completed, SECRET))).body.message).toBe(
      'Credited.',
    );
    expect(await balance(u)).toBe(12 * USD);
    expect((await deliver(refund)).body.message).toBe('Taken back.');
    expect(await balance(u)).toBe(0);
  });

  it('the same event 100 times at once from 100 addresses, and 100 distinct events of one growth: taken once', async () => {
    const u = await freshUser(s.deps, { prefix: 'hundred' });
    const session = await paid(u, 20);
    const ev = signedEvent('charge.refunded', stripe.refund(session, 700), SECRET);
    const same = await Promise.all(Array.from({ length: 100 }, (_, i) => deliver(ev, loopback(i, 50_000))));
    expect(byStatus(same)).toEqual({ 200: 100 });
    expect(same.filter((a) => a.body.message === 'Taken back.')).toHaveLength(1);
    const grown = stripe.refund(session, 300);
    const distinct = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        deliver(signedEvent('charge.refunded', grown, SECRET), loopback(i, 50_200)),
      ),
    );
    expect(distinct.filter((a) => a.body.message === 'Taken back.')).toHaveLength(1);
    expect(await balance(u)).toBe(10 * USD);
    const taken = await s.deps.db
      .selectFrom('ledger_transfers')
      .select('amount')
      .where('debit_account', '=', userAccount(u.id))
      .where('kind', '=', 'card_refund')
      .execute();
    expect(taken.map((t) => t.amount).sort()).toEqual([3 * USD, 7 * USD]);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});

describe('disputes', () => {
  it('created then closed won: taken, then given back', async () => {
    const u = await freshUser(s.deps, { prefix: 'won' });
    const session = await paid(u, 25);
    const d = stripe.dispute(session);
    expect((await deliver(signedEvent('charge.dispute.created', d, SECRET))).body.message).toBe('Taken back.');
    expect(await balance(u)).toBe(0);
    expect((await deliver(signedEvent('charge.dispute.closed', { ...d, status: 'won' }, SECRET))).body.message).toBe(
      'Given back.',
    );
    expect(await balance(u)).toBe(25 * USD);
    expect(await kinds(u.id, 'card_dispute_won')).toEqual([
      'The dispute of your card payment is closed: $25.00 is back in your account.',
    ]);
    // A late `created` of the closed dispute changes nothing.
    expect((await deliver(signedEvent('charge.dispute.created', d, SECRET))).body.message).toBe(
      'Applied; nothing more to take.',
    );
    expect(await balance(u)).toBe(25 * USD);
  });

  it('created then closed lost keeps it taken; closed lost delivered first takes it once', async () => {
    const u = await freshUser(s.deps, { prefix: 'lost' });
    const a = await paid(u, 10);
    const b = await paid(u, 15);
    const da = stripe.dispute(a);
    expect((await deliver(signedEvent('charge.dispute.created', da, SECRET))).body.message).toBe('Taken back.');
    expect((await deliver(signedEvent('charge.dispute.closed', { ...da, status: 'lost' }, SECRET))).body.message).toBe(
      'Applied; nothing more to take.',
    );
    expect(await balance(u)).toBe(15 * USD);
    const db = stripe.dispute(b);
    expect((await deliver(signedEvent('charge.dispute.closed', { ...db, status: 'lost' }, SECRET))).body.message).toBe(
      'Taken back.',
    );
    expect((await deliver(signedEvent('charge.dispute.created', db, SECRET))).body.message).toBe(
      'Applied; nothing more to take.',
    );
    expect(await balance(u)).toBe(0);
    expect(await debt(u)).toBe(0);
  });

  it('a dispute closed lost for a smaller amount than it was opened for gives nothing back', async () => {
    const u = await freshUser(s.deps, { prefix: 'shrink' });
    const session = await paid(u, 10);
    const d = stripe.dispute(session);
    expect((await deliver(signedEvent('charge.dispute.created', d, SECRET))).body.message).toBe('Taken back.');
    expect(
      (await deliver(signedEvent('charge.dispute.closed', { ...d, status: 'lost', amount: 100 }, SECRET))).body.message,
    ).toBe('Applied; nothing more to take.');
    expect(await balance(u)).toBe(0);
  });

  it('a dispute and a refund of the same charge never take more than the charge credited', async () => {
    const u = await freshUser(s.deps, { prefix: 'both' });
    const other = await paid(u, 40); // money the customer has from elsewhere
    const session = await paid(u, 10);
    expect((await deliver(signedEvent('charge.dispute.created', stripe.dispute(session), SECRET))).body.message).toBe(
      'Taken back.',
    );
    expect((await deliver(signedEvent('charge.refunded', stripe.refund(session, 1000), SECRET))).body.message).toBe(
      'Applied; nothing more to take.',
    );
    expect(await balance(u)).toBe(40 * USD);
    expect(other).not.toBe(session);
  });
});

describe('debt', () => {
  it('a refund larger than the balance leaves 0 and a debt; deploys are refused; the next deposit pays the debt first', async () => {
    const u = await freshUser(s.deps, { prefix: 'debtor' });
    const session = await paid(u, 30);
    // Spent most of it: a Satori neuron's first day, and more.
    expect(
      (await api('/api/deploy_server', { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 }, u.token))
        .status,
    ).toBe(200);
    const left = await balance(u);
    expect(left).toBeLessThan(30 * USD);
    expect((await deliver(signedEvent('charge.refunded', stripe.refund(session, 3000), SECRET))).body.message).toBe(
      'Taken back.',
    );
    const owed = 30 * USD - left;
    expect(await balance(u)).toBe(0);
    expect(await debt(u)).toBe(owed);
    // The customer's history: the refund whole, and the part owed beside it.
    const lines = (
      (await get('/api/get_transactions', u.token)).body.transactions as { description: string; amount: number }[]
    ).slice(0, 2);
    expect(lines[0]).toMatchObject({
      amount: -30,
      description: expect.stringMatching(/^Card payment refunded: \$30\.00/),
    });
    expect(lines[1].description).toMatch(
      /^Owed: \$[\d.]+ your balance did not cover \(your next deposits pay it first\)$/,
    );
    expect(lines[1].amount).toBeGreaterThan(0);
    const [note] = await kinds(u.id, 'card_payment_reversed');
    expect(note).toMatch(
      /Your balance did not cover \$[\d.]+: it is owed, your next deposit pays it first, and new nodes cannot be deployed until then\. Add funds on the Billing page\.$/,
    );
    expect(await debtsList()).toContainEqual({ user_id: u.id, username: u.username, owed_micros: owed });

    const before = await settledSnapshot(s.deps.db);
    const refused = await api(
      '/api/deploy_server',
      { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 },
      u.token,
    );
    expect(refused).toEqual({ status: 400, body: { success: false, message: debtOpen(owed) } });
    expect(await snapshot(s.deps.db)).toBe(before);

    await paid(u, 5);
    expect(await debt(u)).toBe(0);
    expect(await balance(u)).toBe(5 * USD - owed);
    const tx = (await get('/api/get_transactions', u.token)).body.transactions as {
      description: string;
      amount: number;
    }[];
    expect(tx[0].description).toMatch(/^Owed amount paid: \$/);
    expect(
      (await api('/api/deploy_server', { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 }, u.token))
        .status,
    ).toBe(200);
    expect(await debtsList()).not.toContainEqual(expect.objectContaining({ user_id: u.id }));
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('a deposit smaller than the debt goes to it whole; a won dispute pays the rest', async () => {
    const u = await freshUser(s.deps, { prefix: 'bigdebt' });
    const session = await paid(u, 20);
    const d = stripe.dispute(session);
    // The money is spent before the dispute arrives (a platform correction stands in for hosting).
    await s.deps.db.transaction().execute(async (trx) => {
      const { postTransfer, PLATFORM } = await import('../../src/server/billing/ledger');
      await postTransfer(trx, {
        idempotencyKey: `spent:${u.id}`,
        debit: userAccount(u.id),
        credit: PLATFORM.revenue,
        amount: 20 * USD,
        kind: 'adjustment',
        description: 'Spent',
      });
    });
    expect((await deliver(signedEvent('charge.dispute.created', d, SECRET))).body.message).toBe('Taken back.');
    expect(await debt(u)).toBe(20 * USD);
    await paid(u, 8);
    expect(await balance(u)).toBe(0);
    expect(await debt(u)).toBe(12 * USD);
    expect((await deliver(signedEvent('charge.dispute.closed', { ...d, status: 'won' }, SECRET))).body.message).toBe(
      'Given back.',
    );
    expect(await debt(u)).toBe(0);
    expect(await balance(u)).toBe(8 * USD);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});

describe('bad events', () => {
  it('malformed, mismatched or unknown charges are refused clearly and change nothing', async () => {
    const u = await freshUser(s.deps, { prefix: 'badrefund' });
    const session = await paid(u, 10);
    const c = stripe.charge(session);
    const d = stripe.dispute(session);
    // The nodes an earlier test deployed are placed by the fleet after their answers (a quiet
    // clean-clone run saw two placements land during this test): place them now, then settle.
    await s.deps.fleet.reconcile();
    const before = await settledSnapshot(s.deps.db);
    const cases: [string, unknown, number, RegExp][] = [
      ['charge.refunded', { ...c, amount_refunded: -100 }, 400, /amount_refunded must not be negative/],
      ['charge.refunded', { ...c, amount_refunded: '1000' }, 400, /amount_refunded must be a number/],
      ['charge.refunded', { ...c, amount_refunded: 10.5 }, 400, /amount_refunded must be whole cents/],
      ['charge.refunded', { ...c, amount_refunded: 2000 }, 400, /more refunded than paid/],
      ['charge.refunded', { ...c, amount: 5000, amount_refunded: 5000 }, 400, /amount differs/],
      ['charge.refunded', { ...c, amount_refunded: 1000, currency: 'eur' }, 400, /currency eur differs/],
      ['charge.refunded', { ...c, payment_intent: null }, 400, /payment_intent must be text/],
      [
        'charge.refunded',
        { ...c, amount_refunded: 1000, payment_intent: 'pi_unknown' },
        404,
        /Unknown charge .*nothing was changed/,
      ],
      ['charge.refunded', { ...d }, 400, /object/],
      ['charge.dispute.created', { ...d, amount: 5000 }, 400, /larger than the recorded payment/],
      ['charge.dispute.created', { ...d, amount: -1 }, 400, /amount must not be negative/],
      ['charge.dispute.closed', { ...d, status: 'under_review' }, 400, /must be won, lost or warning_closed/],
      ['charge.dispute.created', null, 400, /not valid/],
    ];
    for (const [type, object, status, message] of cases) {
      const r = await deliver(signedEvent(type, object, SECRET));
      expect(r.status, JSON.stringify(object)).toBe(status);
      expect(r.body.message, JSON.stringify(object)).toMatch(message);
    }
    // Unsigned or wrongly signed: refused before anything is read.
    const forged = signedEvent('charge.refunded', { ...c, amount_refunded: 1000 }, 'whsec_wrong');
    expect((await deliver(forged)).status).toBe(400);
    expect(await snapshot(s.deps.db)).toBe(before);
    expect(await balance(u)).toBe(10 * USD);
  });
});

/** The console's list of open debts, as the operator sees it. */
async function debtsList() {
  return (await callerFor(s.deps)(operator.token).console.money.debts()).debts;
}

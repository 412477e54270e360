import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalance, ledgerMismatches, userAccount } from '../../src/server/billing/ledger';
import { runCli } from '../../src/server/cli/main';
import { snapshot } from '../support/db-snapshot';
import { signedEvent, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { waitFor } from '../support/wait';

// Attacks on card payments over real HTTP from distinct loopback addresses, against the
// FAKE of Stripe's API (test/support/fake-stripe.ts) driven by the real SDK.

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_nodekeep',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_nodekeep',
  STRIPE_WEBHOOK_SECRET: 'whsec_nodekeeptest',
};
const SECRET = KEYS.STRIPE_WEBHOOK_SECRET;

let stripe: FakeStripe;
let s: TestServer;
let nextIp = 20_000;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY });
  s = await startTestServer({ ...KEYS, STRIPE_API_BASE: stripe.url });
});
afterAll(async () => {
  await stopTestServer(s);
  await stripe?.close();
});

const post = (path: string, body: unknown, token?: string, ip = loopback(nextIp++)) =>
  requestFrom(ip, `${s.url}${path}`, { method: 'POST', body, token });
const deliver = (ev: { payload: string; signature: string }) =>
  fetch(`${s.url}/api/stripe_webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature },
    body: ev.payload,
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const transfers = (key: string) =>
  s.deps.db.selectFrom('ledger_transfers').selectAll().where('idempotency_key', '=', key).execute();

async function open(u: FreshUser, amount: number): Promise<string> {
  const r = await post('/api/credit_card', { amount }, u.token);
  expect(r.status).toBe(200);
  return r.body.session;
}

describe('flooding the payment provider', () => {
  it("100 resumes of one session at once from 100 addresses reach Stripe at most the account's limit; other users still pay", async () => {
    const [mallory, ann] = await Promise.all([
      freshUser(s.deps, { prefix: 'mallory' }),
      freshUser(s.deps, { prefix: 'annflood' }),
    ]);
    const session = await open(mallory, 10);
    const before = stripe.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => post('/api/resume_stripe', { session_id: session }, mallory.token)),
    );
    // Each resume is a call on the platform's one Stripe key: unbounded, one account
    // would use up the rate limit every user's payments share.
    expect(byStatus(answers)).toEqual({ 200: 60, 429: 40 });
    expect(answers.find((a) => a.status === 429)!.body).toEqual({
      success: false,
      message: 'Too many payment requests. Please wait an hour and try again.',
    });
    expect(stripe.requests.length - before).toBe(60);
    // Cancels count in the same budget: the session stays pending, Stripe is not asked.
    const cancel = await post('/api/cancel_stripe', { session_id: session }, mallory.token);
    expect(cancel.status).toBe(429);
    expect(stripe.requests.length - before).toBe(60);
    expect(
      (await s.deps.db.selectFrom('card_sessions').select('status').where('id', '=', session).executeTakeFirstOrThrow())
        .status,
    ).toBe('pending');
    // Another account is not held back.
    const theirs = await open(ann, 25);
    expect((await post('/api/resume_stripe', { session_id: theirs }, ann.token)).status).toBe(200);
    expect((await post('/api/cancel_stripe', { session_id: theirs }, ann.token)).body).toEqual({
      success: true,
      message: 'The payment was cancelled.',
    });
  });

  it("another user's session ids cost nothing at Stripe and take none of the owner's budget", async () => {
    const [owner, other] = await Promise.all([
      freshUser(s.deps, { prefix: 'owner' }),
      freshUser(s.deps, { prefix: 'other' }),
    ]);
    const session = await open(owner, 10);
    const before = stripe.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(i % 2 ? '/api/resume_stripe' : '/api/cancel_stripe', { session_id: session }, other.token),
      ),
    );
    expect(byStatus(answers)).toEqual({ 404: 100 });
    expect(new Set(answers.map((a) => a.body.message))).toEqual(new Set(['Payment session not found.']));
    expect(stripe.requests.length).toBe(before);
    expect((await post('/api/cancel_stripe', { session_id: session }, owner.token)).status).toBe(200);
  });
});

describe('bad amounts', () => {
  it('fractions of a cent, however small, are refused with a clear message; Stripe is not asked and nothing is written', async () => {
    const u = await freshUser(s.deps, { prefix: 'cents' });
    const before = await snapshot(s.deps.db);
    const calls = stripe.requests.length;
    for (const raw of ['5.000000001', '10.0000001', '25.001', '99.999', '1e-7', '5.0000000000001']) {
      const r = await requestFrom(loopback(nextIp++), `${s.url}/api/credit_card`, {
        method: 'POST',
        body: { amount: JSON.parse(raw) },
        token: u.token,
      });
      expect(r.status, raw).toBe(400);
      expect(r.body.message, raw).toMatch(/at most two decimals/);
    }
    expect(stripe.requests.length).toBe(calls);
    expect(await snapshot(s.deps.db)).toBe(before);
    // Whole cents, however the client spells them, still pay exactly.
    for (const [amount, cents] of [
      [10.1, 1010],
      [1234.15, 123415],
      [0.1e2, 1000],
      [5.05, 505],
    ] as const) {
      const id = await open(u, amount);
      expect(stripe.sessions.get(id)!.amount_total).toBe(cents);
    }
  });
});

describe('webhook deliveries out of order', () => {
  it('expired first, then completed and expired interleaved 100 times at once over two sessions: each paid session credited once, the rest expired', async () => {
    const u = await freshUser(s.deps, { prefix: 'ooo' });
    const paidId = await open(u, 40);
    const lostId = await open(u, 60);
    const paid = stripe.complete(paidId);
    const lost = stripe.expire(lostId);
    // Stripe may send the expiry of a session it later reports completed (async methods): expiry first.
    expect(
      (await deliver(signedEvent('checkout.session.expired', { ...paid, status: 'expired' }, SECRET))).body.message,
    ).toBe('Session marked expired.');
    const events = Array.from({ length: 100 }, (_, i) =>
      i % 4 === 0
        ? signedEvent('checkout.session.expired', lost, SECRET)
        : i % 4 === 1
          ? signedEvent('checkout.session.expired', { ...paid, status: 'expired' }, SECRET)
          : signedEvent('checkout.session.completed', paid, SECRET),
    );
    const answers = await Promise.all(events.map(deliver));
    expect(byStatus(answers)).toEqual({ 200: 100 });
    expect(answers.filter((a) => a.body.message === 'Credited.')).toHaveLength(1);
    expect(await transfers(`card:${paidId}`)).toHaveLength(1);
    expect(await transfers(`card:${lostId}`)).toHaveLength(0);
    const rows = await s.deps.db
      .selectFrom('card_sessions')
      .select(['id', 'status'])
      .where('user_id', '=', u.id)
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [paidId]: 'paid', [lostId]: 'expired' });
    expect((await requestFrom(loopback(nextIp++), `${s.url}/api/get_balance`, { token: u.token })).body.balance).toBe(
      40,
    );
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});

describe('API keys on money calls', () => {
  it('a writable key cannot pay, cancel or redeem (login sessions only); a read-only key cannot make an address; nothing changes', async () => {
    const u = await freshUser(s.deps, { prefix: 'keys' });
    const session = await open(u, 10);
    const key = async (read_only: boolean) =>
      (
        await post(
          '/api/create_api_key',
          { name: read_only ? 'reader' : 'writer', allowed: '', read_only },
          u.token,
          '127.0.0.1',
        )
      ).body.key as string;
    const [writer, reader] = [await key(false), await key(true)];
    // Each new key mails its owner (a job after the answer): the snapshot is taken once both
    // mails are written, so only what the calls below change can differ.
    await waitFor(
      async () =>
        (
          await s.deps.db
            .selectFrom('mail_outbox')
            .select('id')
            .where('to_addr', '=', u.email)
            .where('subject', '=', 'New API key on your Nodekeep account')
            .execute()
        ).length === 2,
      30_000,
      'the two new-key mails',
    );
    const before = await snapshot(s.deps.db);
    const calls = stripe.requests.length;
    for (const [path, body] of [
      ['/api/credit_card', { amount: 10 }],
      ['/api/cancel_stripe', { session_id: session }],
      ['/api/resume_stripe', { session_id: session }],
      ['/api/redeem_coupon', { code: 'AAAA-BBBB-CCCC-DDDD' }],
    ] as const) {
      for (const k of [writer, reader]) {
        const r = await post(path, body, k);
        expect(r.status, path).toBe(403);
        expect(r.body.success).toBe(false);
      }
    }
    const ro = await post('/api/generate_wallet', { currency: 'ltc' }, reader);
    expect(ro).toEqual({ status: 403, body: { success: false, message: expect.stringMatching(/read-only/) } });
    expect(stripe.requests.length).toBe(calls);
    // Key use is recorded on the key (last use); everything else is as it was.
    const strip = (snap: string) => {
      const o = JSON.parse(snap);
      delete o.api_keys;
      return o;
    };
    expect(strip(await snapshot(s.deps.db))).toEqual(strip(before));
  });
});

describe("the operator's adjustment keys", () => {
  const adjust = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const code = await runCli(['billing', 'adjust', ...args], { DATA_DIR: s.dataDir }, { out: (l) => out.push(l) });
      return { code, out: out.join('\n'), err: err.join('') };
    } finally {
      process.stderr.write = write;
    }
  };

  it("a --key naming a card payment's credit does not take it: the payment is still credited to its payer", async () => {
    const [payer, other] = await Promise.all([
      freshUser(s.deps, { prefix: 'payer' }),
      freshUser(s.deps, { prefix: 'otheradj' }),
    ]);
    const session = await open(payer, 30);
    expect((await adjust(other.username, '+1', '--reason', 'goodwill', '--key', `card:${session}`)).code).toBe(0);
    const paid = stripe.complete(session);
    expect((await deliver(signedEvent('checkout.session.completed', paid, SECRET))).body.message).toBe('Credited.');
    expect(await accountBalance(s.deps.db, userAccount(payer.id))).toBe(30_000_000);
    expect(await accountBalance(s.deps.db, userAccount(other.id))).toBe(1_000_000);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('a key reused for another adjustment is refused, not reported as applied', async () => {
    const [a, b] = await Promise.all([freshUser(s.deps, { prefix: 'adja' }), freshUser(s.deps, { prefix: 'adjb' })]);
    expect((await adjust(a.username, '+2', '--reason', 'refund', '--key', `refund-${a.id}`)).code).toBe(0);
    expect((await adjust(a.username, '+2', '--reason', 'refund', '--key', `refund-${a.id}`)).out).toBe(
      `already applied (key refund-${a.id}); balance $2.00`,
    );
    for (const [who, amount] of [
      [b.username, '+2'],
      [a.username, '+3'],
      [a.username, '-2'],
    ]) {
      const r = await adjust(who, amount, '--reason', 'refund', '--key', `refund-${a.id}`);
      expect(r.code, `${who} ${amount}`).toBe(1);
      expect(r.err).toMatch(/This key was already used for a different adjustment; nothing was changed\./);
    }
    expect(await accountBalance(s.deps.db, userAccount(a.id))).toBe(2_000_000);
    expect(await accountBalance(s.deps.db, userAccount(b.id))).toBe(0);
  });
});

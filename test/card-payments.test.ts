import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../src/server/billing/ledger';
import { ConfigError, loadConfig } from '../src/server/kernel/config';
import { CARD_PAYMENTS_OFF } from '../src/shared/schemas/billing';
import { signedEvent, startFakeStripe, type FakeStripe } from './support/fake-stripe';
import { loopback, requestFrom } from './support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser, type FreshUser } from './support/users';

// Card payments against a FAKE of Stripe's HTTP API (test/support/fake-stripe.ts), through
// the real SDK, a real server and real HTTP. Webhooks are signed by the SDK's test helper.

const KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_nodekeep',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_nodekeep',
  STRIPE_WEBHOOK_SECRET: 'whsec_nodekeeptest',
};
const SECRET = KEYS.STRIPE_WEBHOOK_SECRET;

let stripe: FakeStripe;
let s: TestServer;
let ann: FreshUser;
let bob: FreshUser;
let nextIp = 0;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: KEYS.STRIPE_SECRET_KEY });
  s = await startTestServer({ ...KEYS, STRIPE_API_BASE: stripe.url });
  [ann, bob] = await Promise.all([freshUser(s.deps, { prefix: 'ann' }), freshUser(s.deps, { prefix: 'bob' })]);
});
afterAll(async () => {
  await stopTestServer(s);
  await stripe?.close();
});

const api = (path: string, body: unknown, token?: string) =>
  requestFrom(loopback(nextIp++), `${s.url}${path}`, { method: 'POST', body, token });
const get = (path: string, token: string) => requestFrom(loopback(nextIp++), `${s.url}${path}`, { token });

function deliver(ev: { payload: string; signature: string }, signature: string | null = ev.signature) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['stripe-signature'] = signature;
  return fetch(`${s.url}/api/stripe_webhook`, { method: 'POST', headers, body: ev.payload }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));
}

const balance = async (u: FreshUser) => (await get('/api/get_balance', u.token)).body.balance as number;
const transfers = (key: string) =>
  s.deps.db.selectFrom('ledger_transfers').selectAll().where('idempotency_key', '=', key).execute();
const row = (id: string) =>
  s.deps.db.selectFrom('card_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const credits = async (userId: number) =>
  (
    await s.deps.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('kind', '=', 'card_payment_credited')
      .execute()
  ).length;

async function open(u: FreshUser, amount: number) {
  const r = await api('/api/credit_card', { amount }, u.token);
  expect(r.status).toBe(200);
  return r.body as { success: true; message: string; session: string; url: string };
}

describe('credit_card', () => {
  it('opens a Checkout session for the amount in cents, with an idempotency key, and lists it as pending', async () => {
    const before = stripe.requests.length;
    const r = await open(ann, 10);
    expect(r).toMatchObject({
      success: true,
      session: expect.stringMatching(/^cs_test_/),
      url: `${stripe.url}/pay/${r.session}`,
    });
    const at = stripe.sessions.get(r.session)!;
    expect(at).toMatchObject({
      amount_total: 1000,
      currency: 'usd',
      mode: 'payment',
      client_reference_id: String(ann.id),
      metadata: { user_id: String(ann.id) },
    });
    expect(at.success_url).toBe(`${s.config.publicUrl}/dashboard/billing?card=success`);
    const calls = stripe.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0].idempotencyKey).toMatch(new RegExp(`^credit_card:${ann.id}:`));
    expect(await row(r.session)).toMatchObject({ user_id: ann.id, amount: 10_000_000, status: 'pending' });
    const tx = (await get('/api/get_transactions', ann.token)).body;
    expect(tx.stripe).toContainEqual({
      id: r.session,
      amount: 10,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
    });
    expect((await get('/api/get_transactions', bob.token)).body.stripe.map((x: { id: string }) => x.id)).not.toContain(
      r.session,
    );
  });

  it('a repeated request with the same key gets the same session; Stripe is asked with the same key', async () => {
    const key = 'pay-click-0001';
    const [a, b] = await Promise.all([
      api('/api/credit_card', { amount: 25, idempotency_key: key }, ann.token),
      api('/api/credit_card', { amount: 25, idempotency_key: key }, ann.token),
    ]);
    expect(a.body.session).toBe(b.body.session);
    const mine = [...stripe.sessions.values()].filter(
      (x) => x.metadata.user_id === String(ann.id) && x.amount_total === 2500,
    );
    expect(mine).toHaveLength(1);
    const other = await api('/api/credit_card', { amount: 50, idempotency_key: key }, ann.token);
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('This payment request was already made with another amount.');
  });

  it('refuses bad amounts with a clear message and asks Stripe nothing', async () => {
    const before = stripe.requests.length;
    const sessions = await s.deps.db.selectFrom('card_sessions').select('id').execute();
    const cases: [unknown, RegExp][] = [
      [4.99, /minimum card payment is \$5/],
      [0, /minimum card payment is \$5/],
      [-10, /minimum card payment is \$5/],
      [10.001, /at most two decimals/],
      ['10', /must be a number/],
      [null, /must be a number/],
      [undefined, /Amount required/],
      [1e9, /largest card payment/],
    ];
    for (const [amount, message] of cases) {
      const r = await api('/api/credit_card', amount === undefined ? {} : { amount }, ann.token);
      expect(r.status, String(amount)).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.message).toMatch(message);
    }
    expect((await api('/api/credit_card', { amount: 10, extra: 1 }, ann.token)).status).toBe(400);
    expect((await api('/api/credit_card', { amount: 10 })).status).toBe(401);
    expect(stripe.requests.length).toBe(before);
    expect(await s.deps.db.selectFrom('card_sessions').select('id').execute()).toHaveLength(sessions.length);
    // Two decimals that binary floats cannot hold exactly are still whole cents.
    const ok = await open(ann, 1234.15);
    expect(stripe.sessions.get(ok.session)!.amount_total).toBe(123415);
  });

  it('an ambiguous Stripe error records nothing and credits nothing; a retry with the same key makes one session', async () => {
    const before = await s.deps.db.selectFrom('card_sessions').select('id').execute();
    stripe.failNext(2, 'status500'); // the SDK retries once
    const r = await api('/api/credit_card', { amount: 30 }, bob.token);
    expect(r.status).toBe(503);
    expect(r.body.message).toMatch(/did not answer\. Nothing was charged/);
    expect(await s.deps.db.selectFrom('card_sessions').select('id').execute()).toHaveLength(before.length);
    expect(await balance(bob)).toBe(0);
    // Stripe made the session but the answer was lost: the SDK's retry carries the same key and gets it back.
    const count = stripe.sessions.size;
    stripe.failNext(1, 'drop_after_apply');
    const again = await open(bob, 30);
    expect(stripe.sessions.size).toBe(count + 1);
    expect((await row(again.session)).status).toBe('pending');
  });
  it('limits the sessions one account opens (30 an hour), even 40 at once', async () => {
    const carl = await freshUser(s.deps, { prefix: 'carl' });
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => api('/api/credit_card', { amount: 5 }, carl.token)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429).map((a) => a.body.message)).toEqual(
      Array(10).fill('Too many payment attempts. Please wait an hour and try again.'),
    );
    expect(
      await s.deps.db.selectFrom('card_sessions').select('id').where('user_id', '=', carl.id).execute(),
    ).toHaveLength(30);
  });
});

describe('the Stripe webhook', () => {
  it('credits a paid session once, marks it paid and notifies, whatever the number of deliveries (100 at once)', async () => {
    const r = await open(ann, 50);
    const before = await balance(ann);
    const paid = stripe.complete(r.session);
    const events = Array.from({ length: 100 }, (_, i) =>
      signedEvent('checkout.session.completed', paid, SECRET, { eventId: i % 2 ? 'evt_same' : undefined }),
    );
    const answers = await Promise.all(events.map((e) => deliver(e)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.message === 'Credited.')).toHaveLength(1);
    expect(await transfers(`card:${r.session}`)).toHaveLength(1);
    expect(await balance(ann)).toBe(before + 50);
    expect((await row(r.session)).status).toBe('paid');
    expect(await credits(ann.id)).toBe(1);
    expect((await get('/api/get_transactions', ann.token)).body.stripe.map((x: { id: string }) => x.id)).not.toContain(
      r.session,
    );
    expect((await get('/api/get_transactions', ann.token)).body.transactions[0]).toMatchObject({
      description: 'Card payment',
      amount: 50,
    });
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('out of order: completed twice, then expired, changes nothing after the first credit', async () => {
    const r = await open(bob, 20);
    const paid = stripe.complete(r.session);
    expect((await deliver(signedEvent('checkout.session.completed', paid, SECRET))).body.message).toBe('Credited.');
    expect((await deliver(signedEvent('checkout.session.completed', paid, SECRET))).body.message).toBe(
      'Already credited.',
    );
    expect(
      (await deliver(signedEvent('checkout.session.expired', { ...paid, status: 'expired' }, SECRET))).status,
    ).toBe(200);
    expect((await row(r.session)).status).toBe('paid');
    expect(await transfers(`card:${r.session}`)).toHaveLength(1);
  });

  it('expired marks a pending session expired; a completed-but-unpaid session is not credited', async () => {
    const r = await open(bob, 15);
    const unpaid = { ...stripe.sessions.get(r.session)!, status: 'complete', payment_status: 'unpaid' };
    expect((await deliver(signedEvent('checkout.session.completed', unpaid, SECRET))).status).toBe(200);
    expect(await transfers(`card:${r.session}`)).toHaveLength(0);
    expect((await row(r.session)).status).toBe('pending');
    const expired = stripe.expire(r.session);
    expect((await deliver(signedEvent('checkout.session.expired', expired, SECRET))).body.message).toBe(
      'Session marked expired.',
    );
    expect((await row(r.session)).status).toBe('expired');
  });

  it('refuses bad and missing signatures, other secrets, tampered bodies and old timestamps, and changes nothing', async () => {
    const r = await open(ann, 40);
    const paid = stripe.complete(r.session);
    const good = signedEvent('checkout.session.completed', paid, SECRET);
    const attempts = [
      await deliver(good, null),
      await deliver(good, 't=1,v1=deadbeef'),
      await deliver(signedEvent('checkout.session.completed', paid, 'whsec_someoneelse')),
      await deliver({ payload: good.payload.replace('"paid"', '"paid" '), signature: good.signature }),
      await deliver(signedEvent('checkout.session.completed', paid, SECRET, { secondsAgo: 301 })),
      await deliver(signedEvent('checkout.session.completed', paid, SECRET, { secondsAgo: 3600 })),
    ];
    for (const a of attempts) {
      expect(a.status).toBe(400);
      expect(a.body).toMatchObject({ success: false, message: expect.stringMatching(/^Webhook signature refused: /) });
    }
    expect(attempts[0].body.message).toMatch(/header is missing/);
    expect(attempts[4].body.message).toMatch(/tolerance/);
    expect(await transfers(`card:${r.session}`)).toHaveLength(0);
    expect((await row(r.session)).status).toBe('pending');
    // The genuine delivery still works afterwards.
    expect((await deliver(good)).body.message).toBe('Credited.');
  });

  it('refuses unknown sessions and sessions whose amount, currency or customer differ from the record', async () => {
    const unknown = { ...stripe.complete((await open(bob, 10)).session), id: 'cs_test_notours' };
    const u = await deliver(signedEvent('checkout.session.completed', unknown, SECRET));
    expect(u.status).toBe(404);
    expect(u.body.message).toMatch(/Unknown checkout session cs_test_notours/);
    expect(await transfers('card:cs_test_notours')).toHaveLength(0);

    const r = await open(bob, 10);
    const paid = stripe.complete(r.session);
    const forged = [
      { ...paid, amount_total: 100000 },
      { ...paid, currency: 'eur' },
      { ...paid, metadata: { user_id: String(ann.id) } },
    ];
    for (const f of forged) {
      const a = await deliver(signedEvent('checkout.session.completed', f, SECRET));
      expect(a.status).toBe(400);
      expect(a.body.message).toMatch(/differ from the recorded session; nothing was credited/);
    }
    expect(await transfers(`card:${r.session}`)).toHaveLength(0);
    expect((await row(r.session)).status).toBe('pending');
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('answers other event types without acting', async () => {
    const a = await deliver(signedEvent('payment_intent.created', { id: 'pi_1', object: 'payment_intent' }, SECRET));
    expect(a).toMatchObject({ status: 200, body: { message: 'Event type payment_intent.created is not used.' } });
    const empty = await deliver(signedEvent('checkout.session.completed', { object: 'checkout.session' }, SECRET));
    expect(empty).toMatchObject({
      status: 400,
      body: { success: false, message: 'The event carries no checkout session.' },
    });
  });
});

describe('resume and cancel', () => {
  it('resumes a pending session at its hosted page; an expired one is marked and refused', async () => {
    const r = await open(ann, 100);
    expect((await api('/api/resume_stripe', { session_id: r.session }, ann.token)).body).toEqual({
      success: true,
      url: r.url,
    });
    expect((await api('/api/resume_stripe', { session_id: r.session }, bob.token)).status).toBe(404);
    stripe.expire(r.session);
    const gone = await api('/api/resume_stripe', { session_id: r.session }, ann.token);
    expect(gone.status).toBe(400);
    expect(gone.body.message).toBe('This payment session has expired.');
    expect((await row(r.session)).status).toBe('expired');
  });

  it("cancels only the owner's pending session, expiring it at Stripe", async () => {
    const r = await open(ann, 250);
    const theirs = await api('/api/cancel_stripe', { session_id: r.session }, bob.token);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Payment session not found.');
    expect(stripe.sessions.get(r.session)!.status).toBe('open');
    expect((await row(r.session)).status).toBe('pending');
    expect((await api('/api/cancel_stripe', { session_id: 'cs_test_nothing' }, ann.token)).status).toBe(404);

    const mine = await api('/api/cancel_stripe', { session_id: r.session }, ann.token);
    expect(mine.body).toEqual({ success: true, message: 'The payment was cancelled.' });
    expect(stripe.sessions.get(r.session)!.status).toBe('expired');
    expect(stripe.requests.find((q) => q.path === `/v1/checkout/sessions/${r.session}/expire`)?.idempotencyKey).toBe(
      `expire:${r.session}`,
    );
    expect((await row(r.session)).status).toBe('cancelled');
    expect((await get('/api/get_transactions', ann.token)).body.stripe.map((x: { id: string }) => x.id)).not.toContain(
      r.session,
    );
    const again = await api('/api/cancel_stripe', { session_id: r.session }, ann.token);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This payment session was cancelled.');
  });

  it('a session paid at Stripe cannot be cancelled; it stays pending for its webhook', async () => {
    const r = await open(bob, 25);
    stripe.complete(r.session);
    const a = await api('/api/cancel_stripe', { session_id: r.session }, bob.token);
    expect(a.status).toBe(400);
    expect(a.body.message).toMatch(/already completed/);
    expect((await row(r.session)).status).toBe('pending');
  });
});

describe('without Stripe keys', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer();
  });
  afterAll(() => stopTestServer(off));

  it('card calls answer that card payments are off, the webhook is not there, the profile has no key', async () => {
    const u = await freshUser(off.deps, { prefix: 'nokeys' });
    const post = (path: string, body: unknown) =>
      requestFrom(loopback(nextIp++), `${off.url}${path}`, { method: 'POST', body, token: u.token });
    const r = await post('/api/credit_card', { amount: 10 });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ success: false, message: CARD_PAYMENTS_OFF });
    expect((await post('/api/cancel_stripe', { session_id: 'cs_x' })).body.message).toBe(CARD_PAYMENTS_OFF);
    const hook = await fetch(`${off.url}/api/stripe_webhook`, { method: 'POST', body: '{}' });
    expect(hook.status).toBe(404);
    const profile = await requestFrom(loopback(nextIp++), `${off.url}/api/get_common_info`, { token: u.token });
    expect(profile.body.info.stripe_public_key).toBe('');
  });

  it('configuration takes all three keys or none, each in its format', () => {
    expect(loadConfig({ ...KEYS }).stripe).toMatchObject({ secretKey: KEYS.STRIPE_SECRET_KEY, apiBase: null });
    expect(loadConfig({ ...KEYS }).stripePublicKey).toBe(KEYS.STRIPE_PUBLISHABLE_KEY);
    expect(loadConfig({ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:9' }).stripe?.apiBase).toEqual({
      host: '127.0.0.1',
      port: 9,
      protocol: 'http',
    });
    expect(loadConfig({}).stripe).toBeNull();
    expect(() => loadConfig({ STRIPE_SECRET_KEY: KEYS.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: card payments need all of/,
    );
    expect(() => loadConfig({ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_wrong' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_wrong' })).not.toThrow(/pk_test_wrong/);
    expect(() => loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:9' })).toThrow(/STRIPE_API_BASE: needs/);
  });
});

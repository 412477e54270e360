import { sql } from 'kysely';
import { MAINNET } from '../support/addresses';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { creditDeposit } from '../../src/server/billing/deposit';
import { accountBalance, userAccount } from '../../src/server/billing/ledger';
import { DEPLOY_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { FREE_CAPACITY_FULL, freeNodeLimitReached } from '../../src/server/deploy/free-limits';
import { FLEET_FULL } from '../../src/server/nodes/lifecycle';
import { signedEvent, startFakeStripe, type FakeStripe } from '../support/fake-stripe';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, fundedUser, type FreshUser } from '../support/users';
import { clients, makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';

// Attack: with a sign-up credit, ten new accounts filled all 1,000 cloud slots (100 Satori
// neurons each) and every later customer got 503. Accounts that never made a paid deposit
// now run at most FREE_NODE_LIMIT nodes each, and together at most FREE_CAPACITY_SHARE of
// a plan's slots. The simulator's host has 100 dedicated and 1,000 cloud slots: 3% is 3
// dedicated slots (the share test) and 30 cloud ones (the per-account test stays far below).

const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_nodekeep',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_nodekeep',
  STRIPE_WEBHOOK_SECRET: 'whsec_nodekeeptest',
};
let stripe: FakeStripe;
let s: TestServer;
const { rest, multipart } = clients(() => s);
beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: STRIPE.STRIPE_SECRET_KEY });
  s = await startTestServer({
    SIGNUP_CREDIT_USD: '1000',
    FREE_CAPACITY_SHARE: '3%',
    ...STRIPE,
    STRIPE_API_BASE: stripe.url,
  });
});
afterAll(async () => {
  await stopTestServer(s);
  await stripe?.close();
});

const nodesOf = async (userId: number) =>
  Number(
    (await sql<{ n: number }>`SELECT count(*) AS n FROM nodes WHERE user_id = ${userId}`.execute(s.deps.db)).rows[0].n,
  );
const deployUrl = () => `${s.url}/api/deploy_server`;

/** A crypto deposit through the real crediting function ($20 unless told): the account is a paying one from now on. */
const deposit = (userId: number, amount = 20_000_000, n = 0) =>
  s.deps.db.transaction().execute((trx) =>
    creditDeposit(trx, {
      userId,
      amount,
      via: 'crypto',
      idempotencyKey: `crypto:test:${userId}:${n}`,
      description: 'Deposit',
    }),
  );

let nextIp = 0;
/** A signed Stripe event, delivered to the webhook. */
const deliver = async (type: string, object: unknown) => {
  const ev = signedEvent(type, object, STRIPE.STRIPE_WEBHOOK_SECRET);
  const r = await fetch(`${s.url}/api/stripe_webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': ev.signature },
    body: ev.payload,
  });
  return { status: r.status, body: (await r.json()) as any };
};
/** A card payment of `dollars`, paid and credited: its session id. */
async function cardPaid(u: FreshUser, dollars: number): Promise<string> {
  const r = await requestFrom(loopback(nextIp++, 20_000), `${s.url}/api/credit_card`, {
    body: { amount: dollars },
    token: u.token,
  });
  expect(r.status, r.body.message).toBe(200);
  expect(await deliver('checkout.session.completed', stripe.complete(r.body.session))).toEqual({
    status: 200,
    body: { success: true, message: 'Credited.' },
  });
  return r.body.session;
}
const balance = (u: FreshUser) => accountBalance(s.deps.db, userAccount(u.id));

it(
  'an account on sign-up credit runs one node: 100 deploys at once from 100 addresses make one, later ones are refused and point to Billing',
  { timeout: 120_000 },
  async () => {
    const u = await freshUser(s.deps, { prefix: 'free1' });
    const body = { currency: 'satori', package: 'cloud', rewardAddress: MAINNET.evr, neuronCount: 1 };
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => requestFrom(loopback(i, 9000), deployUrl(), { body, token: u.token })),
    );
    expect(
      answers.filter((a) => a.status === 200),
      JSON.stringify(byStatus(answers)),
    ).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect([DEPLOY_IN_FLIGHT, freeNodeLimitReached(1)]).toContain(a.body.message);
    expect(await nodesOf(u.id)).toBe(1);

    // One at a time, and a deploy of several, are refused whole too.
    expect(await rest('POST', '/api/deploy_server', u.token, body)).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    const other = await freshUser(s.deps, { prefix: 'free2' });
    expect(
      await rest('POST', '/api/deploy_server', other.token, { ...body, rewardAddress: MAINNET.evr, neuronCount: 2 }),
    ).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    expect(await nodesOf(other.id)).toBe(0);
    // Validators too, before any keystore is decrypted.
    const k = await makeKeystore('pw', smallPbkdf2());
    expect(await multipart(u.token, validatorForm({ files: [['k.json', k.text]], password: 'pw' }))).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    expect(await nodesOf(u.id)).toBe(1);
    expect(freeNodeLimitReached(1)).toBe(
      'Accounts whose crypto and card deposits come to less than $5.00 can run 1 node at a time. Deposit by crypto or card in Billing to deploy more.',
    );

    // Once the account has paid a deposit, it deploys like any customer.
    await deposit(u.id);
    const more = await rest('POST', '/api/deploy_server', u.token, { ...body, neuronCount: 5 });
    expect(more.status, more.body.message).toBe(200);
    expect(await nodesOf(u.id)).toBe(6);
  },
);

it(
  'many free accounts deploying at once from distinct addresses never take more than the share of a plan; a paying customer still deploys',
  { timeout: 180_000 },
  async () => {
    // A paying customer's nodes on the plan are not the free accounts' share.
    const paying = await fundedUser(s.deps, { prefix: 'payer' });
    const first = await rest('POST', '/api/deploy_server', paying.token, {
      currency: 'satori',
      rewardAddress: MAINNET.evr,
      neuronCount: 5,
    });
    expect(first.status, first.body.message).toBe(200);

    const users = await Promise.all(Array.from({ length: 10 }, (_, i) => freshUser(s.deps, { prefix: `share${i}` })));
    const answers = await Promise.all(
      users.map((u, i) =>
        requestFrom(loopback(i, 12_000), deployUrl(), {
          body: { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 },
          token: u.token,
        }),
      ),
    );
    expect(byStatus(answers)).toEqual({ 200: 3, 403: 7 });
    for (const a of answers.filter((x) => x.status !== 200))
      expect(a.body).toEqual({ success: false, message: FREE_CAPACITY_FULL });
    const free = Number(
      (
        await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM nodes WHERE package = 'dedicated' AND user_id IN (${sql.join(users.map((u) => u.id))})`.execute(
          s.deps.db,
        )
      ).rows[0].n,
    );
    expect(free).toBe(3);

    // The share binds only accounts that never paid: a paying customer still gets a slot.
    const mine = await rest('POST', '/api/deploy_server', paying.token, {
      currency: 'satori',
      rewardAddress: MAINNET.evr,
      neuronCount: 2,
    });
    expect(mine.status, mine.body.message).toBe(200);
    expect(mine.body.message).not.toBe(FLEET_FULL);
  },
);

it("Satori's neuronCount is a JSON integer and nothing else: each other form is a clear 400 that creates nothing", async () => {
  const u = await fundedUser(s.deps, { prefix: 'neurons' });
  for (const neuronCount of ['0x10', '16', '2', true, [2], null, { n: 2 }, 2.5, 0, 51]) {
    const r = await rest('POST', '/api/deploy_server', u.token, {
      currency: 'satori',
      rewardAddress: MAINNET.evr,
      neuronCount,
    });
    expect(r.status, JSON.stringify(neuronCount)).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.message, JSON.stringify(neuronCount)).toMatch(/^neuronCount: must be (a whole number|1 to 50)$/);
  }
  expect(await nodesOf(u.id)).toBe(0);
  const ok = await rest('POST', '/api/deploy_server', u.token, {
    currency: 'satori',
    rewardAddress: MAINNET.evr,
    neuronCount: 2,
  });
  expect(ok.status, ok.body.message).toBe(200);
  expect(await nodesOf(u.id)).toBe(2);
});

// Attack: a refunded deposit lifted the limits for good ("a later deposit does, at once and
// for good"). Pay $5 by card, have it refunded, and the account ran 20 neurons on sign-up
// credit: ten such accounts filled the fleet at no net cost. An account now counts as
// paying only while its deposits, net of what refunds and disputes took back, are at least
// PAYING_MINIMUM ($5, billing/queries.ts).
it(
  'the refund replay: a card payment refunded in full no longer lifts the node limit; a payment kept does',
  { timeout: 120_000 },
  async () => {
    const u = await freshUser(s.deps, { prefix: 'refundfree' });
    const body = { currency: 'satori', package: 'cloud', rewardAddress: MAINNET.evr, neuronCount: 5 };
    expect(await rest('POST', '/api/deploy_server', u.token, body)).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    const session = await cardPaid(u, 5);
    expect(await deliver('charge.refunded', stripe.refund(session, 500))).toEqual({
      status: 200,
      body: { success: true, message: 'Taken back.' },
    });
    expect(await balance(u)).toBe(1000 * 1_000_000);
    expect(await rest('POST', '/api/deploy_server', u.token, { ...body, neuronCount: 20 })).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    expect(await nodesOf(u.id)).toBe(0);

    // A second $5 payment, kept: $10 paid, $5 taken back, $5 net is the minimum.
    await cardPaid(u, 5);
    const ok = await rest('POST', '/api/deploy_server', u.token, { ...body, neuronCount: 20 });
    expect(ok.status, ok.body.message).toBe(200);
    expect(await nodesOf(u.id)).toBe(20);
  },
);

it(
  "a disputed payment's nodes count in the free accounts' share again, until the dispute is won",
  { timeout: 120_000 },
  async () => {
    // 3% of the 1,000 cloud slots: 30 for free accounts (no other free account runs cloud nodes here).
    const r = await freshUser(s.deps, { prefix: 'disputer' });
    const session = await cardPaid(r, 10);
    const many = await rest('POST', '/api/deploy_server', r.token, {
      currency: 'satori',
      package: 'cloud',
      rewardAddress: MAINNET.evr,
      neuronCount: 30,
    });
    expect(many.status, many.body.message).toBe(200);
    const d = stripe.dispute(session);
    expect((await deliver('charge.dispute.created', d)).body.message).toBe('Taken back.');

    // The disputer's 30 nodes are a free account's now: the share is full.
    const f = await freshUser(s.deps, { prefix: 'sharefree' });
    const one = { currency: 'satori', package: 'cloud', rewardAddress: MAINNET.evr, neuronCount: 1 };
    expect(await rest('POST', '/api/deploy_server', f.token, one)).toEqual({
      status: 403,
      body: { success: false, message: FREE_CAPACITY_FULL },
    });
    expect(await nodesOf(f.id)).toBe(0);

    expect((await deliver('charge.dispute.closed', { ...d, status: 'won' })).body.message).toBe('Given back.');
    const now = await rest('POST', '/api/deploy_server', f.token, one);
    expect(now.status, now.body.message).toBe(200);
  },
);

it(
  'a crypto deposit below the minimum does not lift the node limit (one cent, then $4.99 in all); reaching $5.00 does',
  { timeout: 120_000 },
  async () => {
    const u = await freshUser(s.deps, { prefix: 'centfree' });
    const body = { currency: 'satori', package: 'cloud', rewardAddress: MAINNET.evr, neuronCount: 2 };
    await deposit(u.id, 10_000, 1);
    expect(await rest('POST', '/api/deploy_server', u.token, body)).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    await deposit(u.id, 4_980_000, 2);
    expect(await rest('POST', '/api/deploy_server', u.token, body)).toEqual({
      status: 403,
      body: { success: false, message: freeNodeLimitReached(1) },
    });
    expect(await nodesOf(u.id)).toBe(0);
    await deposit(u.id, 10_000, 3);
    const ok = await rest('POST', '/api/deploy_server', u.token, body);
    expect(ok.status, ok.body.message).toBe(200);
    expect(await nodesOf(u.id)).toBe(2);
  },
);

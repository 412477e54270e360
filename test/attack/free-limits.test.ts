import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { creditDeposit } from '../../src/server/billing/deposit';
import { DEPLOY_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { FREE_CAPACITY_FULL, freeNodeLimitReached } from '../../src/server/deploy/free-limits';
import { FLEET_FULL } from '../../src/server/fleet/service';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, fundedUser } from '../support/users';
import { clients, makeKeystore, smallPbkdf2, validatorForm } from '../deploy/support';

// Attack: with a sign-up credit, ten new accounts filled all 1,000 cloud slots (100 Satori
// neurons each) and every later customer got 503. Accounts that never made a paid deposit
// now run at most FREE_NODE_LIMIT nodes each, and together at most FREE_CAPACITY_SHARE of
// a plan's slots. The simulator's host has 100 dedicated and 1,000 cloud slots: 3% is 3
// dedicated slots (the share test) and 30 cloud ones (the per-account test stays far below).

let s: TestServer;
const { rest, multipart } = clients(() => s);
beforeAll(async () => {
  s = await startTestServer({ SIGNUP_CREDIT_USD: '1000', FREE_CAPACITY_SHARE: '3%' });
});
afterAll(() => stopTestServer(s));

const nodesOf = async (userId: number) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM nodes WHERE user_id = ${userId}`.execute(s.deps.db)).rows[0].n);
const deployUrl = () => `${s.url}/api/deploy_server`;

/** A crypto deposit through the real crediting function: the account is a paying one from now on. */
const deposit = (userId: number) =>
  s.deps.db.transaction().execute((trx) => creditDeposit(trx, { userId, amount: 20_000_000, via: 'crypto', idempotencyKey: `crypto:test:${userId}:0`, description: 'Deposit' }));

it('an account on sign-up credit runs one node: 100 deploys at once from 100 addresses make one, later ones are refused and point to Billing', { timeout: 120_000 }, async () => {
  const u = await freshUser(s.deps, { prefix: 'free1' });
  const body = { currency: 'satori', package: 'cloud', rewardAddress: 'Sfree', neuronCount: 1 };
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => requestFrom(loopback(i, 9000), deployUrl(), { body, token: u.token })));
  expect(answers.filter((a) => a.status === 200), JSON.stringify(byStatus(answers))).toHaveLength(1);
  for (const a of answers.filter((x) => x.status !== 200)) expect([DEPLOY_IN_FLIGHT, freeNodeLimitReached(1)]).toContain(a.body.message);
  expect(await nodesOf(u.id)).toBe(1);

  // One at a time, and a deploy of several, are refused whole too.
  expect(await rest('POST', '/api/deploy_server', u.token, body)).toEqual({ status: 403, body: { success: false, message: freeNodeLimitReached(1) } });
  const other = await freshUser(s.deps, { prefix: 'free2' });
  expect(await rest('POST', '/api/deploy_server', other.token, { ...body, rewardAddress: 'Sfree2', neuronCount: 2 })).toEqual({
    status: 403,
    body: { success: false, message: freeNodeLimitReached(1) },
  });
  expect(await nodesOf(other.id)).toBe(0);
  // Validators too, before any keystore is decrypted.
  const k = await makeKeystore('pw', smallPbkdf2());
  expect(await multipart(u.token, validatorForm({ files: [['k.json', k.text]], password: 'pw' }))).toEqual({ status: 403, body: { success: false, message: freeNodeLimitReached(1) } });
  expect(await nodesOf(u.id)).toBe(1);
  expect(freeNodeLimitReached(1)).toBe('Accounts that have not made a deposit can run 1 node at a time. Add funds in Billing to deploy more.');

  // Once the account has paid a deposit, it deploys like any customer.
  await deposit(u.id);
  const more = await rest('POST', '/api/deploy_server', u.token, { ...body, neuronCount: 5 });
  expect(more.status, more.body.message).toBe(200);
  expect(await nodesOf(u.id)).toBe(6);
});

it('many free accounts deploying at once from distinct addresses never take more than the share of a plan; a paying customer still deploys', { timeout: 180_000 }, async () => {
  // A paying customer's nodes on the plan are not the free accounts' share.
  const paying = await fundedUser(s.deps, { prefix: 'payer' });
  const first = await rest('POST', '/api/deploy_server', paying.token, { currency: 'satori', rewardAddress: 'Spayer', neuronCount: 5 });
  expect(first.status, first.body.message).toBe(200);

  const users = await Promise.all(Array.from({ length: 10 }, (_, i) => freshUser(s.deps, { prefix: `share${i}` })));
  const answers = await Promise.all(
    users.map((u, i) => requestFrom(loopback(i, 12_000), deployUrl(), { body: { currency: 'satori', rewardAddress: `Sshare${i}`, neuronCount: 1 }, token: u.token })),
  );
  expect(byStatus(answers)).toEqual({ 200: 3, 403: 7 });
  for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ success: false, message: FREE_CAPACITY_FULL });
  const free = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM nodes WHERE package = 'dedicated' AND user_id IN (${sql.join(users.map((u) => u.id))})`.execute(s.deps.db)).rows[0].n);
  expect(free).toBe(3);

  // The share binds only accounts that never paid: a paying customer still gets a slot.
  const mine = await rest('POST', '/api/deploy_server', paying.token, { currency: 'satori', rewardAddress: 'Spayer', neuronCount: 2 });
  expect(mine.status, mine.body.message).toBe(200);
  expect(mine.body.message).not.toBe(FLEET_FULL);
});

it("Satori's neuronCount is a JSON integer and nothing else: each other form is a clear 400 that creates nothing", async () => {
  const u = await fundedUser(s.deps, { prefix: 'neurons' });
  for (const neuronCount of ['0x10', '16', '2', true, [2], null, { n: 2 }, 2.5, 0, 51]) {
    const r = await rest('POST', '/api/deploy_server', u.token, { currency: 'satori', rewardAddress: 'Sneurons', neuronCount });
    expect(r.status, JSON.stringify(neuronCount)).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.message, JSON.stringify(neuronCount)).toMatch(/^neuronCount: must be (a whole number|1 to 50)$/);
  }
  expect(await nodesOf(u.id)).toBe(0);
  const ok = await rest('POST', '/api/deploy_server', u.token, { currency: 'satori', rewardAddress: 'Sneurons', neuronCount: 2 });
  expect(ok.status, ok.body.message).toBe(200);
  expect(await nodesOf(u.id)).toBe(2);
});

import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { retryAfterMs } from '../../src/client/app/errors';
import { createApiKey } from '../../src/server/apikeys/keys';
import type { AppRouter } from '../../src/server/router';
import { expectFloodMetBudget, floodWithProbes } from '../support/flood';
import { loopback, requestFrom } from '../support/from-ip';
import { insertTestNode } from '../support/nodes';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// The finding: 30 workers sending tRPC batches of 20 `get_masternodes` from one account
// for 20 s put /healthz at p50 2.1 s, max 4.0 s, and batches of the cached public
// `get_coin` from one address did the same. Replayed here for FLOOD_MS each (10 s held
// the stall on the old code: /healthz p50 well over a second), while another address
// probes /healthz and another customer loads a page (one batch of three calls, as the
// browser sends it). The load runs in worker threads, off the server's event loop.
const FLOOD_MS = 10_000;
const BATCH = 20;
// The issue asks /healthz p99 under 100 ms and the customer's calls under 500 ms on an
// idle test machine; `npm run bench` holds those numbers (docs/benchmarks.md). Here the
// machine runs another test file beside this one on two cores (and CI must pass with the
// machine loaded), so the bounds are on the median, which the stall moved by seconds (p50
// 2.1 s) and load by milliseconds, and a tail far under the old stall's (max 4 s): a p99
// bound of 250 ms failed at 253 ms on a loaded machine with nothing stalled.
const HEALTHZ_P50_MS = 100;
const HEALTHZ_P99_MS = 1_000;
const CUSTOMER_P50_MS = 300;
const CUSTOMER_P99_MS = 1_500;

let s: TestServer;
let attacker: FreshUser;
let customer: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  attacker = await freshUser(s.deps, { prefix: 'flood' });
  customer = await freshUser(s.deps, { prefix: 'cust' });
  for (let i = 0; i < 10; i++) {
    await insertTestNode(s.deps.db, {
      mn_id: `flood-${attacker.id}-${i}`,
      user_id: attacker.id,
      coin_id: 'dash',
      status: 'running',
      placement: {},
    });
  }
  for (let i = 0; i < 3; i++) {
    await insertTestNode(s.deps.db, {
      mn_id: `cust-${customer.id}-${i}`,
      user_id: customer.id,
      coin_id: 'dash',
      status: 'running',
      placement: {},
    });
  }
});
afterAll(() => stopTestServer(s));

const batchUrl = (path: string, input: unknown) =>
  `${s.url}/trpc/${Array(BATCH).fill(path).join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: BATCH }, (_, i) => [i, input]))))}`;

/** The flood from one address, with /healthz and the customer's page probed from two others meanwhile. */
async function replay(request: { url: string; headers: Record<string, string> }) {
  const { flood, healthz, page } = await floodWithProbes(
    s.url,
    { ip: loopback(1), request, concurrency: 30 },
    customer.token,
    FLOOD_MS,
  );
  console.log(JSON.stringify({ flood: flood.statuses, healthz, page }));
  // Every probe and every page load was answered, and well.
  expect(healthz.allOk).toBe(true);
  expect(page.allOk).toBe(true);
  expect(healthz.p50).toBeLessThan(HEALTHZ_P50_MS);
  expect(healthz.p99).toBeLessThan(HEALTHZ_P99_MS);
  expect(page.p50).toBeLessThan(CUSTOMER_P50_MS);
  expect(page.p99).toBeLessThan(CUSTOMER_P99_MS);
  expectFloodMetBudget(flood);
}

it(
  'batches of get_masternodes from one account do not stall /healthz or another customer',
  { timeout: FLOOD_MS + 60_000 },
  async () => {
    await replay({
      url: batchUrl('nodes.get_masternodes', {}),
      headers: { authorization: `Bearer ${attacker.token}` },
    });
  },
);

it(
  'batches of the cached public get_coin from one address do not stall /healthz or another customer',
  { timeout: FLOOD_MS + 60_000 },
  async () => {
    await replay({ url: batchUrl('coins.get_coin', { coin: 'dash' }), headers: {} });
  },
);

it('refuses over-budget mutation batches whole, with Retry-After, and runs none of their calls; the browser link gets the wait', async () => {
  const ip = loopback(4);
  const user = await freshUser(s.deps, { prefix: 'visits' });
  const auth = { authorization: `Bearer ${user.token}` };
  // Spend the account's rate: read batches until one is refused. A refusal is answered after
  // a pause, so about 10-30 calls are back when it arrives: fewer than two batches.
  let refused = false;
  for (let i = 0; i < 100 && !refused; i++)
    refused = (await requestFrom(ip, batchUrl('nodes.get_masternodes', {}), { token: user.token })).status === 429;
  expect(refused).toBe(true);

  // Now 10 batches of 20 page visits at once, and 40 more through the browser's link
  // (httpBatchLink, 20 calls a batch): at most one of these 12 batches fits.
  const visits = (tag: string) =>
    Object.fromEntries(Array.from({ length: BATCH }, (_, i) => [i, { fullPath: `/${tag}${i}` }]));
  const raw = Array.from({ length: 10 }, (_, b) =>
    fetch(`${s.url}/trpc/${Array(BATCH).fill('auth.visited').join(',')}?batch=1`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(visits(`b${b}-`)),
    }).then(async (r) => ({
      status: r.status,
      retryAfter: Number(r.headers.get('retry-after')),
      body: (await r.json()) as Array<{
        result?: unknown;
        error?: { message: string; data: { code: string; httpStatus: number } };
      }>,
    })),
  );
  const client = createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${s.url}/trpc`, maxItems: BATCH, headers: auth })],
  });
  const viaLink = Promise.allSettled(
    Array.from({ length: 2 * BATCH }, (_, i) => client.auth.visited.mutate({ fullPath: `/link${i}` })),
  );
  const answers = await Promise.all(raw);
  const linked = await viaLink;

  const refusedRaw = answers.filter((a) => a.status === 429);
  expect(refusedRaw.length).toBeGreaterThanOrEqual(9);
  for (const a of refusedRaw) {
    expect(a.retryAfter).toBeGreaterThanOrEqual(1);
    // tRPC's own error shape, one per call, so the browser's batch link hands each call its error.
    expect(a.body).toHaveLength(BATCH);
    expect(a.body.every((e) => e.error?.data.code === 'TOO_MANY_REQUESTS' && e.error.data.httpStatus === 429)).toBe(
      true,
    );
    expect(a.body[0].error!.message).toMatch(/Please wait \d+ seconds? and try again/);
  }
  const rejected = linked.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  expect(rejected.length).toBeGreaterThanOrEqual(BATCH);
  for (const r of rejected) {
    expect(r.reason).toBeInstanceOf(TRPCClientError);
    expect(retryAfterMs(r.reason)).toBeGreaterThanOrEqual(1000);
  }

  // Exactly the calls that answered success wrote a visit: the refused ones ran nothing.
  const succeeded =
    answers.flatMap((a) => (a.status === 429 ? [] : a.body.filter((e) => e.result))).length +
    linked.filter((r) => r.status === 'fulfilled').length;
  expect(succeeded).toBeLessThanOrEqual(BATCH);
  const written = await s.deps.db
    .selectFrom('page_visits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  expect(Number(written.n)).toBe(succeeded);
});

/**
 * `get_masternodes` from `ip` with `token`, one request after another, until one is
 * refused (at most `max`): batches of 20, or single REST calls (which leave less than a
 * call of the rate: with the refusal's 1 s pause, under 11 once answered).
 */
async function spendUntilRefused(
  ip: string,
  token: () => string,
  batches = true,
  max = 100,
): Promise<Record<number, number>> {
  const seen: Record<number, number> = {};
  for (let i = 0; i < max; i++) {
    const { status } = await requestFrom(
      ip,
      batches ? batchUrl('nodes.get_masternodes', {}) : `${s.url}/api/get_masternodes`,
      { token: token() },
    );
    seen[status] = (seen[status] ?? 0) + 1;
    if (status === 429) break;
  }
  return seen;
}

it("a revoked API key flooded by whoever holds it charges the flooder's address, not its old owner", async () => {
  const owner = await freshUser(s.deps, { prefix: 'revoked' });
  const { key, handle } = await createApiKey(s.deps.db, owner.id, { name: 'leaked' });
  // The key is used (the old code remembered it as the owner's from here), then revoked.
  expect((await requestFrom(loopback(5), `${s.url}/api/get_masternodes`, { token: key })).status).toBe(200);
  expect(
    (
      await requestFrom(loopback(6), `${s.url}/api/delete_api_key`, {
        token: owner.token,
        body: { auth_key: `nk_${handle}` },
      })
    ).body.success,
  ).toBe(true);

  expect(await spendUntilRefused(loopback(5), () => key)).toEqual({ 401: expect.any(Number), 429: 1 });
  expect(await spendUntilRefused(loopback(5), () => key, false)).toEqual({ 401: expect.any(Number), 429: 1 });
  // The owner's own calls still have the account's whole budget.
  const own = await requestFrom(loopback(6), batchUrl('nodes.get_masternodes', {}), { token: owner.token });
  expect(own.status).toBe(200);
});

it('a customer sharing an address with a flood of bogus tokens is charged to their account from their first call', async () => {
  // A customer the server has never seen over HTTP (as after a restart) behind the flooder's NAT.
  const ip = loopback(7);
  const customer = await freshUser(s.deps, { prefix: 'natted' });
  const bogus = () => randomBytes(32).toString('base64url');
  // The bogus tokens pay from the address, until it is over budget.
  expect(await spendUntilRefused(ip, bogus)).toEqual({ 401: expect.any(Number), 429: 1 });
  expect(await spendUntilRefused(ip, bogus, false)).toEqual({ 401: expect.any(Number), 429: 1 });
  expect((await requestFrom(ip, batchUrl('nodes.get_masternodes', {}), { token: customer.token })).status).toBe(200);
});

it('refuses a streamed (JSON lines) tRPC answer, which would end the in-flight count before any call ran; nothing runs', async () => {
  const user = await freshUser(s.deps, { prefix: 'jsonl' });
  const body = JSON.stringify(
    Object.fromEntries(Array.from({ length: BATCH }, (_, i) => [i, { fullPath: `/jsonl${i}` }])),
  );
  for (const headers of [{ 'trpc-accept': 'application/jsonl' }, { accept: 'text/html, application/jsonl' }] as Array<
    Record<string, string>
  >) {
    const r = await fetch(`${s.url}/trpc/${Array(BATCH).fill('auth.visited').join(',')}?batch=1`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(r.status).toBe(400);
    const answer = (await r.json()) as Array<{ error: { message: string; data: { code: string } } }>;
    expect(answer).toHaveLength(BATCH);
    expect(answer[0].error.data.code).toBe('BAD_REQUEST');
    expect(answer[0].error.message).toMatch(/plain JSON/);
  }
  const written = await s.deps.db
    .selectFrom('page_visits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  expect(Number(written.n)).toBe(0);
});

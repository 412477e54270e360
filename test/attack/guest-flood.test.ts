import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectFloodMetBudget, floodWithProbes } from '../support/flood';
import { loopback } from '../support/from-ip';
import { insertTestNode } from '../support/nodes';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// The finding: 100 guest addresses, 3 keep-alive connections each, sending tRPC batches
// of 20 `coins.get_detailed` (about 470 KB an answer) for 12 s got 1,661 answers, no
// 429, and /healthz took 14 s: each address had its own budget, nothing capped them
// together. Replayed here for FLOOD_MS, while another address probes /healthz and a
// signed-in customer loads a page from a third. The load runs in a worker thread.
const FLOOD_MS = 7_000;
const ADDRESSES = 100;
const CONNECTIONS = 3;
const BATCH = 20;
// The machine runs another test file beside this one on two cores: bounds at half the old
// code's stall (healthz p99 4 s, page 5.5 s on a loaded machine; 14 s seen by hand) and far
// above what the fix gives under load (575 ms and 1.1 s seen at load 8; 60-200 ms alone).
// The 100 ms / 500 ms stay in the benchmark (npm run bench), not in a timed test.
const HEALTHZ_P99_MS = 2000;
const CUSTOMER_P99_MS = 2750;

let s: TestServer;
let customer: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  customer = await freshUser(s.deps, { prefix: 'cust' });
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

it(
  'batches of get_detailed from 100 guest addresses do not stall /healthz or a signed-in customer',
  { timeout: FLOOD_MS + 90_000 },
  async () => {
    const input = encodeURIComponent(
      JSON.stringify(Object.fromEntries(Array.from({ length: BATCH }, (_, i) => [i, undefined]))),
    );
    const url = `${s.url}/trpc/${Array(BATCH).fill('coins.get_detailed').join(',')}?batch=1&input=${input}`;
    const one = await fetch(url);
    expect(one.status).toBe(200);
    const bytes = (await one.arrayBuffer()).byteLength;

    const ips = Array.from({ length: ADDRESSES }, (_, i) => loopback(i, 50 << 16));
    const { flood, healthz, page } = await floodWithProbes(
      s.url,
      { ips, request: { url }, concurrency: CONNECTIONS },
      customer.token,
      FLOOD_MS,
    );
    console.log(JSON.stringify({ answerBytes: bytes, flood: flood.statuses, healthz, page }));
    expect(healthz.allOk).toBe(true);
    expect(page.allOk).toBe(true);
    expect(healthz.p99).toBeLessThan(HEALTHZ_P99_MS);
    expect(page.p99).toBeLessThan(CUSTOMER_P99_MS);
    // Some guests were refused, every refusal with Retry-After, and guests were still served.
    expectFloodMetBudget(flood);
  },
);

import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMISSION_POOLS } from '../../src/server/guards/admission-pool';
import { requestFrom } from '../support/from-ip';
import { freshUser } from '../support/users';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Attack: POSTs that announce a body and never send it. The call budget let each in and
// the admission pool gave each a place while tRPC or the REST route waited for the body,
// until the server's request timeout (20 s). Eight such requests from one guest address
// held the guests' four places: every other guest waited out the line's 10 s and got
// 429, and 20 from one account did the same to every other customer. The body is now
// read before a place is taken, so a body that never comes holds its own budget only.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

/** A POST from `ip` whose body never comes; `answered` is set if the server answers it (its timeout). */
function bodyless(ip: string, path: string, token?: string) {
  const u = new URL(s.url);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    method: 'POST',
    path,
    localAddress: ip,
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': '1000',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  const state = { answered: false, req };
  req.on('response', () => (state.answered = true));
  req.on('error', () => {});
  req.flushHeaders();
  return state;
}

it("a guest's bodies that never come keep no other guest waiting", async () => {
  const held = [
    ...Array.from({ length: 2 * ADMISSION_POOLS.guest.running }, () => bodyless('127.0.3.1', '/trpc/auth.login')),
    ...Array.from({ length: 2 * ADMISSION_POOLS.guest.running }, () => bodyless('127.0.3.1', '/public_api/login')),
  ];
  try {
    // Each held request has been read up to its body: a later request from the same
    // address is behind them on the server.
    expect((await requestFrom('127.0.3.1', `${s.url}/healthz`)).status).toBe(200);
    const others = await Promise.all(
      Array.from({ length: 4 }, (_, i) => requestFrom(`127.0.3.${10 + i}`, `${s.url}/trpc/system.status`)),
    );
    expect(others.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const login = await requestFrom('127.0.3.20', `${s.url}/public_api/login`, {
      body: { username: 'nobody-here', password: 'wrong password' },
    });
    expect(login.status).toBe(401);
    expect(login.body).toMatchObject({ success: false, message: 'Invalid username or password.' });
    // Answered while the bodiless requests were still waiting for their bodies.
    expect(held.filter((h) => h.answered)).toEqual([]);
  } finally {
    held.forEach((h) => h.req.destroy());
  }
}, 60_000);

it("an account's bodies that never come keep no other customer waiting", async () => {
  const attacker = await freshUser(s.deps, { prefix: 'nobody' });
  const customer = await freshUser(s.deps, { prefix: 'waiting' });
  const held = Array.from({ length: ADMISSION_POOLS.account.running + 4 }, (_, i) =>
    bodyless(`127.0.4.${1 + i}`, '/trpc/auth.visited', attacker.token),
  );
  try {
    expect((await requestFrom('127.0.4.1', `${s.url}/healthz`)).status).toBe(200);
    const page = await requestFrom('127.0.4.100', `${s.url}/api/get_balance`, { token: customer.token });
    expect(page.status).toBe(200);
    expect(page.body.success).toBe(true);
    expect(held.filter((h) => h.answered)).toEqual([]);
  } finally {
    held.forEach((h) => h.req.destroy());
  }
}, 60_000);

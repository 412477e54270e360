import { afterAll, beforeAll, expect, it } from 'vitest';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// The per-account login counter was keyed by the account once the name was found, so a
// known account's username and email shared it while unknown names did not. Usernames
// are public (referral links): spend the allowance through one, and every candidate
// email then answered 429 if it was that account's and 401 if not, an oracle for the
// address registering is careful not to reveal.
let s: TestServer;
beforeAll(async () => (s = await startTestServer()));
afterAll(() => stopTestServer(s));

let nextIp = 0;
const ips = (n: number) => Array.from({ length: n }, () => loopback(nextIp++));
const login = (ip: string, username: string, password: string) =>
  requestFrom(ip, `${s.url}/public_api/login`, { body: { username, password } });

it("spending the allowance through a username says nothing about which email is the account's", async () => {
  const name = `oracle${Date.now().toString(36)}`;
  const reg = await requestFrom(loopback(nextIp++), `${s.url}/public_api/register`, {
    body: { username: name, email: `${name}@example.test`, password: 'owner-pass-1' },
  });
  expect(reg.status).toBe(200);

  const spent = await Promise.all(ips(40).map((ip, i) => login(ip, name, `guess-${i}`)));
  expect(byStatus(spent)[429]).toBeGreaterThan(0);

  const own = await login(loopback(nextIp++), `${name}@example.test`, 'guess-x');
  const other = await login(loopback(nextIp++), `someone-else-${name}@example.test`, 'guess-x');
  expect(own.status).toBe(other.status);
  expect(own.body).toEqual(other.body);
});

it('still checks at most 20 passwords per account, through its username and its email together', async () => {
  const name = `both${Date.now().toString(36)}`;
  await requestFrom(loopback(nextIp++), `${s.url}/public_api/register`, {
    body: { username: name, email: `${name}@example.test`, password: 'owner-pass-1' },
  });
  const answers = await Promise.all(
    ips(100).map((ip, i) => login(ip, i % 2 ? name : `${name}@EXAMPLE.test`, `guess-${i}`)),
  );
  expect(byStatus(answers)[401]).toBeLessThanOrEqual(20);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Finding 2: the per-account login limit must be taken before the password hash is
// checked, hold for unknown names exactly as for known ones, and leave the owner's
// known devices their own allowance.
let s: TestServer;
beforeAll(async () => (s = await startTestServer()));
afterAll(() => stopTestServer(s));

const login = (ip: string, body: Record<string, unknown>) => requestFrom(ip, `${s.url}/public_api/login`, { body });
let nextIp = 0;
const ips = (n: number) => Array.from({ length: n }, () => loopback(nextIp++));

async function register(name: string) {
  const r = await requestFrom(loopback(nextIp++), `${s.url}/public_api/register`, {
    body: { username: name, email: `${name}@example.test`, password: 'owner-pass-1' },
  });
  expect(r.status).toBe(200);
}

describe('per-account login limit under a parallel attack from many addresses', () => {
  it('checks at most 10 of 150 parallel wrong passwords; a stranger then cannot log in, a known device can', async () => {
    await register('victim');
    // The owner logged in before on this device and kept its device token.
    const before = await login(loopback(nextIp++), { username: 'victim', password: 'owner-pass-1' });
    expect(before.status).toBe(200);
    const device = before.body.device_token as string;
    expect(device).toMatch(/^[\w.-]{40,200}$/);

    const answers = await Promise.all(
      ips(150).map((ip, i) => login(ip, { username: 'victim', password: `guess-${i}` })),
    );
    expect(byStatus(answers)).toEqual({ 401: 10, 429: 140 });

    // Even the right password is not checked for a stranger now...
    expect((await login(loopback(nextIp++), { username: 'victim', password: 'owner-pass-1' })).status).toBe(429);
    // ...but the owner's device was not locked out by strangers.
    const owner = await login(loopback(nextIp++), { username: 'victim', password: 'owner-pass-1', device });
    expect(owner.status).toBe(200);
    expect(owner.body.auth_token).toBeTruthy();
  });

  it('limits an unknown username exactly like a known one', async () => {
    const answers = await Promise.all(
      ips(150).map((ip, i) => login(ip, { username: 'no-such-account', password: `guess-${i}` })),
    );
    expect(byStatus(answers)).toEqual({ 401: 10, 429: 140 });
  });

  it('a device token counts only for its own account, and has its own limit', async () => {
    await register('owner2');
    await register('other2');
    const device = (await login(loopback(nextIp++), { username: 'owner2', password: 'owner-pass-1' })).body
      .device_token as string;
    // owner2's device gives no allowance on other2's account: strangers' limit applies.
    const onOther = await Promise.all(
      ips(30).map((ip, i) => login(ip, { username: 'other2', password: `guess-${i}`, device })),
    );
    expect(byStatus(onOther)).toEqual({ 401: 10, 429: 20 });
    // A tampered token is a stranger's.
    const forged = device.slice(0, -2) + (device.endsWith('AA') ? 'BB' : 'AA');
    expect(
      (await login(loopback(nextIp++), { username: 'other2', password: 'owner-pass-1', device: forged })).status,
    ).toBe(429);
    // The device's own allowance is limited too (someone on the owner's machine guessing).
    const onOwn = await Promise.all(
      ips(15).map((ip, i) => login(ip, { username: 'owner2', password: `guess-${i}`, device })),
    );
    expect(byStatus(onOwn)).toEqual({ 401: 10, 429: 5 });
  });

  it('the same limits hold through the tRPC endpoint the browser uses', async () => {
    const trpcLogin = (ip: string, i: number) =>
      requestFrom(ip, `${s.url}/trpc/auth.login`, { body: { username: 'trpc-ghost', password: `guess-${i}` } });
    const answers = await Promise.all(ips(40).map((ip, i) => trpcLogin(ip, i)));
    expect(byStatus(answers)).toEqual({ 401: 10, 429: 30 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/auth/totp';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Finding 3: a TOTP code is good once and the wrong-code lock holds, however many
// requests carry them at the same moment.
let s: TestServer;
beforeAll(async () => (s = await startTestServer()));
afterAll(() => stopTestServer(s));

let nextIp = 1000;
const ips = (n: number) => Array.from({ length: n }, () => loopback(nextIp++));
const post = (path: string, body: unknown, token?: string) =>
  requestFrom(loopback(nextIp++), s.url + path, { body, token });

/** A fresh account with 2FA on; returns its name, a session token and the secret. */
async function userWith2fa(name: string) {
  expect(
    (await post('/public_api/register', { username: name, email: `${name}@example.test`, password: 'tfa-pass-1' }))
      .status,
  ).toBe(200);
  const token = (await post('/public_api/login', { username: name, password: 'tfa-pass-1' })).body.auth_token as string;
  const secret = (await requestFrom(loopback(nextIp++), `${s.url}/api/get_tfa`, { token })).body.secret as string;
  expect((await post('/api/update_tfa', { enable: true, code: totpCode(secret) }, token)).status).toBe(200);
  return { name, token, secret };
}
const wrongCode = (secret: string) => {
  const near = [-30_000, 0, 30_000].map((d) => totpCode(secret, Date.now() + d));
  return ['000000', '111111', '222222', '333333'].find((c) => !near.includes(c))!;
};

describe('TOTP under parallel requests', () => {
  it('one code sent 10 times at once logs in once', async () => {
    const u = await userWith2fa('tfa_replay');
    const code = totpCode(u.secret, Date.now() + 30_000);
    const answers = await Promise.all(
      ips(10).map((ip) =>
        requestFrom(ip, `${s.url}/public_api/login`, { body: { username: u.name, password: 'tfa-pass-1', tfa: code } }),
      ),
    );
    expect(byStatus(answers)).toEqual({ 200: 1, 400: 9 });
    expect(answers.filter((a) => a.body.auth_token)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 400)) expect(a.body.message).toMatch(/already used/);
  });

  it('75 wrong codes at once: five are judged, the rest meet the lock, and then even the right code does', async () => {
    const u = await userWith2fa('tfa_burst');
    const wrong = wrongCode(u.secret);
    const answers = await Promise.all(
      ips(75).map((ip) =>
        requestFrom(ip, `${s.url}/api/update_tfa`, { body: { enable: false, code: wrong }, token: u.token }),
      ),
    );
    expect(byStatus(answers)).toEqual({ 400: 5, 429: 70 });
    const right = await post(
      '/api/update_tfa',
      { enable: false, code: totpCode(u.secret, Date.now() + 30_000) },
      u.token,
    );
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/Too many wrong 2FA codes/);
  });

  it('bursts of logins with wrong codes are held to five by the same lock', async () => {
    const u = await userWith2fa('tfa_login_burst');
    const wrong = wrongCode(u.secret);
    const burst = () =>
      Promise.all(
        ips(15).map((ip) =>
          requestFrom(ip, `${s.url}/public_api/login`, {
            body: { username: u.name, password: 'tfa-pass-1', tfa: wrong },
          }),
        ),
      );
    const first = byStatus(await burst());
    const second = byStatus(await burst());
    expect(first).toEqual({ 400: 5, 429: 10 });
    expect(second).toEqual({ 429: 15 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/server/auth/totp';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser } from '../support/users';

// The helper every test uses to make its user: what it promises, checked through the
// same procedures a client calls.
let d: Deps;
beforeAll(async () => (d = await makeDeps()));
afterAll(() => d.close());

describe('freshUser', () => {
  it('registers, verifies through the mailed link and logs in by default', async () => {
    const u = await freshUser(d.deps, { prefix: 'alice' });
    expect(u.username).toMatch(/^alice[a-z0-9]+$/);
    expect(u).toMatchObject({ verified: true, tfaSecret: null, email: `${u.username}@example.test` });
    const info = await d.caller(u.token).auth.get_common_info();
    expect(info.info).toMatchObject({ user_id: u.id, username: u.username, email: u.email, verified: true });
  });

  it('makes a different user every time', async () => {
    const [a, b] = await Promise.all([freshUser(d.deps), freshUser(d.deps)]);
    expect(a.username).not.toBe(b.username);
    expect(a.id).not.toBe(b.id);
    expect(a.token).not.toBe(b.token);
  });

  it('can leave the user unverified and logged out', async () => {
    const u = await freshUser(d.deps, { verified: false, login: false });
    expect(u.token).toBe('');
    const { auth_token } = await d.caller().auth.login({ username: u.username, password: u.password });
    expect((await d.caller(auth_token!).auth.get_common_info()).info.verified).toBe(false);
  });

  it('turns 2FA on: the password alone no longer logs in', async () => {
    const u = await freshUser(d.deps, { tfa: true });
    expect(u.tfaSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await d.caller(u.token).auth.get_tfa()).enabled).toBe(true);
    expect(await d.caller().auth.login({ username: u.username, password: u.password })).toMatchObject({
      tfa_authenticated: false,
    });
    // The enabling code's step is used: the next one logs in.
    const step2 = await d
      .caller()
      .auth.login({ username: u.username, password: u.password, tfa: totpCode(u.tfaSecret!, Date.now() + 30_000) });
    expect(step2).toMatchObject({ success: true, tfa_authenticated: true });
  });
});

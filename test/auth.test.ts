import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/server/auth/totp';
import { findUserByLogin } from '../src/server/auth/queries';
import { hashToken } from '../src/server/auth/tokens';
import { makeDeps, newUserInput, outboxLink, registerAndLogin, type Deps, rejection } from './support/caller';

let d: Deps;
beforeAll(async () => (d = await makeDeps()));
afterAll(() => d.close());

describe('register and verify', () => {
  it('creates an unverified account, mails a single-use link, and verifies with it', async () => {
    const u = newUserInput();
    const res = await d.caller().auth.register({ ...u, referrer: 'friend42' });
    expect(res).toMatchObject({ success: true });
    const row = await findUserByLogin(d.db, u.username);
    expect(row).toMatchObject({ username: u.username, email: u.email, referrer: 'friend42', verified_at: null });
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);

    const token = await outboxLink(d, u.email, '/verify?h=');
    const stored = await d.db.selectFrom('email_tokens').selectAll().where('user_id', '=', row!.id).execute();
    expect(stored.map((t) => t.token_hash)).toEqual([hashToken(token)]); // only the hash is kept

    expect(await d.caller().auth.verify({ hash: token })).toMatchObject({
      success: true,
      message: 'Successfully verified!',
    });
    expect((await findUserByLogin(d.db, u.username))!.verified_at).not.toBeNull();
    expect((await rejection(d.caller().auth.verify({ hash: token }))).code).toBe('BAD_REQUEST');
  });

  it('refuses a taken username, ignoring case', async () => {
    const u = newUserInput();
    await d.caller().auth.register(u);
    const byName = await rejection(d.caller().auth.register({ ...newUserInput(), username: u.username.toUpperCase() }));
    expect(byName).toMatchObject({ code: 'CONFLICT', message: 'This username is already taken.' });
  });

  it('answers a taken email as a new account, creates nothing, and mails the owner instead', async () => {
    const owner = newUserInput();
    const fresh = await d.caller().auth.register(owner);
    const other = newUserInput();
    const again = await d.caller().auth.register({ ...other, email: owner.email.toUpperCase() });
    expect(again).toEqual(fresh);
    expect(await findUserByLogin(d.db, other.username)).toBeUndefined();
    const mails = await d.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_addr', '=', owner.email)
      .orderBy('id')
      .execute();
    expect(mails.map((m) => m.subject)).toEqual([
      'Confirm your Nodekeep email address',
      'Someone tried to register with your email at Nodekeep',
    ]);
    expect(mails[1].text).toContain(owner.username);
    expect(mails[1].text).not.toMatch(/verify\?h=/);
  });

  it('resends verification only for unverified accounts, rate limited, voiding the old link', async () => {
    const u = await registerAndLogin(d);
    const first = await outboxLink(d, u.email, '/verify?h=');
    await d.caller(u.token).auth.resend_verification_email();
    const second = await outboxLink(d, u.email, '/verify?h=');
    expect(second).not.toBe(first);
    expect((await rejection(d.caller().auth.verify({ hash: first }))).code).toBe('BAD_REQUEST');
    await d.caller(u.token).auth.resend_verification_email();
    await d.caller(u.token).auth.resend_verification_email();
    expect((await rejection(d.caller(u.token).auth.resend_verification_email())).code).toBe('TOO_MANY_REQUESTS');
    await d.caller().auth.verify({ hash: await outboxLink(d, u.email, '/verify?h=') });
    const v = await registerAndLogin(d);
    await d.caller().auth.verify({ hash: await outboxLink(d, v.email, '/verify?h=') });
    expect(await rejection(d.caller(v.token).auth.resend_verification_email())).toMatchObject({
      message: 'Your email address is already verified.',
    });
  });
});

describe('login and sessions', () => {
  it('logs in by username or email, any case, and answers the profile', async () => {
    const u = newUserInput();
    await d.caller().auth.register(u);
    const byEmail = await d.caller().auth.login({ username: u.email.toUpperCase(), password: u.password });
    expect(byEmail).toMatchObject({ success: true, tfa_authenticated: true });
    const info = await d.caller(byEmail.auth_token!).auth.get_common_info();
    expect(info).toMatchObject({
      success: true,
      maintenance: false,
      info: { username: u.username, email: u.email, balance: 0, verified: false },
    });
    const session = await d.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(byEmail.auth_token!))
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ ip: expect.stringMatching(/^10\.200\./), user_agent: 'vitest', revoked_at: null });
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const u = newUserInput();
    await d.caller().auth.register(u);
    const wrong = await rejection(d.caller().auth.login({ username: u.username, password: 'nope-nope' }));
    const unknown = await rejection(d.caller().auth.login({ username: 'nobody-here', password: 'nope-nope' }));
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(unknown.message).toBe(wrong.message);
  });

  it("after twenty wrong passwords (ten per name) a stranger is refused even the right one; the owner's device is not", async () => {
    const u = newUserInput();
    await d.caller().auth.register(u);
    const device = (await d.caller().auth.login({ username: u.username, password: u.password })).device_token!;
    for (let i = 0; i < 20; i++) {
      const name = i % 2 ? u.username : u.email;
      expect(
        (await rejection(d.caller(null, `10.1.0.${i}`).auth.login({ username: name, password: 'wrong-pass' }))).code,
      ).toBe('UNAUTHORIZED');
    }
    for (const name of [u.username, u.email]) {
      const locked = await rejection(d.caller(null, '10.1.1.1').auth.login({ username: name, password: u.password }));
      expect(locked.code).toBe('TOO_MANY_REQUESTS');
    }
    expect(
      (await d.caller(null, '10.1.1.2').auth.login({ username: u.username, password: u.password, device }))
        .tfa_authenticated,
    ).toBe(true);
  });

  it('limits login attempts per IP', async () => {
    const ip = '10.9.9.9';
    let limited: TRPCError | null = null;
    for (let i = 0; i < 40 && !limited; i++) {
      const e = await rejection(d.caller(null, ip).auth.login({ username: `ghost${i}`, password: 'whatever' }));
      if (e.code === 'TOO_MANY_REQUESTS') limited = e;
    }
    expect(limited).not.toBeNull();
  });

  it('logout revokes the token', async () => {
    const u = await registerAndLogin(d);
    await d.caller(u.token).auth.logout();
    expect((await rejection(d.caller(u.token).auth.get_common_info())).code).toBe('UNAUTHORIZED');
  });

  it('an unknown or expired token is refused', async () => {
    expect((await rejection(d.caller('made-up').auth.get_common_info())).code).toBe('UNAUTHORIZED');
    const u = await registerAndLogin(d);
    await d.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashToken(u.token))
      .execute();
    expect((await rejection(d.caller(u.token).auth.get_common_info())).code).toBe('UNAUTHORIZED');
  });

  it('changing the password needs the current one and signs out the other sessions only', async () => {
    const u = await registerAndLogin(d);
    const other = (await d.caller().auth.login({ username: u.username, password: u.password })).auth_token!;
    const bad = await rejection(
      d.caller(u.token).auth.change_password({ current_password: 'not-it', new_password: 'brand-new-1' }),
    );
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', message: 'Your current password is incorrect.' });
    await d.caller(u.token).auth.change_password({ current_password: u.password, new_password: 'brand-new-1' });
    expect((await d.caller(u.token).auth.get_common_info()).success).toBe(true);
    expect((await rejection(d.caller(other).auth.get_common_info())).code).toBe('UNAUTHORIZED');
    await rejection(d.caller().auth.login({ username: u.username, password: u.password }));
    expect((await d.caller().auth.login({ username: u.username, password: 'brand-new-1' })).success).toBe(true);
  });
});

describe('two-factor authentication', () => {
  async function enable2fa(token: string) {
    const { secret, enabled } = await d.caller(token).auth.get_tfa();
    expect(enabled).toBe(false);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The secret is made once and kept until 2FA is disabled.
    expect((await d.caller(token).auth.get_tfa()).secret).toBe(secret);
    await d.caller(token).auth.update_tfa({ enable: true, code: totpCode(secret) });
    return secret;
  }

  it('enables with a code, then login needs a second step', async () => {
    const u = await registerAndLogin(d);
    const secret = await enable2fa(u.token);
    expect(await d.caller(u.token).auth.get_tfa()).toEqual({ enabled: true, secret: '' });

    const step1 = await d.caller().auth.login({ username: u.username, password: u.password });
    expect(step1).toEqual({ success: true, message: 'Please enter your 2FA code.', tfa_authenticated: false });
    const step2 = await d
      .caller()
      .auth.login({ username: u.username, password: u.password, tfa: totpCode(secret, Date.now() + 30_000) });
    expect(step2).toMatchObject({ success: true, tfa_authenticated: true });
    expect(step2.auth_token).toBeTruthy();
  });

  it('refuses a replayed code and a wrong code', async () => {
    const u = await registerAndLogin(d);
    const secret = await enable2fa(u.token);
    // The code that just enabled 2FA cannot log in.
    const replay = await rejection(
      d.caller().auth.login({ username: u.username, password: u.password, tfa: totpCode(secret) }),
    );
    expect(replay.message).toMatch(/already used/);
    const wrong = await rejection(
      d.caller().auth.login({
        username: u.username,
        password: u.password,
        tfa: '000000' === totpCode(secret) ? '111111' : '000000',
      }),
    );
    expect(wrong.message).toMatch(/Invalid 2FA code|already used/);
  });

  it('locks 2FA attempts after five wrong codes, even for a right one', async () => {
    const u = await registerAndLogin(d);
    const secret = await enable2fa(u.token);
    const right = totpCode(secret, Date.now() + 30_000);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++)
      await rejection(
        d.caller(null, `10.2.0.${i}`).auth.login({ username: u.username, password: u.password, tfa: wrong }),
      );
    const locked = await rejection(
      d.caller(null, '10.2.1.1').auth.login({ username: u.username, password: u.password, tfa: right }),
    );
    expect(locked).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(locked.message).toMatch(/Too many wrong 2FA codes/);
  });

  it('disables with a code and makes a fresh secret next time', async () => {
    const u = await registerAndLogin(d);
    const secret = await enable2fa(u.token);
    await rejection(
      d.caller(u.token).auth.update_tfa({ enable: false, code: '999999' === totpCode(secret) ? '888888' : '999999' }),
    );
    await d.caller(u.token).auth.update_tfa({ enable: false, code: totpCode(secret, Date.now() + 30_000) });
    const again = await d.caller(u.token).auth.get_tfa();
    expect(again.enabled).toBe(false);
    expect(again.secret).not.toBe(secret);
    expect((await d.caller().auth.login({ username: u.username, password: u.password })).tfa_authenticated).toBe(true);
  });
});

describe('recover and reset', () => {
  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const u = newUserInput();
    await d.caller().auth.register(u);
    const known = await d.caller(null, '10.3.0.1').auth.recover({ email: u.email });
    const unknown = await d.caller(null, '10.3.0.1').auth.recover({ email: 'nobody@example.test' });
    expect(unknown).toEqual(known);
    const mails = await d.db.selectFrom('mail_outbox').select('to_addr').where('subject', 'like', '%Reset%').execute();
    expect(mails.map((m) => m.to_addr)).toContain(u.email);
    expect(mails.map((m) => m.to_addr)).not.toContain('nobody@example.test');
  });

  it('a reset token works once, within the hour, and signs out every session', async () => {
    const u = await registerAndLogin(d);
    await d.caller(null, '10.4.0.1').auth.recover({ email: u.email });
    const token = await outboxLink(d, u.email, '/reset?token=');
    expect(await d.caller().auth.check_reset_token({ token })).toEqual({ success: true });
    await d.caller().auth.reset({ token, password: 'after-reset-1' });
    expect((await rejection(d.caller(u.token).auth.get_common_info())).code).toBe('UNAUTHORIZED');
    expect((await rejection(d.caller().auth.reset({ token, password: 'again-again' }))).code).toBe('BAD_REQUEST');
    expect((await rejection(d.caller().auth.check_reset_token({ token }))).code).toBe('BAD_REQUEST');
    expect((await d.caller().auth.login({ username: u.username, password: 'after-reset-1' })).success).toBe(true);

    await d.caller(null, '10.4.0.2').auth.recover({ email: u.email });
    const late = await outboxLink(d, u.email, '/reset?token=');
    await d.db
      .updateTable('email_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashToken(late))
      .execute();
    expect((await rejection(d.caller().auth.reset({ token: late, password: 'too-late-1' }))).code).toBe('BAD_REQUEST');
  });

  it("revokes the account's API keys (a reset takes a stolen account back); a password change keeps them", async () => {
    const u = await registerAndLogin(d);
    const other = await registerAndLogin(d);
    const made = await d.caller(u.token).apikeys.create_api_key({ name: 'made by whoever held the session' });
    const kept = await d.caller(other.token).apikeys.create_api_key({ name: 'another account' });
    expect((await d.caller(made.key).auth.get_common_info()).info.username).toBe(u.username);

    // A change, knowing the password: the keys stay.
    await d.caller(u.token).auth.change_password({ current_password: u.password, new_password: 'changed-1' });
    expect((await d.caller(made.key).auth.get_common_info()).info.username).toBe(u.username);

    await d.caller(null, '10.4.0.3').auth.recover({ email: u.email });
    const token = await outboxLink(d, u.email, '/reset?token=');
    expect(await d.caller().auth.reset({ token, password: 'after-reset-2' })).toEqual({
      success: true,
      message:
        'Your password has been changed and your API keys were revoked (make new ones on the API page). You can now log in.',
    });
    expect((await rejection(d.caller(made.key).auth.get_common_info())).code).toBe('UNAUTHORIZED');
    expect((await d.caller(kept.key).auth.get_common_info()).info.username).toBe(other.username);

    // With no key left, the answer says nothing of keys.
    await d.caller(null, '10.4.0.4').auth.recover({ email: u.email });
    const again = await outboxLink(d, u.email, '/reset?token=');
    expect((await d.caller().auth.reset({ token: again, password: 'after-reset-3' })).message).toBe(
      'Your password has been changed. You can now log in.',
    );
  });
});

describe('maintenance and visits', () => {
  it('private calls answer a maintenance error, except the profile, which reports the flag', async () => {
    const u = await registerAndLogin(d);
    await d.db.insertInto('settings').values({ key: 'maintenance', value: 'on', updated_at: Date.now() }).execute();
    try {
      expect((await d.caller(u.token).auth.get_common_info()).maintenance).toBe(true);
      expect(await d.caller().system.status()).toMatchObject({ success: true, maintenance: true });
      const e = await rejection(d.caller(u.token).auth.get_tfa());
      expect(e.code).toBe('SERVICE_UNAVAILABLE');
      // Login itself still works.
      expect((await d.caller().auth.login({ username: u.username, password: u.password })).success).toBe(true);
    } finally {
      await d.db.deleteFrom('settings').where('key', '=', 'maintenance').execute();
    }
  });

  it('visited records the path', async () => {
    const u = await registerAndLogin(d);
    await d.caller(u.token).auth.visited({ fullPath: '/dashboard/settings?x=1' });
    const user = await findUserByLogin(d.db, u.username);
    const visits = await d.db.selectFrom('page_visits').selectAll().where('user_id', '=', user!.id).execute();
    expect(visits.map((v) => v.path)).toEqual(['/dashboard/settings?x=1']);
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or secrets', () => {
    const text = d.log.lines.join('\n');
    expect(text).not.toMatch(/correct horse|brand-new-1|after-reset-1/);
    expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/); // 32-byte base64url tokens
  });
});

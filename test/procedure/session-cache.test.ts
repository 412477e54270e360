import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqlite } from '../../src/server/db/sqlite';
import { disableUser, resetUserTfa } from '../../src/server/auth/operator-actions';
import { endSessions, resolveSession } from '../../src/server/auth/sessions';
import { totpCode } from '../../src/server/auth/totp';
import type { OperatorActor } from '../../src/server/kernel/actor';
import { cliRun } from '../support/cli';
import { makeDeps, outboxLink, rejection, type Deps } from '../support/caller';
import { callerFor, freshUser, type FreshUser } from '../support/users';

// Sessions resolved once are kept in memory (auth/session-cache.ts). Every test makes its
// session cached with a request first, then ends it (or changes its account) and asserts
// the very next request sees it: the cache must never answer for a session that ended.

let d: Deps;
const by: OperatorActor = { kind: 'cli', osUser: 'vitest' };
beforeAll(async () => {
  d = await makeDeps();
});
afterAll(() => d.close());
afterEach(() => vi.useRealTimers());

const call = (token: string | null = null) => callerFor(d.deps)(token);

async function cachedUser(opts: { tfa?: boolean } = {}): Promise<FreshUser> {
  const u = await freshUser(d.deps, { prefix: 'scache', ...opts });
  // Twice: the first may be the one that made the entry, the second is served from it.
  await call(u.token).auth.get_common_info();
  expect((await call(u.token).auth.get_common_info()).success).toBe(true);
  return u;
}

async function secondSession(u: FreshUser): Promise<string> {
  const res = await call().auth.login({ username: u.username, password: u.password });
  const token = res.auth_token!;
  expect((await call(token).auth.get_common_info()).success).toBe(true);
  return token;
}

async function refused(token: string) {
  expect((await rejection(call(token).auth.get_common_info())).code).toBe('UNAUTHORIZED');
}

const cli = (argv: string[]) => cliRun(argv, { DATA_DIR: d.deps.config.dataDir });

describe('the session cache refuses an ended session on its very next request', () => {
  it('after logout', async () => {
    const u = await cachedUser();
    await call(u.token).auth.logout();
    await refused(u.token);
  });

  it('after every session of the account is revoked (sign out everywhere)', async () => {
    const u = await cachedUser();
    const other = await secondSession(u);
    await d.db.transaction().execute((trx) => endSessions(trx, u.id, {}));
    await refused(u.token);
    await refused(other);
  });

  it('after one session is revoked, the others still answer', async () => {
    const u = await cachedUser();
    const other = await secondSession(u);
    const found = await resolveSession(d.deps, other);
    await d.db.transaction().execute((trx) => endSessions(trx, u.id, { only: found!.session.id }));
    await refused(other);
    expect((await call(u.token).auth.get_common_info()).success).toBe(true);
  });

  it('after a password change, for the other sessions', async () => {
    const u = await cachedUser();
    const other = await secondSession(u);
    await call(u.token).auth.change_password({ current_password: u.password, new_password: 'another horse 2' });
    await refused(other);
    expect((await call(u.token).auth.get_common_info()).success).toBe(true);
  });

  it('after a password reset', async () => {
    const u = await cachedUser();
    await call().auth.recover({ email: u.email });
    const token = await outboxLink(d, u.email, '/reset?token=');
    await call().auth.reset({ token, password: 'reset horse 3' });
    await refused(u.token);
  });

  it('after the account is disabled from the console', async () => {
    const u = await cachedUser();
    await disableUser(d.db, by, u.id);
    await refused(u.token);
  });

  it('after the account is disabled by the command line (its own database connection)', async () => {
    const u = await cachedUser();
    expect((await cli(['users', 'disable', u.username])).code).toBe(0);
    await refused(u.token);
  });

  it('after the account is deleted by another connection', async () => {
    const u = await cachedUser();
    const other = openSqlite(d.deps.config.dbFile);
    try {
      // Foreign keys off on this connection: only the user's row goes, as a hand-made repair would.
      other.pragma('foreign_keys = OFF');
      other.prepare('DELETE FROM users WHERE id = ?').run(u.id);
    } finally {
      other.close();
    }
    await refused(u.token);
  });

  it('when the session expires', async () => {
    const u = await cachedUser();
    const found = await resolveSession(d.deps, u.token);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(found!.session.expires_at + 1);
    await refused(u.token);
  });
});

describe('the session cache shows an account change on the very next request', () => {
  it('2FA turned on in another session', async () => {
    const u = await cachedUser();
    const other = await secondSession(u);
    expect((await call(other).auth.get_tfa()).enabled).toBe(false);
    const { secret } = await call(u.token).auth.get_tfa();
    await call(u.token).auth.update_tfa({ enable: true, code: totpCode(secret) });
    expect((await call(other).auth.get_tfa()).enabled).toBe(true);
  });

  it('2FA reset by an operator', async () => {
    const u = await cachedUser({ tfa: true });
    expect((await call(u.token).auth.get_tfa()).enabled).toBe(true);
    await resetUserTfa(d.db, by, u.id, 'called them back on their number');
    expect((await call(u.token).auth.get_tfa()).enabled).toBe(false);
  });

  it('a role change by the command line', async () => {
    const u = await cachedUser();
    expect((await resolveSession(d.deps, u.token))!.user.role).toBe('customer');
    expect((await cli(['users', 'promote', u.username])).code).toBe(0);
    expect((await resolveSession(d.deps, u.token))!.user.role).toBe('operator');
    expect((await cli(['users', 'demote', u.username])).code).toBe(0);
    expect((await resolveSession(d.deps, u.token))!.user.role).toBe('customer');
  });
});

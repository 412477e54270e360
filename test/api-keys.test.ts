import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/server/apikeys/keys';
import { createContext } from '../src/server/rpc/context';
import { createCallerFactory, router, scriptProcedure } from '../src/server/rpc/trpc';
import { makeDeps, registerAndLogin, type Deps, rejection } from './support/caller';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

describe('operator procedures', () => {
  let d: Deps;
  beforeAll(async () => {
    d = await makeDeps();
  });
  afterAll(() => d.close());

  // Who gets through `operatorProcedure` (guests, customers, API keys, operators without
  // 2FA: 404): test/procedure/console-access.test.ts, over every console procedure.

  it('the role column refuses values other than customer and operator', async () => {
    const u = await registerAndLogin(d);
    await expect(
      d.db
        .updateTable('users')
        .set({ role: 'admin' as 'operator' })
        .where('username', '=', u.username)
        .execute(),
    ).rejects.toThrow(/CHECK/);
  });
});

describe('API keys', () => {
  let d: Deps;
  beforeAll(async () => {
    d = await makeDeps();
  });
  afterAll(() => d.close());

  const userId = async (username: string) =>
    (await d.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  it('act as the bearer token on the calls scripts make, and only a hash is stored', async () => {
    const u = await registerAndLogin(d);
    const { key, handle } = await createApiKey(d.db, await userId(u.username), { name: 'my script' });
    const info = await d.caller(key).auth.get_common_info();
    expect(info.info.username).toBe(u.username);
    expect((await d.caller(key).nodes.get_masternodes()).masternodes).toEqual([]);
    const row = await d.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_prefix', '=', handle)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.slice(-20));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('cannot make account-security or browser-only calls', async () => {
    const u = await registerAndLogin(d);
    const { key } = await createApiKey(d.db, await userId(u.username), { name: 'k' });
    const c = d.caller(key);
    for (const p of [
      c.auth.change_password({ current_password: u.password, new_password: 'another pass 2' }),
      c.auth.update_tfa({ enable: true, code: '123456' }),
      c.auth.get_tfa(),
      c.auth.logout(),
      c.auth.resend_verification_email(),
      c.auth.visited({ fullPath: '/x' }),
    ]) {
      expect(await rejection(p)).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/API keys cannot/),
      });
    }
    // And the password did not change.
    expect((await d.caller().auth.login({ username: u.username, password: u.password })).success).toBe(true);
  });

  it('are refused from an address outside their allow list, accepted from one inside', async () => {
    const u = await registerAndLogin(d);
    const { key } = await createApiKey(d.db, await userId(u.username), { name: 'k', allowed: '10.1.1.1, 10.1.1.2' });
    expect((await d.caller(key, '10.1.1.2').auth.get_common_info()).success).toBe(true);
    expect((await d.caller(key, '::ffff:10.1.1.1').auth.get_common_info()).success).toBe(true);
    expect(await rejection(d.caller(key, '10.1.1.3').auth.get_common_info())).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/10\.1\.1\.3/),
    });
  });

  it('an unknown key, or the key of a disabled user, is UNAUTHORIZED', async () => {
    const u = await registerAndLogin(d);
    const id = await userId(u.username);
    const { key } = await createApiKey(d.db, id, { name: 'k' });
    expect(await rejection(d.caller(`${key}x`).auth.get_common_info())).toMatchObject({ code: 'UNAUTHORIZED' });
    await d.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', id).execute();
    expect(await rejection(d.caller(key).auth.get_common_info())).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('narrow the context: a script procedure sees the user and no session', async () => {
    const u = await registerAndLogin(d);
    const { key } = await createApiKey(d.db, await userId(u.username), { name: 'k' });
    const r = router({
      me: scriptProcedure.query(({ ctx }) => ({ user: ctx.user.username, session: ctx.session?.id ?? null })),
    });
    const call = (token: string) =>
      createCallerFactory(r)(createContext(d.deps, { remoteAddress: '10.3.0.1', header: () => undefined, token })).me();
    expect(await call(key)).toEqual({ user: u.username, session: null });
    expect(await call(u.token)).toEqual({ user: u.username, session: expect.any(Number) });
  });
});

describe('API keys over HTTP, from real loopback addresses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => stopTestServer(s));

  /** A GET sent from a chosen local address (127.x.y.z are distinct clients). */
  function getFrom(localAddress: string, path: string, token: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        `${s.url}${path}`,
        { localAddress, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
    });
  }

  it('a key limited to 127.0.0.7 works from there and is 403 from 127.0.0.8; session-only calls are 403', async () => {
    const post = (p: string, body: unknown) =>
      fetch(s.url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post('/public_api/register', { username: 'keyed', email: 'keyed@example.test', password: 'keyed-pass-1' });
    const id = (
      await s.deps.db.selectFrom('users').select('id').where('username', '=', 'keyed').executeTakeFirstOrThrow()
    ).id;
    const { key } = await createApiKey(s.deps.db, id, { name: 'cron', allowed: '127.0.0.7' });
    const ok = await getFrom('127.0.0.7', '/api/get_masternodes', key);
    expect(ok.status).toBe(200);
    expect(ok.body.masternodes).toEqual([]);
    const elsewhere = await getFrom('127.0.0.8', '/api/get_masternodes', key);
    expect(elsewhere).toEqual({
      status: 403,
      body: { success: false, message: expect.stringMatching(/may not be used from your address/) },
    });
    const tfa = await getFrom('127.0.0.7', '/api/get_tfa', key);
    expect(tfa).toEqual({ status: 403, body: { success: false, message: expect.stringMatching(/API keys cannot/) } });
  });
});

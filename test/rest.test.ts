import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/server/auth/totp';
import { snapshot } from './support/db-snapshot';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser, type FreshUser } from './support/users';

let s: TestServer;
let token: string;
let secret: string;
let user: FreshUser;

async function call(
  method: string,
  path: string,
  body?: unknown,
  opts: { token?: string; raw?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(s.url + path, {
    method,
    headers,
    body: opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { notJson: text };
  }
  return { status: res.status, body: json };
}

beforeAll(async () => {
  s = await startTestServer();
  user = await freshUser(s.deps, { prefix: 'rest' });
  token = user.token;
  secret = (await call('GET', '/api/get_tfa', undefined, { token })).body.secret;
});
afterAll(() => stopTestServer(s));

describe('REST adapters at the spec paths', () => {
  it('healthz answers once ready', async () => {
    expect(await call('GET', '/healthz')).toEqual({ status: 200, body: { ok: true } });
  });

  it('login answers the spec fields, get_common_info the profile', async () => {
    const login = await call('POST', '/public_api/login', { username: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual([
      'auth_token',
      'device_token',
      'message',
      'qr_key',
      'success',
      'tfa_authenticated',
    ]);
    const info = await call('GET', '/api/get_common_info', undefined, { token: login.body.auth_token });
    expect(info.status).toBe(200);
    expect(Object.keys(info.body.info).sort()).toEqual(
      [
        'alert',
        'balance',
        'created_at',
        'email',
        'qr_url',
        'room_id',
        'stripe_public_key',
        'user_id',
        'username',
        'verified',
      ].sort(),
    );
    expect(info.body).toMatchObject({ success: true, maintenance: false });
  });

  it('the same procedure serves tRPC', async () => {
    const res = await fetch(`${s.url}/trpc/auth.get_common_info`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).result.data.info.username).toBe(user.username);
  });

  it.each([
    ['no header', undefined],
    ['unknown token', 'Bearer 0123456789abcdef'],
    ['wrong scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['oversized token', `Bearer ${'x'.repeat(5000)}`],
  ])('private calls with %s get 401 {success:false, message}', async (_name, auth) => {
    for (const [method, path] of [
      ['GET', '/api/get_common_info'],
      ['GET', '/api/get_tfa'],
      ['POST', '/api/logout'],
      ['POST', '/api/visited'],
    ]) {
      const res = await call(method, path, method === 'POST' ? { fullPath: '/x' } : undefined, {
        headers: auth ? { authorization: auth } : {},
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toEqual({ success: false, message: expect.stringMatching(/log in/) });
    }
  });

  it('unknown API paths get 404 JSON, a wrong method 405, never the SPA', async () => {
    expect(await call('GET', '/api/nope')).toEqual({
      status: 404,
      body: { success: false, message: 'Unknown API call: GET /api/nope' },
    });
    expect((await call('POST', '/public_api/get_everything', {})).status).toBe(404);
    expect((await call('GET', '/public_api/login')).status).toBe(405);
  });
});

// Every endpoint of this issue, with inputs a browser, a script or an attacker might send.
const publicBad: [string, unknown, RegExp][] = [
  ['/public_api/login', { username: 'a' }, /password/],
  ['/public_api/login', { username: 5, password: 'x' }, /username/],
  ['/public_api/login', { username: 'a', password: 'b', tfa: '12ab56' }, /tfa/],
  ['/public_api/login', { username: 'a', password: 'b', admin: true }, /unknown field: admin/],
  ['/public_api/login', { username: 'a'.repeat(300), password: 'b' }, /username/],
  ['/public_api/login', [1, 2], /^Send a JSON object\.$/],
  ['/public_api/register', { username: 'ab', email: 'x@y.io', password: 'secret1' }, /username: must be at least 3/],
  ['/public_api/register', { username: 'abc', email: 'nope', password: 'secret1' }, /email/],
  [
    '/public_api/register',
    { username: 'abc', email: 'x@y.io', password: 'x'.repeat(129) },
    /password: must be at most 128/,
  ],
  [
    '/public_api/register',
    { username: 'abc', email: 'x@y.io', password: 'secret1', referrer: 'r'.repeat(65) },
    /referrer/,
  ],
  [
    '/public_api/register',
    { username: 'abc', email: 'x@y.io', password: 'secret1', role: 'admin' },
    /unknown field: role/,
  ],
  ['/public_api/register', { username: "abc'; drop table users;--", email: 'x@y.io', password: 'secret1' }, /username/],
  ['/public_api/recover', { email: 42 }, /email/],
  ['/public_api/recover', {}, /email/],
  ['/public_api/reset', { token: 'abc' }, /password/],
  ['/public_api/reset', { token: '', password: 'secret1' }, /token/],
  ['/public_api/check_reset_token', { token: 'x'.repeat(500) }, /token/],
  ['/public_api/verify', { h: 'abc' }, /hash/],
  ['/public_api/verify', { hash: null }, /hash/],
];

describe('bad input gets a clear 4xx and changes nothing', () => {
  it.each(publicBad)('POST %s %j', async (path, body, message) => {
    const before = await snapshot(s.deps.db);
    const res = await call('POST', path, body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toMatch(message);
    expect(await snapshot(s.deps.db)).toBe(before);
  });

  it.each([
    ['/api/update_tfa', { enable: 'yes', code: '123456' }, /enable/],
    ['/api/update_tfa', { enable: true, code: '12345' }, /code/],
    ['/api/update_tfa', { enable: true }, /code/],
    ['/api/change_password', { current_password: 'x', new_password: '123' }, /new_password/],
    ['/api/change_password', { current_password: 'x', new_password: 'y'.repeat(200) }, /new_password/],
    ['/api/visited', { fullPath: 'x'.repeat(3000) }, /fullPath/],
    ['/api/visited', { path: '/x' }, /fullPath|unknown field/],
    ['/api/logout', { everything: true }, /unknown field/],
    ['/api/resend_verification_email', { to: 'someone@else.io' }, /unknown field/],
  ])('POST %s %j (logged in)', async (path, body, message) => {
    const before = await snapshot(s.deps.db);
    const res = await call('POST', path, body, { token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: expect.stringMatching(message) });
    expect(await snapshot(s.deps.db)).toBe(before);
  });

  it('malformed JSON on every POST endpoint', async () => {
    const before = await snapshot(s.deps.db);
    for (const path of [
      '/public_api/login',
      '/public_api/register',
      '/public_api/recover',
      '/public_api/reset',
      '/public_api/check_reset_token',
      '/public_api/verify',
      '/api/update_tfa',
      '/api/change_password',
      '/api/visited',
    ]) {
      const res = await call('POST', path, undefined, { raw: '{"username": "a",', token });
      expect(res, path).toEqual({ status: 400, body: { success: false, message: 'Malformed JSON body.' } });
    }
    expect(await snapshot(s.deps.db)).toBe(before);
  });

  it('an oversized body is refused before it is read', async () => {
    const res = await call('POST', '/public_api/register', undefined, {
      raw: JSON.stringify({ username: 'abc', email: 'x@y.io', password: 'p'.repeat(100_000) }),
    });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it('a wrong or replayed TOTP code changes nothing but the failure counter', async () => {
    const code = totpCode(secret);
    expect((await call('POST', '/api/update_tfa', { enable: true, code }, { token })).status).toBe(200);
    const before = await s.deps.db
      .selectFrom('users')
      .select(['tfa_enabled', 'tfa_secret', 'tfa_last_step'])
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    const replay = await call('POST', '/api/update_tfa', { enable: false, code }, { token });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toMatch(/already used/);
    const replayLogin = await call('POST', '/public_api/login', {
      username: user.username,
      password: user.password,
      tfa: code,
    });
    expect(replayLogin.status).toBe(400);
    expect(replayLogin.body.auth_token).toBeUndefined();
    const after = await s.deps.db
      .selectFrom('users')
      .select(['tfa_enabled', 'tfa_secret', 'tfa_last_step'])
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});

describe('errors', () => {
  it('a server fault answers 500 with a generic message; details go only to the log', async () => {
    // Break the database under the running server: the procedure fails unexpectedly.
    const { sql } = await import('kysely');
    await sql`alter table page_visits rename to page_visits_gone`.execute(s.deps.db);
    try {
      const res = await call('POST', '/api/visited', { fullPath: '/x' }, { token });
      expect(res).toEqual({
        status: 500,
        body: { success: false, message: 'Something went wrong on our side. Please try again in a little while.' },
      });
      expect(s.logLines.some((l) => l.includes('no such table: page_visits'))).toBe(true);
    } finally {
      await sql`alter table page_visits_gone rename to page_visits`.execute(s.deps.db);
    }
  });
});

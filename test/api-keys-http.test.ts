import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byStatus, loopback, type Answer } from './support/from-ip';
import { insertTestNode } from './support/nodes';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser } from './support/users';

/**
 * The API key calls and keys in use, over real HTTP from distinct loopback addresses
 * (127.x.y.z, and ::1 on a server listening on IPv6 loopback).
 */
type Req = {
  from: string;
  method?: string;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
};

function call(s: TestServer, r: Req): Promise<Answer> {
  const u = new URL(s.url);
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string> = { connection: 'close', ...r.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port,
        path: r.path,
        method: r.method ?? (payload ? 'POST' : 'GET'),
        headers,
        localAddress: r.from,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const HOME = '127.0.0.1';

async function createKey(
  s: TestServer,
  session: string,
  body: Record<string, unknown>,
): Promise<{ key: string; auth_key: string }> {
  const r = await call(s, { from: HOME, path: '/api/create_api_key', token: session, body });
  expect(r).toMatchObject({ status: 200, body: { success: true } });
  return r.body;
}

const countKeys = async (s: TestServer, userId: number) =>
  Number(
    (
      await s.deps.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const countCreatedNotices = async (s: TestServer, userId: number) =>
  Number(
    (
      await s.deps.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('kind', '=', 'api_key_created')
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('API keys over HTTP (TRUST_PROXY off)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => stopTestServer(s));

  it('create shows the whole key once; the list holds only its prefix, with the last use and address', async () => {
    const u = await freshUser(s.deps);
    const created = await createKey(s, u.token, { name: 'my cron', allowed: '127.0.0.7' });
    expect(created.key).toMatch(/^nk_[\w-]{8}_[\w-]{43}$/);
    expect(created.auth_key).toBe(created.key.slice(0, 11));
    const list = await call(s, { from: HOME, path: '/api/get_api_keys', token: u.token });
    expect(list.body.keys).toEqual([
      {
        name: 'my cron',
        auth_key: created.auth_key,
        allowed: '127.0.0.7',
        read_only: false,
        created_at: expect.any(Number),
        last_used_at: null,
        last_used_ip: null,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.key.slice(12));
    expect((await call(s, { from: '127.0.0.7', path: '/api/get_masternodes', token: created.key })).status).toBe(200);
    const after = await call(s, { from: HOME, path: '/api/get_api_keys', token: u.token });
    expect(after.body.keys[0]).toMatchObject({ last_used_ip: '127.0.0.7', last_used_at: expect.any(Number) });
  });

  it('an IPv4 allow list: the listed address passes, another is 403 naming the address', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey(s, u.token, { name: 'v4', allowed: '127.0.1.7, 127.0.1.9' });
    expect((await call(s, { from: '127.0.1.9', path: '/api/get_masternodes', token: key })).status).toBe(200);
    const refused = await call(s, { from: '127.0.1.8', path: '/api/get_masternodes', token: key });
    expect(refused).toEqual({
      status: 403,
      body: { success: false, message: 'This API key may not be used from your address (127.0.1.8).' },
    });
  });

  it('a CIDR range: inside passes, outside is refused', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey(s, u.token, { name: 'range', allowed: '127.0.5.0/24' });
    expect((await call(s, { from: '127.0.5.200', path: '/api/get_notifications', token: key })).status).toBe(200);
    expect((await call(s, { from: '127.0.5.1', path: '/api/get_notifications', token: key })).status).toBe(200);
    expect((await call(s, { from: '127.0.6.1', path: '/api/get_notifications', token: key })).status).toBe(403);
  });

  it('X-Forwarded-For is ignored without TRUST_PROXY: a client cannot claim an allowed address', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey(s, u.token, { name: 'xff', allowed: '10.20.30.40' });
    const r = await call(s, {
      from: '127.0.7.1',
      path: '/api/get_masternodes',
      token: key,
      headers: { 'x-forwarded-for': '10.20.30.40' },
    });
    expect(r).toEqual({
      status: 403,
      body: { success: false, message: 'This API key may not be used from your address (127.0.7.1).' },
    });
  });

  it('a read-only key reads, and every POST is 403 with nothing changed', async () => {
    const u = await freshUser(s.deps);
    await insertTestNode(s.deps.db, { mn_id: `ro-${u.id}`, user_id: u.id, coin_id: 'dash', status: 'running' });
    const { key } = await createKey(s, u.token, { name: 'reader', read_only: true });
    const read = await call(s, { from: '127.0.8.1', path: '/api/get_masternodes', token: key });
    expect(read.status).toBe(200);
    expect(read.body.masternodes.map((m: { mn_id: string }) => m.mn_id)).toEqual([`ro-${u.id}`]);
    const write = await call(s, {
      from: '127.0.8.1',
      path: '/api/update_alias',
      token: key,
      body: { mn: `ro-${u.id}`, alias: 'changed' },
    });
    expect(write).toEqual({ status: 403, body: { success: false, message: expect.stringMatching(/read-only/) } });
    const node = await s.deps.db
      .selectFrom('nodes')
      .select('alias')
      .where('mn_id', '=', `ro-${u.id}`)
      .executeTakeFirstOrThrow();
    expect(node.alias ?? null).toBeNull();
    expect((await call(s, { from: '127.0.8.1', path: '/api/clear_notifications', token: key, body: {} })).status).toBe(
      403,
    );
    // The same write with a writable key passes (the refusal is the flag's, not the route's).
    const { key: writer } = await createKey(s, u.token, { name: 'writer' });
    expect(
      (
        await call(s, {
          from: '127.0.8.1',
          path: '/api/update_alias',
          token: writer,
          body: { mn: `ro-${u.id}`, alias: 'changed' },
        })
      ).status,
    ).toBe(200);
  });

  it('a deleted key is refused from the very next call', async () => {
    const u = await freshUser(s.deps);
    const { key, auth_key } = await createKey(s, u.token, { name: 'short lived' });
    expect((await call(s, { from: '127.0.9.1', path: '/api/get_masternodes', token: key })).status).toBe(200);
    const del = await call(s, { from: HOME, path: '/api/delete_api_key', token: u.token, body: { auth_key } });
    expect(del).toEqual({ status: 200, body: { success: true, message: 'API key deleted.' } });
    expect((await call(s, { from: '127.0.9.1', path: '/api/get_masternodes', token: key })).status).toBe(401);
  });

  it("one user's key never sees or touches another user's nodes or keys", async () => {
    const a = await freshUser(s.deps);
    const b = await freshUser(s.deps);
    const mn = `owned-by-a-${a.id}`;
    await insertTestNode(s.deps.db, { mn_id: mn, user_id: a.id, coin_id: 'dash', status: 'running' });
    const aKey = await createKey(s, a.token, { name: 'a key' });
    const { key: bKey } = await createKey(s, b.token, { name: 'b key' });
    const from = '127.0.10.1';
    expect((await call(s, { from, path: '/api/get_masternodes', token: bKey })).body.masternodes).toEqual([]);
    expect((await call(s, { from, path: `/api/get_masternode?masternode=${mn}`, token: bKey })).status).toBe(404);
    expect(
      (await call(s, { from, path: '/api/update_alias', token: bKey, body: { mn, alias: 'stolen' } })).status,
    ).toBe(404);
    expect(
      (await call(s, { from, path: '/api/delete_masternode', token: bKey, body: { mn, reason: 'Other' } })).status,
    ).toBe(404);
    const node = await s.deps.db
      .selectFrom('nodes')
      .select(['alias', 'state'])
      .where('mn_id', '=', mn)
      .executeTakeFirstOrThrow();
    expect(node).toMatchObject({ alias: null, state: 'live' });
    // B's session cannot rename or delete A's key by its listed prefix.
    expect(
      (
        await call(s, {
          from: HOME,
          path: '/api/save_api_key',
          token: b.token,
          body: { auth_key: aKey.auth_key, name: 'mine now', allowed: '' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(s, { from: HOME, path: '/api/delete_api_key', token: b.token, body: { auth_key: aKey.auth_key } }))
        .status,
    ).toBe(404);
    expect((await call(s, { from: HOME, path: '/api/get_api_keys', token: a.token })).body.keys).toMatchObject([
      { name: 'a key', auth_key: aKey.auth_key },
    ]);
    expect((await call(s, { from: HOME, path: '/api/get_api_keys', token: b.token })).body.keys).toMatchObject([
      { name: 'b key' },
    ]);
  });

  it('a key cannot list, create, change or delete keys (it could otherwise widen itself)', async () => {
    const u = await freshUser(s.deps);
    const { key, auth_key } = await createKey(s, u.token, { name: 'narrow', allowed: '127.0.11.1', read_only: true });
    const from = '127.0.11.1';
    for (const r of [
      { path: '/api/get_api_keys' },
      { path: '/api/create_api_key', body: { name: 'wide', allowed: '' } },
      { path: '/api/save_api_key', body: { auth_key, name: 'narrow', allowed: '', read_only: false } },
      { path: '/api/delete_api_key', body: { auth_key } },
    ]) {
      expect(await call(s, { from, token: key, ...r })).toEqual({
        status: 403,
        body: { success: false, message: expect.stringMatching(/API keys cannot/) },
      });
    }
    const rows = await s.deps.db
      .selectFrom('api_keys')
      .select(['name', 'allowed', 'read_only'])
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([{ name: 'narrow', allowed: '127.0.11.1', read_only: 1 }]);
  });

  it('every bad input is refused with a message naming the problem, and nothing is written', async () => {
    const u = await freshUser(s.deps);
    const keep = await createKey(s, u.token, { name: 'keep', allowed: '127.0.12.1' });
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['/api/create_api_key', { allowed: '' }, /name: Please enter a description/],
      ['/api/create_api_key', { name: '   ', allowed: '' }, /name: Please enter a description/],
      ['/api/create_api_key', { name: 'x'.repeat(49) }, /name: The description can be at most 48 characters/],
      // Quoted in the always-mailed "New API key" notice: a name must not rewrite it.
      ...[
        'x" was revoked.\n\nNo action is needed. Key "x',
        'a\tb',
        'a\rb',
        'a\u0000b',
        '\u202eevil',
        'zero\u200bwidth',
        'a\u2028b',
      ].map((name): [string, Record<string, unknown>, RegExp] => [
        '/api/create_api_key',
        { name },
        /name: The description cannot contain line breaks, tabs or invisible characters/,
      ]),
      [
        '/api/create_api_key',
        { name: 'ok', allowed: '10.0.0.256' },
        /allowed: "10\.0\.0\.256" is not an IP address or CIDR range/,
      ],
      ['/api/create_api_key', { name: 'ok', allowed: '10.0.0.1, banana' }, /allowed: "banana" is not an IP address/],
      [
        '/api/create_api_key',
        { name: 'ok', allowed: '10.0.0.0/33' },
        /allowed: "10\.0\.0\.0\/33": the range size after \/ must be 0-32/,
      ],
      ['/api/create_api_key', { name: 'ok', allowed: '::1/129' }, /must be 0-128/],
      ['/api/create_api_key', { name: 'ok', allowed: '1.2.3.4.5' }, /"1\.2\.3\.4\.5" is not an IP address/],
      ['/api/create_api_key', { name: 'ok', allowed: 'fe80::1%eth0' }, /"fe80::1%eth0" is not an IP address/],
      ['/api/create_api_key', { name: 'ok', allowed: '1:2:3:4:5:6:7:8:9' }, /is not an IP address/],
      [
        '/api/create_api_key',
        { name: 'ok', allowed: Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`).join(',') },
        /at most 50 addresses/,
      ],
      ['/api/create_api_key', { name: 'ok', allowed: 5 }, /allowed: must be a comma-separated list/],
      ['/api/create_api_key', { name: 'ok', read_only: 'yes' }, /read_only: must be true or false/],
      ['/api/create_api_key', { name: 'ok', admin: true }, /unknown field: admin/],
      [
        '/api/save_api_key',
        { auth_key: keep.auth_key, name: 'keep', allowed: '127.0.12.1, 300.1.1.1' },
        /"300\.1\.1\.1" is not an IP address/,
      ],
      ['/api/save_api_key', { auth_key: keep.auth_key, name: '', allowed: '' }, /Please enter a description/],
      ['/api/save_api_key', { auth_key: keep.auth_key, name: 'ke\nep', allowed: '' }, /cannot contain line breaks/],
      ['/api/save_api_key', { name: 'keep', allowed: '' }, /auth_key/],
      ['/api/save_api_key', { auth_key: 'nk_zzzzzzzz', name: 'keep', allowed: '' }, /API key not found/],
      ['/api/delete_api_key', { auth_key: 'not-a-key' }, /auth_key must be a key or its prefix/],
      ['/api/delete_api_key', { auth_key: 'nk_zzzzzzzz' }, /API key not found/],
      ['/api/delete_api_key', {}, /auth_key/],
    ];
    for (const [path, body, message] of bad) {
      const r = await call(s, { from: HOME, path, token: u.token, body });
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body).toMatchObject({ success: false, message: expect.stringMatching(message) });
    }
    const rows = await s.deps.db
      .selectFrom('api_keys')
      .select(['name', 'allowed', 'read_only'])
      .where('user_id', '=', u.id)
      .execute();
    expect(rows).toEqual([{ name: 'keep', allowed: '127.0.12.1', read_only: 0 }]);
    expect(await countCreatedNotices(s, u.id)).toBe(1);
  });

  it('save changes the name, the list (kept canonical) and the read-only flag; the new list applies at once', async () => {
    const u = await freshUser(s.deps);
    const { key, auth_key } = await createKey(s, u.token, { name: 'old', allowed: '127.0.13.1' });
    expect((await call(s, { from: '127.0.13.2', path: '/api/get_notifications', token: key })).status).toBe(403);
    const saved = await call(s, {
      from: HOME,
      path: '/api/save_api_key',
      token: u.token,
      body: { auth_key, name: 'new', allowed: ' 127.0.13.0/30 , 2001:DB8::1,127.0.13.0/30', read_only: true },
    });
    expect(saved).toEqual({ status: 200, body: { success: true, message: 'API key saved.' } });
    expect((await call(s, { from: HOME, path: '/api/get_api_keys', token: u.token })).body.keys).toMatchObject([
      { name: 'new', allowed: '127.0.13.0/30,2001:db8::1', read_only: true },
    ]);
    expect((await call(s, { from: '127.0.13.2', path: '/api/get_notifications', token: key })).status).toBe(200);
    // The whole key names it too.
    expect(
      (await call(s, { from: HOME, path: '/api/delete_api_key', token: u.token, body: { auth_key: key } })).status,
    ).toBe(200);
  });

  it('use of one key is rate limited (300 a minute), whatever address it comes from', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey(s, u.token, { name: 'busy' });
    const answers: Answer[] = [];
    for (let batch = 0; batch < 7; batch++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 45 }, (_, i) =>
            call(s, { from: loopback(batch * 45 + i, 20_000), path: '/api/get_notifications', token: key }),
          ),
        )),
      );
    }
    expect(byStatus(answers)).toEqual({ 200: 300, 429: 15 });
    expect(answers.find((a) => a.status === 429)!.body.message).toMatch(/too many calls/);
    // Another key of the same user is not held up.
    const { key: other } = await createKey(s, u.token, { name: 'quiet' });
    expect((await call(s, { from: HOME, path: '/api/get_notifications', token: other })).status).toBe(200);
  });

  it('100 creates at once from 100 addresses keep the cap of 25 keys; 100 deletes at once delete each key once', async () => {
    const u = await freshUser(s.deps);
    const creates = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(s, { from: loopback(i, 30_000), path: '/api/create_api_key', token: u.token, body: { name: `k${i}` } }),
      ),
    );
    expect(byStatus(creates)).toEqual({ 200: 25, 409: 75 });
    expect(creates.find((a) => a.status === 409)!.body.message).toMatch(/at most 25 API keys/);
    expect(await countKeys(s, u.id)).toBe(25);
    expect(await countCreatedNotices(s, u.id)).toBe(25);
    const prefixes = creates.filter((a) => a.status === 200).map((a) => a.body.auth_key as string);
    const deletes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        call(s, {
          from: loopback(i, 31_000),
          path: '/api/delete_api_key',
          token: u.token,
          body: { auth_key: prefixes[i % 25] },
        }),
      ),
    );
    expect(byStatus(deletes)).toEqual({ 200: 25, 404: 75 });
    expect(await countKeys(s, u.id)).toBe(0);
  });
});

describe('API keys behind a trusted proxy (TRUST_PROXY=true)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterAll(() => stopTestServer(s));

  it('the address the proxy appended is the client: allowed passes, the proxy itself is refused', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey(s, u.token, { name: 'behind proxy', allowed: '203.0.113.0/24' });
    const ok = await call(s, {
      from: '127.0.20.1',
      path: '/api/get_masternodes',
      token: key,
      headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' },
    });
    expect(ok.status).toBe(200);
    // The client-written leftmost entry proves nothing.
    const spoof = await call(s, {
      from: '127.0.20.1',
      path: '/api/get_masternodes',
      token: key,
      headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' },
    });
    expect(spoof).toEqual({
      status: 403,
      body: { success: false, message: 'This API key may not be used from your address (198.51.100.1).' },
    });
    const { key: local } = await createKey(s, u.token, { name: 'proxy address', allowed: '127.0.20.1' });
    expect(
      (
        await call(s, {
          from: '127.0.20.1',
          path: '/api/get_masternodes',
          token: local,
          headers: { 'x-forwarded-for': '203.0.113.9' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('API keys over IPv6 loopback', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ HOST: '::1' });
  });
  afterAll(() => stopTestServer(s));

  it('a key limited to ::1 works from ::1; one limited to 2001:db8::/32 is refused there', async () => {
    const u = await freshUser(s.deps);
    const { key } = await createKey6(s, u.token, { name: 'v6', allowed: '::1' });
    expect((await call(s, { from: '::1', path: '/api/get_masternodes', token: key })).status).toBe(200);
    const { key: other } = await createKey6(s, u.token, { name: 'v6 range', allowed: '2001:db8::/32, 127.0.0.1' });
    expect(await call(s, { from: '::1', path: '/api/get_masternodes', token: other })).toEqual({
      status: 403,
      body: { success: false, message: 'This API key may not be used from your address (::1).' },
    });
  });
});

async function createKey6(s: TestServer, session: string, body: Record<string, unknown>) {
  const r = await call(s, { from: '::1', path: '/api/create_api_key', token: session, body });
  expect(r).toMatchObject({ status: 200, body: { success: true } });
  return r.body as { key: string; auth_key: string };
}

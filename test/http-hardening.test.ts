import fs from 'node:fs';
import path from 'node:path';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import { Hono } from 'hono';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/kernel/config';
import { clientIp } from '../src/server/rpc/context';
import { MAX_SOCKETS_PER_IP } from '../src/server/live/ws-limits';
import { sameSecret } from '../src/server/http/same-secret';
import type { AppRouter } from '../src/server/router';
import { batchLimit, MAX_BATCH_CALLS, MAX_BATCH_RESPONSE_BYTES } from '../src/server/http/trpc-http';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { insertTestNode } from './support/nodes';

const json = { 'content-type': 'application/json' };

describe('the platform over HTTP', () => {
  let s: TestServer;
  let token: string;
  let userId: number;
  beforeAll(async () => {
    s = await startTestServer({ OPERATOR_TOKEN: 'operator-token-0123456789' });
    const post = (p: string, body: unknown) =>
      fetch(s.url + p, { method: 'POST', headers: json, body: JSON.stringify(body) }).then((r) => r.json());
    await post('/public_api/register', { username: 'hardy', email: 'hardy@example.test', password: 'hardy-pass-1' });
    token = (await post('/public_api/login', { username: 'hardy', password: 'hardy-pass-1' })).auth_token;
    userId = (
      await s.deps.db.selectFrom('users').select('id').where('username', '=', 'hardy').executeTakeFirstOrThrow()
    ).id;
    // The demo market data is refreshed right after start (and clears the cache then).
    for (let i = 0; i < 100; i++) {
      const coins = await fetch(`${s.url}/public_api/get_coins?wait=${i}`).then((r) => r.json());
      if (typeof coins.data?.dash?.masternode_value.value === 'number') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => stopTestServer(s));

  describe('tRPC batches are capped (finding 1)', () => {
    it(`refuses a GET batch of 750 calls with a clear 400 before doing any work`, async () => {
      const paths = Array(750).fill('coins.get_coins').join(',');
      const res = await fetch(`${s.url}/trpc/${paths}?batch=1&input=${encodeURIComponent('{}')}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        success: false,
        message: expect.stringMatching(/at most 20 calls; this one holds 750/),
      });
    });

    it(`answers a batch of ${MAX_BATCH_CALLS} and refuses ${MAX_BATCH_CALLS + 1}, mutations included`, async () => {
      const ok = await fetch(`${s.url}/trpc/${Array(MAX_BATCH_CALLS).fill('coins.get_stats').join(',')}?batch=1`);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toHaveLength(MAX_BATCH_CALLS);
      expect(
        (
          await fetch(
            `${s.url}/trpc/${Array(MAX_BATCH_CALLS + 1)
              .fill('coins.get_stats')
              .join(',')}?batch=1`,
          )
        ).status,
      ).toBe(400);
      const body = JSON.stringify(
        Object.fromEntries(Array.from({ length: 30 }, (_, i) => [i, { email: `x${i}@example.test` }])),
      );
      const m = await fetch(`${s.url}/trpc/${Array(30).fill('auth.recover').join(',')}?batch=1`, {
        method: 'POST',
        headers: json,
        body,
      });
      expect(m.status).toBe(400);
      expect(
        await s.deps.db.selectFrom('mail_outbox').select('id').where('to_addr', 'like', 'x%@example.test').execute(),
      ).toEqual([]);
    });

    it('replaces a batch answer over the size cap with a 413', async () => {
      const app = new Hono();
      app.use('/trpc/*', batchLimit('/trpc'));
      app.get('/trpc/*', (c) => c.json([{ result: { data: 'x'.repeat(MAX_BATCH_RESPONSE_BYTES) } }]));
      const big = await app.request('/trpc/a,b?batch=1');
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ success: false, message: expect.stringMatching(/too large/) });
    });
  });

  describe('browser hardening headers (finding 5)', () => {
    it('the app page carries a strict CSP without inline script, no framing, nosniff and a referrer policy', async () => {
      const res = await fetch(`${s.url}/dashboard`);
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      // PUBLIC_URL is http here: no HSTS.
      expect(res.headers.get('strict-transport-security')).toBeNull();
    });

    it('the built client has no inline script the policy would block', () => {
      const html = fs.readFileSync(path.resolve('dist/client/index.html'), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).toMatch(/\bsrc="\/assets\//);
        expect(body.trim()).toBe('');
      }
      expect(html).not.toMatch(/\son[a-z]+=/i);
      expect(html).not.toMatch(/<style/i);
    });

    it('every private answer, tRPC and REST, success or failure, is no-store', async () => {
      const auth = { authorization: `Bearer ${token}` };
      const answers = await Promise.all([
        fetch(`${s.url}/api/get_common_info`, { headers: auth }),
        fetch(`${s.url}/api/get_common_info`),
        fetch(`${s.url}/trpc/auth.get_common_info`, { headers: auth }),
        fetch(`${s.url}/trpc/auth.get_common_info,nodes.get_masternodes?batch=1&input=%7B%7D`, { headers: auth }),
        fetch(`${s.url}/trpc/auth.visited`, {
          method: 'POST',
          headers: { ...auth, ...json },
          body: JSON.stringify({ fullPath: '/x' }),
        }),
        fetch(`${s.url}/public_api/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ username: 'hardy', password: 'hardy-pass-1' }),
        }),
        fetch(`${s.url}/metrics`, { headers: { authorization: 'Bearer operator-token-0123456789' } }),
      ]);
      for (const res of answers) {
        expect(res.headers.get('cache-control'), res.url).toBe('no-store');
        expect(res.headers.get('content-security-policy'), res.url).toBeTruthy();
      }
    });
  });

  describe('the public response cache (finding 7)', () => {
    it("is keyed on what the call reads: random parameters do not bypass it, and the browser's tRPC path shares it", async () => {
      // The entry lives 1 s: a try counts only when its reads all came well inside it (a loaded
      // machine may be slower than that), and each try starts after the last one's entry expired.
      let before, random, trpc, batch;
      for (let attempt = 0; ; attempt++) {
        await new Promise((r) => setTimeout(r, 1100));
        const t0 = Date.now();
        before = await fetch(`${s.url}/public_api/get_coins?x=${Math.random()}`).then((r) => r.json());
        // A change that does not clear the cache: visible only once the entry expires.
        await insertTestNode(s.deps.db, {
          mn_id: `cache-${Date.now()}-${attempt}`,
          user_id: userId,
          coin_id: 'dash',
          status: 'running',
        });
        [random, trpc, batch] = await Promise.all([
          fetch(`${s.url}/public_api/get_coins?x=${Math.random()}&y=1`).then((r) => r.json()),
          fetch(`${s.url}/trpc/coins.get_coins?input=${encodeURIComponent(JSON.stringify({ x: Math.random() }))}`).then(
            (r) => r.json(),
          ),
          fetch(`${s.url}/trpc/coins.get_coins,coins.get_stats?batch=1&input=${encodeURIComponent('{}')}`).then((r) =>
            r.json(),
          ),
        ]);
        if (Date.now() - t0 < 800 || attempt === 9) break;
      }
      expect(random).toEqual(before);
      expect(trpc).toEqual({ result: { data: before } });
      expect(batch[0]).toEqual({ result: { data: before } });
      expect(batch[1].result.data.success).toBe(true);
      // Once the entry expires, both paths show the change: waited for as the change itself.
      let after: any;
      await expect
        .poll(async () => {
          after = await fetch(`${s.url}/trpc/coins.get_coins`).then((r) => r.json());
          return after.result.data.data.dash.hosted_mns.value;
        })
        .toBe(before.data.dash.hosted_mns.value + 1);
      expect(await fetch(`${s.url}/public_api/get_coins`).then((r) => r.json())).toEqual(after.result.data);
    });

    it('keys a call with input on its parsed input: get_coin?coin=DASH and coin=dash share an entry', async () => {
      const a = await fetch(`${s.url}/public_api/get_coin?coin=dash`).then((r) => r.json());
      await insertTestNode(s.deps.db, {
        mn_id: `cache2-${Date.now()}`,
        user_id: userId,
        coin_id: 'dash',
        status: 'running',
      });
      const b = await fetch(
        `${s.url}/trpc/coins.get_coin?input=${encodeURIComponent(JSON.stringify({ coin: ' DASH ' }))}`,
      ).then((r) => r.json());
      expect(b.result.data).toEqual(a);
      // Bad input is not cached; it answers the error in each transport's shape.
      expect((await fetch(`${s.url}/public_api/get_coin?coin=da$h`)).status).toBe(400);
      const bad = await fetch(
        `${s.url}/trpc/coins.get_coin?input=${encodeURIComponent(JSON.stringify({ coin: 'da$h' }))}`,
      );
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.message).toMatch(/coin/);
    });
  });

  describe('public POSTs require JSON (finding 10)', () => {
    it('a cross-site form posting text/plain or urlencoded is refused with 415 and changes nothing', async () => {
      const body = JSON.stringify({ username: 'formed', email: 'formed@example.test', password: 'formed-pass-1' });
      for (const type of [
        'text/plain',
        'text/plain;charset=UTF-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        for (const p of ['/public_api/register', '/trpc/auth.register']) {
          const res = await fetch(s.url + p, { method: 'POST', headers: { 'content-type': type }, body });
          expect(res.status, `${type} ${p}`).toBe(415);
        }
      }
      const rest = await fetch(`${s.url}/public_api/register`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body,
      });
      expect(await rest.json()).toEqual({
        success: false,
        message: expect.stringMatching(/Content-Type: application\/json/),
      });
      expect(
        await s.deps.db.selectFrom('users').select('id').where('username', '=', 'formed').executeTakeFirst(),
      ).toBeUndefined();
      // The same body as JSON works.
      expect(
        (
          await fetch(`${s.url}/public_api/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json; charset=utf-8' },
            body,
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('/metrics token (finding 10)', () => {
    it('answers only the exact token; wrong tokens of any length are 401', async () => {
      const get = (t: string) =>
        fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
      expect(await get('operator-token-0123456789')).toBe(200);
      for (const t of [
        'x',
        'operator-token-012345678',
        'operator-token-01234567890',
        'operator-token-0123456788',
        'x'.repeat(500),
      ])
        expect(await get(t), t).toBe(401);
    });

    it('compares fixed-length digests, so tokens of other lengths neither throw nor short-cut', () => {
      expect(sameSecret('operator-token-0123456789', 'operator-token-0123456789')).toBe(true);
      expect(sameSecret('short', 'operator-token-0123456789')).toBe(false);
      expect(sameSecret('', 'operator-token-0123456789')).toBe(false);
      expect(sameSecret('é'.repeat(40), 'operator-token-0123456789')).toBe(false);
    });
  });
});

describe('HSTS only when PUBLIC_URL is https', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ PUBLIC_URL: 'https://nodekeep.example' });
  });
  afterAll(() => stopTestServer(s));

  it('sends Strict-Transport-Security', async () => {
    const res = await fetch(`${s.url}/`);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d{7,}/);
  });
});

describe('X-Forwarded-For behind trusted proxies (finding 8)', () => {
  async function loginIp(s: TestServer, forwardedFor: string): Promise<string> {
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(s.url + p, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) }).then((r) =>
        r.json(),
      );
    const name = `xff${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await post('/public_api/register', { username: name, email: `${name}@example.test`, password: 'xff-pass-12' });
    const res = await post(
      '/public_api/login',
      { username: name, password: 'xff-pass-12' },
      { 'x-forwarded-for': forwardedFor },
    );
    expect(res.success).toBe(true);
    const row = await s.deps.db.selectFrom('sessions').select('ip').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return row.ip;
  }

  it('TRUST_PROXY=true takes the address the one proxy appended, not the client-written leftmost', async () => {
    const s = await startTestServer({ TRUST_PROXY: 'true' });
    try {
      expect(await loginIp(s, '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
      expect(await loginIp(s, '198.51.100.9')).toBe('198.51.100.9');
    } finally {
      await stopTestServer(s);
    }
  });

  it('TRUST_PROXY=2 skips the inner proxy', async () => {
    const s = await startTestServer({ TRUST_PROXY: '2' });
    try {
      expect(await loginIp(s, '6.6.6.6, 203.0.113.7, 10.0.0.9')).toBe('203.0.113.7');
    } finally {
      await stopTestServer(s);
    }
  });

  it('without TRUST_PROXY the header is ignored', async () => {
    const s = await startTestServer();
    try {
      expect(await loginIp(s, '6.6.6.6')).toBe('127.0.0.1');
    } finally {
      await stopTestServer(s);
    }
  });

  it('clientIp: hop counting and short headers; one function serves HTTP and websockets', () => {
    expect(clientIp('10.0.0.1', '1.1.1.1, 2.2.2.2', 0)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', '1.1.1.1, 2.2.2.2', 1)).toBe('2.2.2.2');
    expect(clientIp('10.0.0.1', '1.1.1.1, 2.2.2.2', 2)).toBe('1.1.1.1');
    expect(clientIp('10.0.0.1', '2.2.2.2', 3)).toBe('2.2.2.2');
    expect(clientIp('::ffff:10.0.0.1', undefined, 1)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', ' , ', 1)).toBe('10.0.0.1');
  });

  it('TRUST_PROXY accepts true/false or a hop count, and names itself when wrong', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '3' }).trustProxy).toBe(3);
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: '11' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
  });
});

describe('websocket connections read the client address as HTTP does (one context builder)', () => {
  // The socket serves subscriptions only (a query there is refused before any work,
  // test/attack/live-socket.test.ts), so the address it reads shows in its per-address
  // cap, which uses the same clientIp as every context.
  it('under TRUST_PROXY=1 the upgrade counts the address the proxy added, not the client-written one', async () => {
    const s = await startTestServer({ TRUST_PROXY: '1' });
    const sockets: WebSocket[] = [];
    const open = (forwardedFor: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/live`, {
          headers: { 'x-forwarded-for': forwardedFor },
        });
        sockets.push(ws);
        ws.once('open', () => resolve(101));
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(-1));
      });
    try {
      // One client behind the proxy, writing a different address of its own each time.
      const first = await Promise.all(
        Array.from({ length: MAX_SOCKETS_PER_IP }, (_, i) => open(`10.0.${i}.1, 203.0.113.7`)),
      );
      expect(first.every((status) => status === 101)).toBe(true);
      expect(await open('10.9.9.9, 203.0.113.7')).toBe(429);
      // A client that writes 203.0.113.7 itself is another client (the proxy added 6.6.6.6).
      expect(await open('203.0.113.7, 6.6.6.6')).toBe(101);
    } finally {
      for (const ws of sockets) ws.terminate();
      await stopTestServer(s);
    }
  });

  it('a query over the websocket gets a clear error with its id, not an answer and not silence', async () => {
    const s = await startTestServer();
    const ws = createWSClient({
      url: `${s.url.replace(/^http/, 'ws')}/live`,
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: ws })] });
    try {
      await expect(client.coins.get_coins.query()).rejects.toThrow(/subscriptions only/);
    } finally {
      await ws.close();
      await stopTestServer(s);
    }
  });
});

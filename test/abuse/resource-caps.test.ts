import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordVisit } from '../../src/server/auth/queries';
import { MAX_SESSIONS_PER_USER } from '../../src/server/auth/sessions';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION, MAX_SUBSCRIPTIONS_PER_USER } from '../../src/server/events/live-limits';
import { MAX_SOCKETS_PER_IP } from '../../src/server/live/ws-limits';
import type { AppRouter } from '../../src/server/router';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Finding 6: what one signed-in account (or one address) can hold is bounded.
let s: TestServer;
const closers: (() => unknown)[] = [];
beforeAll(async () => (s = await startTestServer()));
afterAll(async () => {
  for (const c of closers) await c();
  await stopTestServer(s);
});

let nextIp = 5000;
const post = (path: string, body: unknown, token?: string) =>
  requestFrom(loopback(nextIp++), s.url + path, { body, token });

async function newSession(name: string): Promise<string> {
  await post('/public_api/register', { username: name, email: `${name}@example.test`, password: 'caps-pass-1' });
  const r = await post('/public_api/login', { username: name, password: 'caps-pass-1' });
  expect(r.status).toBe(200);
  return r.body.auth_token;
}

/** A tRPC websocket client whose socket starts from `ip`. */
function wsClientFrom(ip: string, token: string) {
  class FromIp extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress: ip });
    }
  }
  const ws = createWSClient({
    url: `${s.url.replace(/^http/, 'ws')}/live`,
    WebSocket: FromIp as unknown as typeof globalThis.WebSocket,
    connectionParams: () => ({ token }),
    retryDelayMs: () => 60_000,
  });
  closers.push(() => ws.close());
  const client = createTRPCClient<AppRouter>({ links: [wsLink({ client: ws })] });
  const outcome = { synced: 0, errors: [] as string[] };
  const subscribe = () =>
    client.events.live.subscribe(undefined, {
      onData: (e) => e.data.type === ('sync' as string) && (outcome.synced += 1),
      onError: (err) => outcome.errors.push(err.message),
    });
  return { subscribe, outcome };
}

describe('resource caps', () => {
  it('one socket holds at most a few subscriptions', async () => {
    const token = await newSession('caps_subs');
    const before = s.deps.hub.subscriberCount;
    const c = wsClientFrom(loopback(nextIp++), token);
    for (let i = 0; i < 50; i++) c.subscribe();
    await expect.poll(() => c.outcome.synced + c.outcome.errors.length, { timeout: 10_000 }).toBe(50);
    expect(c.outcome.synced).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
    expect(c.outcome.errors[0]).toMatch(/per connection/);
    expect(s.deps.hub.subscriberCount - before).toBe(MAX_SUBSCRIPTIONS_PER_CONNECTION);
  });

  it('one account holds at most a bounded number of live subscriptions, over any number of sockets', async () => {
    const token = await newSession('caps_user');
    const clients = Array.from({ length: MAX_SUBSCRIPTIONS_PER_USER + 5 }, () =>
      wsClientFrom(loopback(nextIp++), token),
    );
    for (const c of clients) c.subscribe();
    const synced = () => clients.reduce((n, c) => n + c.outcome.synced, 0);
    const refused = () => clients.flatMap((c) => c.outcome.errors);
    await expect.poll(() => synced() + refused().length, { timeout: 10_000 }).toBe(clients.length);
    expect(synced()).toBe(MAX_SUBSCRIPTIONS_PER_USER);
    expect(refused()[0]).toMatch(/per account/);
  });

  it('one address holds at most a bounded number of sockets, signed in or not', async () => {
    const ip = loopback(nextIp++);
    const sockets: WebSocket[] = [];
    const results = await Promise.all(
      Array.from({ length: MAX_SOCKETS_PER_IP + 10 }, () => {
        const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/live`, { localAddress: ip });
        sockets.push(ws);
        closers.push(() => ws.terminate());
        return new Promise<number>((resolve) => {
          ws.once('open', () => resolve(101));
          ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.once('error', () => resolve(-1));
        });
      }),
    );
    expect(byStatus(results.map((status) => ({ status, body: null })))).toEqual({ 101: MAX_SOCKETS_PER_IP, 429: 10 });
    // Another address is not affected.
    const other = new WebSocket(`${s.url.replace(/^http/, 'ws')}/live`, { localAddress: loopback(nextIp++) });
    closers.push(() => other.terminate());
    await new Promise((resolve, reject) => (other.once('open', resolve), other.once('error', reject)));
    // Closed sockets give their slots back.
    for (const ws of sockets) ws.terminate();
    await expect
      .poll(async () => {
        const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/live`, { localAddress: ip });
        closers.push(() => ws.terminate());
        return new Promise<boolean>(
          (resolve) => (ws.once('open', () => resolve(true)), ws.once('unexpected-response', () => resolve(false))),
        );
      })
      .toBe(true);
  });

  it('page visits are rate limited per user', async () => {
    const token = await newSession('caps_visits');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post('/api/visited', { fullPath: `/dashboard?i=${i}` }, token)),
    );
    expect(byStatus(answers)).toEqual({ 200: 60, 429: 40 });
    const user = await s.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'caps_visits')
      .executeTakeFirstOrThrow();
    const stored = await s.deps.db.selectFrom('page_visits').select('id').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(60);
  });

  it('stored visits are capped per user, keeping the newest', async () => {
    await newSession('caps_visits2');
    const user = await s.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'caps_visits2')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 8; i++) await recordVisit(s.deps.db, user.id, `/p${i}`, 5);
    const paths = await s.deps.db
      .selectFrom('page_visits')
      .select('path')
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(paths.map((p) => p.path)).toEqual(['/p3', '/p4', '/p5', '/p6', '/p7']);
  });

  it('an account keeps at most its newest sessions; the oldest are signed out', async () => {
    const first = await newSession('caps_sessions');
    const tokens = [first];
    for (let i = 1; i < MAX_SESSIONS_PER_USER + 5; i++)
      tokens.push(
        (await post('/public_api/login', { username: 'caps_sessions', password: 'caps-pass-1' })).body.auth_token,
      );
    const user = await s.deps.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'caps_sessions')
      .executeTakeFirstOrThrow();
    const live = await s.deps.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toHaveLength(MAX_SESSIONS_PER_USER);
    const status = async (t: string) =>
      (await requestFrom(loopback(nextIp++), `${s.url}/api/get_common_info`, { token: t })).status;
    expect(await status(tokens[0])).toBe(401);
    expect(await status(tokens[4])).toBe(401);
    expect(await status(tokens[5])).toBe(200);
    expect(await status(tokens.at(-1)!)).toBe(200);
  });
});

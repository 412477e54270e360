import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_BUDGET } from '../../src/server/live/ws-limits';
import { loopback, requestFrom } from '../support/from-ip';
import { scaled } from '../support/machine-speed';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Review finding: sockets that never subscribe were kept open by keep-alive pings and
// filled the per-address and total socket caps. Attack finding after it: any frame naming
// "subscription" stopped the idle close, a guest's refused one too, so 510 addresses × 20
// guest sockets held all 10,000 slots and a signed-in customer got 429. Only a
// subscription the server accepted keeps a socket open now, and only while it lasts.

// The server's idle budget, shortened for this file (the server reads it per socket; the
// file's worker shares its modules with the next file, so it is put back after).
const idleMs = LIVE_BUDGET.idleMs;
let s: TestServer;
let ip = 7000;
beforeAll(async () => {
  LIVE_BUDGET.idleMs = scaled(1_000);
  s = await startTestServer();
});
afterAll(async () => {
  LIVE_BUDGET.idleMs = idleMs;
  await stopTestServer(s);
});

type Frame = { id?: number; result?: { type: string }; error?: { data?: { code?: string } } };

/** A raw live socket from its own address that sends its parameters, then `subscribe` asks for events. */
async function liveSocket(token?: string) {
  const ws = new WebSocket(`${s.url.replace(/^http/, 'ws')}/live?connectionParams=1`, { localAddress: loopback(ip++) });
  const frames: Frame[] = [];
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  const waiters: (() => void)[] = [];
  ws.on('message', (d: Buffer) => {
    const text = d.toString();
    if (text === 'PING' || text === 'PONG') return;
    frames.push(...[JSON.parse(text) as Frame].flat());
    for (const w of waiters.splice(0)) w();
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ method: 'connectionParams', data: token ? { token } : {} }));
  /** Resolves at the first frame `match` accepts. */
  const frame = (match: (f: Frame) => boolean) =>
    new Promise<Frame>((resolve) => {
      const look = () => {
        const f = frames.find(match);
        if (f) resolve(f);
        else waiters.push(look);
      };
      look();
    });
  return {
    ws,
    closed,
    frame,
    subscribe: (id = 1) =>
      ws.send(JSON.stringify({ id, method: 'subscription', params: { path: 'events.live', input: {} } })),
  };
}

async function signedIn(name: string): Promise<string> {
  const reg = await requestFrom(loopback(ip++), `${s.url}/public_api/register`, {
    body: { username: name, email: `${name}@example.test`, password: 'idle-pass-1' },
  });
  expect(reg.status).toBe(200);
  const login = await requestFrom(loopback(ip++), `${s.url}/public_api/login`, {
    body: { username: name, password: 'idle-pass-1' },
  });
  expect(login.status).toBe(200);
  return login.body.auth_token;
}

it('closes a guest socket whose subscription was refused, as one that asked for nothing', async () => {
  const guest = await liveSocket();
  guest.subscribe();
  const refused = await guest.frame((f) => f.id === 1 && !!f.error);
  expect(refused.error?.data?.code).toBe('UNAUTHORIZED');
  expect(await guest.closed).toBe(4408);
});

it('keeps a socket open while its accepted subscription lasts, and closes it once that ends', async () => {
  const token = await signedIn(`idle${Date.now().toString(36)}`);
  const member = await liveSocket(token);
  member.subscribe();
  await member.frame((f) => f.id === 1 && f.result?.type === 'data'); // its first event, "sync"

  // A silent socket opened after it: its close is past the moment the member's idle
  // budget would have run out too.
  const silent = await liveSocket();
  expect(await silent.closed).toBe(4408);
  expect(member.ws.readyState).toBe(WebSocket.OPEN);

  // The session ends: the subscription ends with it, and the socket, now holding nothing,
  // is closed after its idle budget like any other.
  expect((await requestFrom(loopback(ip++), `${s.url}/api/logout`, { body: {}, token })).status).toBe(200);
  const ended = await member.frame((f) => f.id === 1 && !!f.error);
  expect(ended.error?.data?.code).toBe('UNAUTHORIZED');
  expect(await member.closed).toBe(4408);
});

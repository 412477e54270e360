import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { frameBudget, LIVE_BUDGET } from '../../src/server/live/ws-limits';

// Review finding: sockets that never subscribe were kept open by keep-alive pings and
// filled the per-address and total socket caps. The live socket's budget closes them.
const http = createServer();
const wss = new WebSocketServer({ server: http });
wss.on('connection', (ws) => frameBudget(ws, { ...LIVE_BUDGET, idleMs: 300 }));
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise((r) => wss.close(r));
  await new Promise((r) => http.close(r));
});

const open = (u: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(u);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });

it('closes a socket that asks for no subscription, and keeps one that does', async () => {
  const [silent, subscriber] = await Promise.all([open(url), open(url)]);
  subscriber.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'events.live', input: {} } }));
  const code = await new Promise<number>((r) => silent.once('close', (c) => r(c)));
  expect(code).toBe(4408);
  // Both sockets were opened together with the same idle budget: the silent one's
  // close is the moment the subscriber would have been closed too.
  expect(subscriber.readyState).toBe(WebSocket.OPEN);
  subscriber.close();
});

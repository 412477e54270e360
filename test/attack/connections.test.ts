import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_IP } from '../../src/server/http/conn-limit';
import { loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Idle connections that never finish their request line cost the server a file
// descriptor each for a minute: 20,000 of them from a handful of addresses used up the
// process's descriptors and every new client was refused. One address holds a bounded
// number; the rest are closed at once and other clients are served.
let s: TestServer;
const sockets: net.Socket[] = [];
beforeAll(async () => (s = await startTestServer()));
afterAll(async () => {
  for (const c of sockets) c.destroy();
  await stopTestServer(s);
});

it('closes connections past the cap of one address; other addresses are served meanwhile', async () => {
  const port = Number(new URL(s.url).port);
  const ip = loopback(1);
  const n = MAX_CONNECTIONS_PER_IP + 300;
  let closed = 0;
  await Promise.all(
    Array.from({ length: n }, () => {
      const c = net.connect({ host: '127.0.0.1', port, localAddress: ip });
      sockets.push(c);
      c.on('error', () => {});
      c.on('close', () => (closed += 1));
      return new Promise((resolve) =>
        c.once('connect', () => resolve(c.write('GET / HTTP/1.1\r\nHost: x\r\n'))).once('close', resolve),
      );
    }),
  );
  await expect.poll(() => closed).toBeGreaterThanOrEqual(300);
  // Exactly the excess: the connections within the cap are all still open.
  expect(closed).toBe(300);
  expect(sockets.filter((c) => !c.destroyed && !c.closed).length).toBe(MAX_CONNECTIONS_PER_IP);

  const other = await requestFrom(loopback(2), `${s.url}/healthz`);
  expect(other.status).toBe(200);
  // Once its idle connections go, the address is served again.
  for (const c of sockets.splice(0)) c.destroy();
  await expect.poll(async () => (await requestFrom(ip, `${s.url}/healthz`)).status).toBe(200);
});

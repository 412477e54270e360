import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/server/http/conn-limit';
import { fundedUser } from '../support/users';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';

// Attack: a validator upload (multipart, chunked, no length) trickled at a byte a second.
// Node's default gave it five minutes per connection; 256 such connections per address,
// from many addresses, hold the process's sockets and upload buffers. A request must now
// arrive whole within REQUEST_TIMEOUT_MS; the server answers 408 and closes.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

/** Sends `head`, then one chunk of `chunk` per second; resolves with what the server sent and when it closed. */
function trickle(head: string, chunk: string, giveUpMs: number) {
  const u = new URL(s.url);
  const sock = net.connect(Number(u.port), '127.0.0.1');
  const t0 = performance.now();
  sock.write(head);
  const timer = setInterval(() => sock.writable && sock.write(chunk), 1000);
  return new Promise<{ text: string; closedAfterMs: number | null }>((resolve) => {
    let text = '';
    const done = (closed: boolean) => {
      clearInterval(timer);
      sock.destroy();
      resolve({ text, closedAfterMs: closed ? performance.now() - t0 : null });
    };
    sock.on('data', (d) => (text += d));
    sock.on('close', () => done(true));
    sock.on('error', () => done(true));
    setTimeout(() => done(false), giveUpMs);
  });
}

it('a multipart upload trickled a byte a second is cut off with 408, not held for minutes', async () => {
  const u = await fundedUser(s.deps);
  const head = `POST /api/deploy_server HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${u.token}\r\nContent-Type: multipart/form-data; boundary=B\r\nTransfer-Encoding: chunked\r\n\r\n`;
  const r = await trickle(head, '1\r\na\r\n', REQUEST_TIMEOUT_MS + 15_000);
  expect(r.closedAfterMs, 'still open').not.toBeNull();
  expect(r.closedAfterMs!).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
  expect(r.text).toMatch(/^HTTP\/1\.1 408/);
  // The server still answers others.
  expect(
    (await fetch(`${s.url}/api/get_building_servers`, { headers: { authorization: `Bearer ${u.token}` } })).status,
  ).toBe(200);
}, 60_000);

/** Sends only the head and the first bytes of a 600 KB upload; resolves with the first answer the server sends. */
function partialUpload(token: string | null) {
  const u = new URL(s.url);
  const sock = net.connect(Number(u.port), '127.0.0.1');
  sock.write(
    `POST /api/deploy_server HTTP/1.1\r\nHost: x\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}Content-Type: multipart/form-data; boundary=B\r\nContent-Length: 600000\r\n\r\n--B\r\nContent-Disposition: form-data; name="currency"\r\n\r\neth\r\n`,
  );
  return new Promise<string>((resolve, reject) => {
    let text = '';
    sock.on('data', (d) => {
      text += d;
      if (text.includes('\r\n\r\n{') && text.endsWith('}')) (sock.destroy(), resolve(text));
    });
    sock.on('error', reject);
    sock.on('close', () => resolve(text));
  });
}

// Attack: the upload was read and parsed before the login was checked: two guest addresses
// sending 580 KB bodies of 9,000 parts pushed a customer's calls from 4 ms to 334 ms. A
// guest's upload is now answered before its body is read (it is never sent whole here).
it("answers a guest's upload 401 before reading its body", async () => {
  for (const token of [null, 'not-a-session-token']) {
    const answer = await partialUpload(token);
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('"success":false');
  }
});

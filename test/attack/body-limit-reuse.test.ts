import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { fundedUser, type FreshUser } from '../support/users';

// Attack: a body over the limit is answered 413 before it is all read. The connection it
// came on must not be offered for reuse: the client's next request on it (keep-alive, as
// fetch does) failed with "other side closed" instead of getting its answer.

let s: TestServer;
let u: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  u = await fundedUser(s.deps);
});
afterAll(() => stopTestServer(s));

const post = (body: string) =>
  fetch(`${s.url}/api/save_notification_settings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
    body,
  }).then(async (r) => ({
    status: r.status,
    connection: r.headers.get('connection'),
    body: (await r.json()) as any,
  }));

it('after a 413 the next requests on the same client all get their answers', async () => {
  for (let round = 0; round < 5; round++) {
    const big = await post(JSON.stringify({ settings: ['s'.repeat(1 << 20)] })).catch((err) => ({
      status: 0,
      connection: null,
      body: String(err),
    }));
    // Either the 413 arrives, or the client was still sending when the server answered.
    expect([0, 413]).toContain(big.status);
    for (let i = 0; i < 4; i++) {
      const r = await post(JSON.stringify({ settings: ['node_down'] }));
      expect(r.status).toBe(200);
    }
  }
});

it('after a multipart upload over its cap (413) the next requests on the same client all get their answers', async () => {
  for (let round = 0; round < 5; round++) {
    const f = new FormData();
    f.set('currency', 'eth');
    f.set('password', 'p');
    f.set('fee_recipient', '0x' + 'a'.repeat(40));
    for (let i = 0; i < 12; i++) f.append('keystores', new Blob(['x'.repeat(64 * 1024)]), `k${i}.json`);
    const big = await fetch(`${s.url}/api/deploy_server`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.token}` },
      body: f,
    })
      .then((r) => r.status)
      .catch(() => 0);
    expect([0, 413]).toContain(big);
    for (let i = 0; i < 4; i++) expect((await post(JSON.stringify({ settings: ['node_down'] }))).status).toBe(200);
  }
});

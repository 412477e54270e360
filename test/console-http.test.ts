import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { callerFor, freshUser } from './support/users';

// The console's calls over real HTTP: the same 404 whoever asks, unless an operator with 2FA.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

const get = (path: string, token?: string) =>
  fetch(`${s.url}/trpc/${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));

describe('console over HTTP', () => {
  it('answers 404 Not found to a guest, a customer and API keys, and 200 to an operator with 2FA', async () => {
    const customer = await freshUser(s.deps, { prefix: 'cust' });
    const operator = await freshUser(s.deps, { prefix: 'op', tfa: true });
    expect(await runCli(['users', 'promote', operator.username], { DATA_DIR: s.dataDir }, { out: () => {} })).toBe(0);
    const key = (await callerFor(s.deps)(operator.token).apikeys.create_api_key({ name: 'ops' })).key;
    for (const token of [undefined, customer.token, key]) {
      for (const path of ['console.access', 'console.overview', 'console.settings.get']) {
        const r = await get(path, token);
        expect(r.status, `${path} with ${token ?? 'no token'}`).toBe(404);
        expect(r.body.error.message).toBe('Not found.');
      }
    }
    // A mutation as a POST, from the operator's own key.
    const post = await fetch(`${s.url}/trpc/console.settings.set_maintenance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ on: true }),
    });
    expect(post.status).toBe(404);
    expect(
      await s.deps.db.selectFrom('settings').select('value').where('key', '=', 'maintenance').executeTakeFirst(),
    ).toBeUndefined();

    const ok = await get('console.access', operator.token);
    expect(ok.status).toBe(200);
    expect(ok.body.result.data).toEqual({ username: operator.username, maintenance: false, executable: false });
    // No REST route reaches the console.
    expect(
      (await fetch(`${s.url}/api/console/access`, { headers: { authorization: `Bearer ${operator.token}` } })).status,
    ).toBe(404);
  });
});

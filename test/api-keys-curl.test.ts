import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestFrom } from './support/from-ip';
import { insertTestNode } from './support/nodes';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser } from './support/users';

/**
 * Issue 9's "done when" for API keys, with the real `curl` a customer's script would run:
 * a key limited to 127.0.0.1 lists the user's nodes, is refused from 127.0.0.2 with the
 * clear message, and is refused from 127.0.0.1 too once deleted.
 */
const run = promisify(execFile);

/** `curl` from `from` (its --interface); the status and the parsed body. */
async function curl(url: string, key: string, from: string): Promise<{ status: number; body: any }> {
  const { stdout } = await run('curl', [
    '--silent',
    '--show-error',
    '--noproxy',
    '*',
    '--max-time',
    '10',
    '--interface',
    from,
    '-H',
    `Authorization: Bearer ${key}`,
    '-w',
    '\n%{http_code}',
    url,
  ]);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: JSON.parse(stdout.slice(0, cut)) };
}

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => stopTestServer(s));

describe('an API key used by curl', () => {
  it('limited to 127.0.0.1: lists the nodes from there, is refused from 127.0.0.2, and after deletion from 127.0.0.1 too', async () => {
    const u = await freshUser(s.deps, { prefix: 'curlkey' });
    const other = await freshUser(s.deps, { prefix: 'curlother' });
    await insertTestNode(s.deps.db, { mn_id: `curl-a-${u.id}`, user_id: u.id, coin_id: 'dash', status: 'running' });
    await insertTestNode(s.deps.db, { mn_id: `curl-b-${u.id}`, user_id: u.id, coin_id: 'dash', status: 'running' });
    await insertTestNode(s.deps.db, {
      mn_id: `curl-x-${other.id}`,
      user_id: other.id,
      coin_id: 'dash',
      status: 'running',
    });

    const created = await requestFrom('127.0.0.1', `${s.url}/api/create_api_key`, {
      token: u.token,
      body: { name: 'cron on this box', allowed: '127.0.0.1' },
    });
    expect(created).toMatchObject({ status: 200, body: { success: true } });
    const { key, auth_key } = created.body as { key: string; auth_key: string };

    const listed = await curl(`${s.url}/api/get_masternodes`, key, '127.0.0.1');
    expect(listed.status).toBe(200);
    expect(listed.body.masternodes.map((m: { mn_id: string }) => m.mn_id).sort()).toEqual([
      `curl-a-${u.id}`,
      `curl-b-${u.id}`,
    ]);

    const elsewhere = await curl(`${s.url}/api/get_masternodes`, key, '127.0.0.2');
    expect(elsewhere).toEqual({
      status: 403,
      body: { success: false, message: 'This API key may not be used from your address (127.0.0.2).' },
    });

    const deleted = await requestFrom('127.0.0.1', `${s.url}/api/delete_api_key`, {
      token: u.token,
      body: { auth_key },
    });
    expect(deleted).toEqual({ status: 200, body: { success: true, message: 'API key deleted.' } });
    const gone = await curl(`${s.url}/api/get_masternodes`, key, '127.0.0.1');
    expect(gone.status).toBe(401);
    expect(gone.body.success).toBe(false);
    expect(gone.body.message).toMatch(/\w/);
    expect(gone.body.masternodes).toBeUndefined();
  });
});

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUserInput } from './support/users';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

// The server keeps resolved sessions in memory (src/server/auth/session-cache.ts); the
// `users` command line is another process writing the same database file. A session
// it ends must be refused on the server's very next request, however hot its entry.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ LOG_LEVEL: 'warn' });
});
afterAll(() => stopTestServer(s));

/** The built command line in a process of its own, on the server's data folder. */
function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['dist/server/cli.js', ...args], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: s.dataDir },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

async function signedIn() {
  const input = newUserInput('scachehttp');
  const post = (path: string, body: unknown) =>
    fetch(s.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ auth_token?: string }>);
  await post('/public_api/register', input);
  const { auth_token } = await post('/public_api/login', { username: input.username, password: input.password });
  if (!auth_token) throw new Error('login gave no token');
  return { username: input.username, token: auth_token };
}

const commonInfo = (token: string) =>
  fetch(`${s.url}/api/get_common_info`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

const statuses = (token: string, n: number) => Promise.all(Array.from({ length: n }, () => commonInfo(token)));

describe('a session the command line ends', () => {
  it('is refused on the very next request after `users disable` in another process', async () => {
    const u = await signedIn();
    expect(await statuses(u.token, 2)).toEqual([200, 200]);
    const disabled = await cli(['users', 'disable', u.username]);
    expect(disabled.err).toBe('');
    expect(disabled.code).toBe(0);
    expect(await commonInfo(u.token)).toBe(401);
  });

  it('gets no 200 among 100 parallel requests once the disable has committed', async () => {
    const u = await signedIn();
    // 100 in flight make the entry hot while the disable runs in the other process.
    const during = statuses(u.token, 100);
    const disabled = await cli(['users', 'disable', u.username]);
    expect(disabled.code).toBe(0);
    await during;
    const after = await statuses(u.token, 100);
    expect(after.filter((c) => c === 200)).toEqual([]);
    // The call budget may answer part of this flood (429) before the session is looked at.
    expect(after.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    expect(after).toContain(401);
  });
});

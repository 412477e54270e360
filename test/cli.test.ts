import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from './support/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  for (const name of ['dora', 'eve']) {
    await fetch(`${s.url}/public_api/register`, { method: 'POST', body: JSON.stringify({ username: name, email: `${name}@example.test`, password: 'cli-pass-1' }) });
  }
});
afterAll(() => stopTestServer(s));

/** Runs the operator CLI against the running server's DATA_DIR, as an operator would. */
async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: s.dataDir }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
}

const login = (username: string) =>
  fetch(`${s.url}/public_api/login`, { method: 'POST', body: JSON.stringify({ username, password: 'cli-pass-1' }) }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('operator CLI on a running server', () => {
  it('switches maintenance on and off, and the server follows at once', async () => {
    const token = (await login('dora')).body.auth_token;
    expect(await cli('maintenance', 'on')).toEqual({ code: 0, out: 'maintenance is now on' });
    const tfa = await fetch(`${s.url}/api/get_tfa`, { headers: { authorization: `Bearer ${token}` } });
    expect(tfa.status).toBe(503);
    expect((await tfa.json()).message).toMatch(/tuning up/);
    expect(await fetch(`${s.url}/public_api/status`).then((r) => r.json())).toMatchObject({ success: true, maintenance: true });
    expect((await cli('maintenance')).out).toBe('maintenance is on');
    expect((await cli('maintenance', 'off')).code).toBe(0);
    expect((await fetch(`${s.url}/api/get_tfa`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const log = await s.deps.db.selectFrom('operator_log').selectAll().execute();
    expect(log.map((l) => l.action)).toEqual(['maintenance', 'maintenance']);
  });

  it('lists and shows users', async () => {
    const list = await cli('users', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/dora\tdora@example.test\tno\toff\tactive/);
    expect(list.out).toMatch(/eve\t/);
    const show = await cli('users', 'show', 'EVE@example.test');
    expect(show.out).toMatch(/username: +eve/);
    expect(show.out).toMatch(/not verified/);
  });

  it('disables a user: sessions end and login is refused', async () => {
    const token = (await login('eve')).body.auth_token;
    expect((await cli('users', 'disable', 'eve')).out).toBe('eve is disabled and signed out');
    expect((await fetch(`${s.url}/api/get_common_info`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    const again = await login('eve');
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/disabled/);
    expect((await cli('users', 'disable', 'eve')).out).toBe('eve is already disabled');
  });

  it('billing adjust is idempotent by key and never takes a balance below zero', async () => {
    expect((await cli('billing', 'adjust', 'dora', '+5', '--reason', 'goodwill', '--key', 'k-1')).out).toBe('dora: credited $5.00, balance $5.00');
    expect((await cli('billing', 'adjust', 'dora', '+5', '--reason', 'goodwill', '--key', 'k-1')).out).toMatch(/already applied.*balance \$5.00/);
    expect((await cli('billing', 'adjust', 'dora', '-7', '--reason', 'oops')).code).toBe(2);
    expect((await cli('billing', 'adjust', 'dora', '-0.063', '--reason', 'one day')).out).toBe('dora: debited $0.063, balance $4.937');
    const transfers = await s.deps.db.selectFrom('ledger_transfers').selectAll().execute();
    expect(transfers.map((t) => t.amount)).toEqual([5_000_000, 63_000]);
  });

  it('refuses bad command lines with usage and changes nothing', async () => {
    const before = await s.deps.db.selectFrom('operator_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect((await cli('maintenance', 'maybe')).code).toBe(2);
    expect((await cli('users', 'show')).code).toBe(2);
    expect((await cli('users', 'disable', 'nobody')).code).toBe(2);
    expect((await cli('billing', 'adjust', 'dora', 'ten', '--reason', 'x')).code).toBe(2);
    expect((await cli('billing', 'adjust', 'dora', '+1')).code).toBe(2);
    expect((await cli('billing', 'adjust', 'dora', '+1', '--reason', 'x', '--bogus', 'y')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    const after = await s.deps.db.selectFrom('operator_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

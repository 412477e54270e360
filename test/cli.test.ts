import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { startTestServer, stopTestServer, type TestServer } from './support/server';
import { freshUser, type FreshUser } from './support/users';

let s: TestServer;
let dora: FreshUser;
let eve: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  // Registered, not verified, not logged in: as a new sign-up looks to the operator.
  dora = await freshUser(s.deps, { prefix: 'dora', verified: false, login: false });
  eve = await freshUser(s.deps, { prefix: 'eve', verified: false, login: false });
});
afterAll(() => stopTestServer(s));

/** Runs the operator CLI against the running server's DATA_DIR, as an operator would. */
async function cli(...args: string[]) {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: s.dataDir }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
}

const login = (u: FreshUser) =>
  fetch(`${s.url}/public_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: u.username, password: u.password }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('operator CLI on a running server', () => {
  it('switches maintenance on and off, and the server follows at once', async () => {
    const token = (await login(dora)).body.auth_token;
    expect(await cli('maintenance', 'on')).toEqual({ code: 0, out: 'maintenance is now on' });
    const tfa = await fetch(`${s.url}/api/get_tfa`, { headers: { authorization: `Bearer ${token}` } });
    expect(tfa.status).toBe(503);
    expect((await tfa.json()).message).toMatch(/tuning up/);
    expect(await fetch(`${s.url}/public_api/status`).then((r) => r.json())).toMatchObject({
      success: true,
      maintenance: true,
    });
    expect((await cli('maintenance')).out).toBe('maintenance is on');
    expect((await cli('maintenance', 'off')).code).toBe(0);
    expect((await fetch(`${s.url}/api/get_tfa`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const log = await s.deps.db.selectFrom('operator_log').selectAll().execute();
    expect(log.map((l) => l.action)).toEqual(['maintenance', 'maintenance']);
  });

  it("prints a service's domain error as the operator's message, without tRPC", async () => {
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      expect((await cli('fleet', 'create', 'nosuchcoin', '--user', dora.username, '--plan', 'cloud')).code).toBe(1); // a refusal by the rules: its message, exit 1
    } finally {
      process.stderr.write = write;
    }
    expect(stderr.join('')).toMatch(/error: Unknown coin "nosuchcoin"\./);
  });

  it('lists and shows users', async () => {
    const list = await cli('users', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(new RegExp(`${escape(dora.username)}\t${escape(dora.email)}\tno\toff\tactive`));
    expect(list.out).toMatch(new RegExp(`${escape(eve.username)}\t`));
    const show = await cli('users', 'show', eve.email.toUpperCase());
    expect(show.out).toMatch(new RegExp(`username: +${escape(eve.username)}`));
    expect(show.out).toMatch(/not verified/);
  });

  it('disables a user: sessions end and login is refused', async () => {
    const token = (await login(eve)).body.auth_token;
    expect((await cli('users', 'disable', eve.username)).out).toBe(`${eve.username} is disabled and signed out`);
    expect(
      (await fetch(`${s.url}/api/get_common_info`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    const again = await login(eve);
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/disabled/);
    expect((await cli('users', 'disable', eve.username)).out).toBe(`${eve.username} is already disabled`);
  });

  it('billing adjust is idempotent by key and never takes a balance below zero', async () => {
    expect((await cli('billing', 'adjust', dora.username, '+5', '--reason', 'goodwill', '--key', 'k-1')).out).toBe(
      `${dora.username}: credited $5.00, balance $5.00`,
    );
    expect((await cli('billing', 'adjust', dora.username, '+5', '--reason', 'goodwill', '--key', 'k-1')).out).toMatch(
      /already applied.*balance \$5.00/,
    );
    // A refusal by the rules (not a mistake in the command line): its message, exit 1.
    expect((await cli('billing', 'adjust', dora.username, '-7', '--reason', 'oops')).code).toBe(1);
    expect((await cli('billing', 'adjust', dora.username, '-0.063', '--reason', 'one day')).out).toBe(
      `${dora.username}: debited $0.063, balance $4.937`,
    );
    const transfers = await s.deps.db.selectFrom('ledger_transfers').selectAll().execute();
    expect(transfers.map((t) => t.amount)).toEqual([5_000_000, 63_000]);
  });

  it('refuses bad command lines with usage and changes nothing', async () => {
    const before = await s.deps.db
      .selectFrom('operator_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect((await cli('maintenance', 'maybe')).code).toBe(2);
    expect((await cli('users', 'show')).code).toBe(2);
    expect((await cli('users', 'disable', 'nobody')).code).toBe(1);
    expect((await cli('billing', 'adjust', dora.username, 'ten', '--reason', 'x')).code).toBe(2);
    expect((await cli('billing', 'adjust', dora.username, '+1')).code).toBe(2);
    expect((await cli('billing', 'adjust', dora.username, '+1', '--reason', 'x', '--bogus', 'y')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
    const after = await s.deps.db
      .selectFrom('operator_log')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

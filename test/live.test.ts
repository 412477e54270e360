import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/server/cli/main';
import { openDatabase } from '../src/server/db/open';
import { insertEvent } from '../src/server/events/outbox';
import { liveClient } from './support/live';
import { startTestServer, stopTestServer, tempDataDir } from './support/server';
import { freshUser } from './support/users';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function server(opts: { dataDir?: string; port?: number } = {}) {
  const s = await startTestServer({}, opts);
  cleanup.push(() => stopTestServer(s));
  return s;
}

const quiet = { out: () => {} };

describe('live events over websockets', () => {
  it('deliver update_balance from the operator CLI to its owner only', async () => {
    const s = await server();
    const [aliceUser, bobUser] = [
      await freshUser(s.deps, { prefix: 'alice' }),
      await freshUser(s.deps, { prefix: 'bob' }),
    ];
    const alice = liveClient(s.url, aliceUser.token);
    const bob = liveClient(s.url, bobUser.token);
    cleanup.push(alice.close, bob.close);
    const own = (c: typeof alice) => c.types().filter((t) => t !== 'update_stats');
    await expect.poll(() => own(alice)).toEqual(['sync']);
    await expect.poll(() => own(bob)).toEqual(['sync']);

    // Another process writes the ledger; the server finds the event and pushes it.
    expect(
      await runCli(
        ['billing', 'adjust', aliceUser.username, '+12.50', '--reason', 'welcome credit'],
        { DATA_DIR: s.dataDir },
        quiet,
      ),
    ).toBe(0);
    await expect
      .poll(() => alice.received.find((e) => e.type === 'update_balance')?.payload)
      .toEqual({ balance: 12.5 });
    // Bob's own credit comes after alice's: events reach a client in order, so once it is
    // there, alice's would have been too had it leaked (no waiting for an absence).
    expect(
      await runCli(
        ['billing', 'adjust', bobUser.username, '+1', '--reason', 'welcome credit'],
        { DATA_DIR: s.dataDir },
        quiet,
      ),
    ).toBe(0);
    await expect.poll(() => bob.received.find((e) => e.type === 'update_balance')?.payload).toEqual({ balance: 1 });
    // Every balance change also refreshes the owner's transaction list.
    await expect.poll(() => own(bob)).toEqual(['sync', 'update_balance', 'refresh_transactions']);

    const relogin = await fetch(`${s.url}/public_api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: aliceUser.username, password: aliceUser.password }),
    }).then((r) => r.json());
    const info = await fetch(`${s.url}/api/get_common_info`, {
      headers: { authorization: `Bearer ${relogin.auth_token}` },
    }).then((r) => r.json());
    expect(info.info.balance).toBe(12.5);
  });

  it('refuse a connection without a valid token', async () => {
    const s = await server();
    const anon = liveClient(s.url, null);
    const fake = liveClient(s.url, 'not-a-token');
    cleanup.push(anon.close, fake.close);
    await expect.poll(() => anon.errors.length).toBeGreaterThan(0);
    await expect.poll(() => fake.errors.length).toBeGreaterThan(0);
    expect(String((anon.errors[0] as Error).message)).toMatch(/log in/);
    expect(anon.received).toEqual([]);
  });

  it('resume after a server restart and replay `restarted` plus what was missed', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({}, { dataDir });
    const port = first.port;
    const carolUser = await freshUser(first.deps, { prefix: 'carol' });
    const carol = liveClient(first.url, carolUser.token);
    cleanup.push(carol.close);
    await expect.poll(() => carol.types()).toEqual(['sync']);

    await first.close(); // keeps the data folder
    // While the server is down, the operator credits carol.
    expect(
      await runCli(
        ['billing', 'adjust', carolUser.username, '+1', '--reason', 'sorry for the downtime'],
        { DATA_DIR: dataDir },
        quiet,
      ),
    ).toBe(0);
    await server({ dataDir, port });

    // (update_stats broadcasts from the market refresh may come in between.)
    await expect
      .poll(() => carol.types().filter((t) => t !== 'update_stats'), { timeout: 10_000 })
      .toEqual(['sync', 'update_balance', 'refresh_transactions', 'restarted']);
    expect(carol.received.find((e) => e.type === 'update_balance')!.payload).toEqual({ balance: 1 });
    // Ids only grow, so the client resumes exactly after what it has.
    const ids = carol.received.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });
  it('replays every missed event after a long absence, past one page of the replay', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({}, { dataDir });
    const port = first.port;
    const dan = await freshUser(first.deps, { prefix: 'dan' });
    const client = liveClient(first.url, dan.token);
    cleanup.push(client.close);
    await expect.poll(() => client.types()).toEqual(['sync']);
    await first.close();
    // While the server is down, another process writes 1,200 of dan's events (pages are 500).
    const db = openDatabase(`${dataDir}/nodekeep.sqlite`);
    for (let i = 0; i < 1200; i++) await insertEvent(db, dan.id, 'refresh_masternode', { mn_id: `n${i}` });
    await db.destroy();
    await server({ dataDir, port });
    await expect
      .poll(() => client.types().filter((t) => t === 'refresh_masternode').length, { timeout: 20_000 })
      .toBe(1200);
    const ids = client.received.map((e) => Number(e.id));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

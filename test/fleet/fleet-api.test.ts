import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { liveClient } from '../support/live';
import { pidsMatching, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { insertTestNode } from '../support/nodes';
import { fastFleetEnv } from '../support/fast-fleet';

// Fast clocks for the test: checks every half second, simulated nodes sync in a second.
const dataDir = tempDataDir('nodekeep-fleet-');
const fleetEnv = fastFleetEnv(dataDir);
const TOKEN = 'operator-token-for-tests-123';
const env = { ...fleetEnv, OPERATOR_TOKEN: TOKEN };

let s: TestServer;
let port: number;
const users = {} as Record<'owner' | 'other', FreshUser>;
const clients: ReturnType<typeof liveClient>[] = [];

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const api = (p: string, user: 'owner' | 'other') =>
  fetch(s.url + p, { headers: { authorization: `Bearer ${users[user].token}` } }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));
const node = async (user: 'owner' | 'other', id: string) =>
  (await api(`/api/get_masternode?masternode=${id}`, user)).body.data;
const simAdmin = (p: string, body?: unknown) => {
  const simPort = fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
  return fetch(`http://127.0.0.1:${simPort}/admin${p}`, {
    method: 'POST',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
};

beforeAll(async () => {
  s = await startTestServer(env, { dataDir });
  port = s.port;
  for (const u of ['owner', 'other'] as const) users[u] = await freshUser(s.deps, { prefix: u });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

let dashId = '';

describe('the fleet in the running platform', () => {
  it('starts a requested node on the simulator, tells only its owner, and follows its status', async () => {
    const owner = liveClient(s.url, users.owner.token);
    const other = liveClient(s.url, users.other.token);
    clients.push(owner, other);
    await waitFor(async () => owner.types().includes('sync') && other.types().includes('sync'), 15_000, 'live clients');

    const created = await cli('fleet', 'create', 'dash', '--user', users.owner.username, '--plan', 'cloud');
    expect(created.code).toBe(0);
    dashId = /node (\S+) requested/.exec(created.out)![1];

    const serverCreated = await waitFor(
      async () => owner.received.find((e) => e.type === 'server_created'),
      10_000,
      'server_created',
    );
    expect(serverCreated.payload).toEqual({ server_id: dashId });
    const synced = await waitFor(
      async () => {
        const n = await node('owner', dashId);
        return n?.status === 'start required' && n;
      },
      15_000,
      'start required',
    );
    // A simulated node says so, and shows no address and no earnings as if it were real.
    expect(synced).toMatchObject({
      currency: 'dash',
      package: 'cloud',
      status_on_network: 'WAITING_FOR_PROTX',
      hosting_price: 0.045,
      simulated: true,
      server_ip: null,
      worth: '--',
      revenue: '--',
      roi: null,
    });
    expect(synced.wallet_info).toMatchObject({
      version: expect.stringMatching(/Simulator/),
      protocol_version: '70230',
      connections: expect.any(Number),
    });
    expect(synced.wallet_info.blocks).toBeGreaterThan(0);
    expect(owner.types()).toContain('refresh_masternode');
    // Nothing of it reaches the other user: once an event of their own, sent after all of
    // the owner's, has arrived, anything leaked would have arrived before it.
    expect((await cli('billing', 'adjust', users.other.username, '+1', '--reason', 'test')).code).toBe(0);
    await waitFor(async () => other.types().includes('refresh_transactions'), 10_000, "the other user's own events");
    expect(other.types().filter((t) => t !== 'update_stats' && t !== 'sync')).toEqual([
      'update_balance',
      'refresh_transactions',
    ]);
  });

  it('runs once registered on its network; being simulated, it shows no reward', async () => {
    await simAdmin(`/nodes/${dashId}/register`);
    const running = await waitFor(
      async () => {
        const n = await node('owner', dashId);
        return n?.status === 'running' && n.status_on_network === 'ENABLED' && n;
      },
      60_000,
      'running',
    );
    expect(running.active_time).toBeGreaterThanOrEqual(0);
    // The simulator pays its enabled nodes every block, but a simulated node earns nothing.
    expect(running.last_paid).toBeNull();
    expect(running.reward_freq).toBeNull();
    const owner = clients[0];
    await waitFor(async () => owner.received.find((e) => e.type === 'started'), 15_000, 'started');
    // Registered from the owner's wallet: the start is recorded once, its text turned active.
    const row = () =>
      s.deps.db
        .selectFrom('nodes')
        .select(['started_at', 'output_text'])
        .where('mn_id', '=', dashId)
        .executeTakeFirstOrThrow();
    expect((await row()).started_at).not.toBeNull();

    // A check that saw it down (as after a crash), then running again: started once all the same.
    const obsRow = await s.deps.db
      .selectFrom('node_view')
      .select('id')
      .where('mn_id', '=', dashId)
      .executeTakeFirstOrThrow();
    await s.deps.db.updateTable('observations').set({ status: 'down' }).where('node_id', '=', obsRow.id).execute();
    await waitFor(async () => (await node('owner', dashId))?.status === 'running', 30_000, 'running again');
    const started = await s.deps.db.selectFrom('events').select('payload').where('type', '=', 'started').execute();
    expect(started.filter((e) => String(e.payload).includes(dashId))).toHaveLength(1);
  }, 90_000);

  it("fills the coin page's wallet and latest block from the fleet's nodes, marked as simulated", async () => {
    const coin = async (id: string) =>
      (await fetch(`${s.url}/public_api/get_coin?coin=${id}`).then((r) => r.json())).data;
    const dash = await waitFor(
      async () => {
        const d = await coin('dash');
        return d.latest_block > 0 && d;
      },
      15_000,
      'latest block',
    );
    expect(dash.wallet).toMatchObject({
      version: expect.stringMatching(/Simulator/),
      protocol_version: '70230',
      connections: expect.any(Number),
    });
    expect(dash.chain_simulated).toBe(true);
    const row = await s.deps.db
      .selectFrom('node_view')
      .select('blocks')
      .where('mn_id', '=', dashId)
      .executeTakeFirstOrThrow();
    expect(dash.latest_block).toBeLessThanOrEqual(row.blocks! + 5);
    // The top bar counts the node, but no value for collateral it does not hold.
    const stats = await waitFor(
      async () => {
        const b = await fetch(`${s.url}/public_api/get_stats`).then((r) => r.json());
        return b.data.total_mns === 1 && b;
      },
      15_000,
      'stats',
    );
    expect(stats.data.total_mn_value).toBe(0);
    // A coin the fleet runs no node of has nothing to show.
    expect(await coin('firo')).toMatchObject({ wallet: null, latest_block: null, chain_simulated: false });
  });

  it('answers get_masternodes to the owner and not found to anyone else', async () => {
    const list = await api('/api/get_masternodes', 'owner');
    expect(list.status).toBe(200);
    expect(list.body.masternodes.map((m: any) => m.mn_id)).toEqual([dashId]);
    expect(list.body.monthly_cost).toBeCloseTo(30 * 0.045, 10);
    expect(list.body.masternodes[0]).toMatchObject({ simulated: true, worth: '--' });
    expect(list.body.total_worth).toBe(0); // simulated nodes hold no collateral
    expect(list.body.queue[0]).toMatchObject({
      mn_id: dashId,
      status: 'done',
      link: `/dashboard/masternode/${dashId}?tab=config`,
    });
    expect((await api('/api/get_masternodes', 'other')).body).toEqual({
      masternodes: [],
      queue: [],
      total_worth: 0,
      monthly_cost: 0,
    });
    expect(await api(`/api/get_masternode?masternode=${dashId}`, 'other')).toEqual({
      status: 404,
      body: { success: false, message: 'Masternode not found.' },
    });
    expect((await api('/api/get_masternode', 'owner')).status).toBe(400);
  });

  it('refuses a node when no host has capacity, with a clear message', async () => {
    expect((await cli('hosts', 'set', 'local', '--dedicated', '1')).code).toBe(0);
    expect((await cli('fleet', 'create', 'pivx', '--user', users.owner.username, '--plan', 'dedicated')).code).toBe(0);
    const full = await cli('fleet', 'create', 'pivx', '--user', users.other.username, '--plan', 'dedicated');
    expect(full.code).toBe(1); // a refusal, not a usage mistake
    // Placement is the control loop's: the slot shows as used once it placed the node.
    await waitFor(
      async () => /local\tlocal\t-\t\S+\tactive\t1\/1\t1\/1000/.test((await cli('fleet', 'status')).out),
      15_000,
      'the slot in use',
    );
    expect((await cli('fleet', 'create', 'bitg', '--user', users.owner.username, '--plan', 'cloud')).code).toBe(2); // maintenance
    expect((await cli('fleet', 'create', 'eth', '--user', users.owner.username, '--plan', 'cloud')).code).toBe(2); // no cloud plan
  });

  it('marks nodes on a host that is gone as error', async () => {
    const host = await s.deps.db
      .insertInto('hosts')
      .values({
        name: 'gone',
        engine: 'docker',
        url: 'unix:///nonexistent/docker.sock',
        ipv4: '192.0.2.50',
        ipv6: null,
        dedicated_slots: 5,
        cloud_slots: 5,
        state: 'active',
        last_error: null,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertTestNode(s.deps.db, {
      mn_id: 'ltc-ghost',
      user_id: users.owner.id,
      coin_id: 'dash',
      status: 'running',
      placement: { host_id: host.id, daemon_profile: 'litecoind-regtest', provisioned_at: Date.now() },
    });
    s.fleet.monitor.track('ltc-ghost');
    const ghost = await waitFor(
      async () => {
        const n = await node('owner', 'ltc-ghost');
        return n?.status === 'error' && n;
      },
      10_000,
      'error status',
    );
    expect(ghost.problem).toMatch(/gone/);
    expect(s.logLines.some((l) => l.includes('host unreachable') && l.includes('"host":"gone"'))).toBe(true);
    await s.deps.db
      .updateTable('nodes')
      .set({ state: 'deleted', deleted_at: Date.now() })
      .where('mn_id', '=', 'ltc-ghost')
      .execute();
    s.fleet.monitor.untrack('ltc-ghost');
  });

  it('serves metrics to the operator only', async () => {
    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    // Gauges follow the control loop's passes (every second).
    const text = await waitFor(
      async () => {
        const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.status).toBe(200);
        const t = await res.text();
        // The gauges lag the table by up to one pass (the ghost node above was counted while it lived).
        return /coin="pivx"/.test(t) && /nodekeep_nodes\{status="running",coin="dash"\} 1\n/.test(t) && t;
      },
      15_000,
      'the gauges to match the table',
    );
    expect(text, text).toMatch(/nodekeep_nodes\{status="running",coin="dash"\} 1/);
    expect(text).toMatch(/nodekeep_nodes\{status="\w[\w ]*",coin="pivx"\} 1/);
    expect(text).toMatch(/nodekeep_monitor_check_seconds_count \d+/);
  });

  it('survives a platform restart without duplicate daemons', async () => {
    const simDir = path.join(dataDir, 'fleet', 'local', '_simulator');
    expect(pidsMatching(simDir)).toHaveLength(1);
    await s.close(); // clean shutdown stops the simulator
    expect(pidsMatching(simDir)).toEqual([]);
    s = await startTestServer(env, { dataDir, port });
    await waitFor(async () => pidsMatching(simDir).length === 1, 10_000, 'simulator back');
    const again = await waitFor(
      async () => {
        const n = await node('owner', dashId);
        return n?.status === 'running' && n;
      },
      20_000,
      'running after restart',
    );
    expect(again.status_on_network).toBe('ENABLED');
    expect(pidsMatching(simDir)).toHaveLength(1);
  }, 60_000);

  it('restarts and destroys a node on the operator’s word', async () => {
    expect((await cli('fleet', 'restart', dashId)).code).toBe(0);
    await waitFor(
      async () =>
        (await s.deps.db.selectFrom('node_view').select('restarted_at').where('mn_id', '=', dashId).executeTakeFirst())
          ?.restarted_at,
      10_000,
      'restart',
    );
    const logs = await cli('fleet', 'logs', dashId, '--tail', '5');
    expect(logs.out).toMatch(/simulator/i);
    expect((await cli('fleet', 'destroy', dashId)).code).toBe(0);
    await waitFor(
      async () =>
        (await s.deps.db.selectFrom('node_view').select('destroyed_at').where('mn_id', '=', dashId).executeTakeFirst())
          ?.destroyed_at,
      10_000,
      'destroy',
    );
    expect((await api('/api/get_masternodes', 'owner')).body.masternodes.map((m: any) => m.mn_id)).not.toContain(
      dashId,
    );
    expect((await cli('fleet', 'destroy', 'nope')).code).toBe(1);
  });
});

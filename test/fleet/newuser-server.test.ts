import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { ConfigError, loadConfig } from '../../src/server/kernel/config';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { DONE_IN_QUEUE_MS, FINISHED_IN_QUEUE } from '../../src/server/nodes/service';
import { pidsMatching, waitFor } from '../support/daemons';
import { liveClient } from '../support/live';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { insertTestNode } from '../support/nodes';

// What a new user tripped over, server side: the simulator only when the operator turns it
// on, the local host's address and the support links from configuration, a bounded
// Deployments panel, and maintenance told to open tabs.

const dataDir = tempDataDir('nodekeep-newuser-');
const env = {
  FLEET_SIMULATOR: 'false',
  FLEET_LOCAL_IPV4: '203.0.113.7',
  SUPPORT_EMAIL: 'help@example.test',
  COMMUNITY_LINKS: 'Telegram=https://t.me/nodekeep_test, Discord=https://discord.example.test/x',
  MONITOR_NODE_SECONDS: '0.5',
};
let s: TestServer;
let token = '';
let userId = 0;

const cli = async (args: string[], extra: Record<string, string> = {}) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env, ...extra }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const api = (p: string) =>
  fetch(s.url + p, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
    status: r.status,
    body: await r.json(),
  }));
const post = (p: string, body: unknown) =>
  fetch(s.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json());

beforeAll(async () => {
  s = await startTestServer(env, { dataDir });
  await post('/public_api/register', { username: 'newbie', email: 'newbie@example.test', password: 'newbie-pass-1' });
  token = (await post('/public_api/login', { username: 'newbie', password: 'newbie-pass-1' })).auth_token;
  userId = (await s.deps.db.selectFrom('users').select('id').where('username', '=', 'newbie').executeTakeFirstOrThrow())
    .id;
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

describe('configuration of what customers see', () => {
  it('system.status carries the support address and community links', async () => {
    const status = await fetch(`${s.url}/public_api/status`).then((r) => r.json());
    expect(status).toEqual({
      success: true,
      maintenance: false,
      support: {
        email: 'help@example.test',
        community: [
          { label: 'Telegram', url: 'https://t.me/nodekeep_test' },
          { label: 'Discord', url: 'https://discord.example.test/x' },
        ],
      },
    });
  });

  it('rejects malformed support and fleet settings at start-up, naming the variable', () => {
    for (const [name, value] of [
      ['COMMUNITY_LINKS', 'Telegram'],
      ['COMMUNITY_LINKS', 'Chat=ftp://x'],
      ['SUPPORT_EMAIL', 'not-an-email'],
      ['FLEET_LOCAL_IPV4', '192.0.2'],
      ['FLEET_LOCAL_IPV6', '203.0.113.7'],
      ['FLEET_SIMULATOR', 'maybe'],
    ]) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
    }
    expect(loadConfig({}).fleetSimulator).toBe(false);
    expect(loadConfig({}).supportEmail).toBe('');
    expect(loadConfig({}).communityLinks).toEqual([]);
  });

  it("takes the local host's public address from FLEET_LOCAL_IPV4, also on a later start", async () => {
    const local = () =>
      s.deps.db.selectFrom('hosts').selectAll().where('engine', '=', 'local').executeTakeFirstOrThrow();
    expect((await local()).ipv4).toBe('203.0.113.7');
    await s.close();
    s = await startTestServer(
      { ...env, FLEET_LOCAL_IPV4: '203.0.113.8', FLEET_LOCAL_IPV6: '2001:db8::8' },
      { dataDir, port: s.port },
    );
    expect(await local()).toMatchObject({ ipv4: '203.0.113.8', ipv6: '2001:db8::8' });
  });
});

describe('the simulator only when the operator enables it', () => {
  it('refuses to deploy a coin that would run on the simulator while it is off, and writes nothing', async () => {
    const before = await s.deps.db.selectFrom('node_view').select('id').execute();
    expect((await cli(['fleet', 'create', 'dash', '--user', 'newbie', '--plan', 'cloud'])).code).toBe(1);
    // The same rule inside the server, in the customer's words (no talk of our machinery); the operator's log says why.
    const refused = requestNode(
      s.deps.db,
      { profiles: s.fleet.profiles, log: s.deps.log, simulator: s.fleet.simulator },
      { userId, coinId: 'dash', plan: 'cloud' },
    );
    await expect(refused).rejects.toThrow(
      /^Dash nodes are coming soon: the servers that run them are being prepared\. Please check back later\.$/,
    );
    expect(s.logLines.join('\n')).toMatch(/simulator, which is off \(FLEET_SIMULATOR\)/);
    expect(await s.deps.db.selectFrom('node_view').select('id').execute()).toEqual(before);
  });

  it('does not serve a simulated node while it is off: no simulator process, the node in error, marked simulated', async () => {
    // Requested while the simulator was on (before the operator turned it off).
    const requested = await requestNode(
      s.deps.db,
      { profiles: s.deps.fleet.profiles, facts: s.deps.fleet.facts, log: s.deps.log, simulator: true },
      { userId, coinId: 'dash', plan: 'cloud' },
    );
    void s.deps.fleet.reconcile();
    const id = requested.mn_id;
    const row = await waitFor(
      async () => {
        const n = await s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();
        return n.status === 'error' && n;
      },
      10_000,
      'node in error',
    );
    expect(row.simulated).toBe(1);
    expect(row.last_error).toMatch(/simulator is off/);
    expect(pidsMatching(path.join(dataDir, 'fleet', 'local', '_simulator'))).toEqual([]);
    const listed = (await api('/api/get_masternodes')).body;
    const item = [...listed.masternodes, ...listed.queue].find((m: any) => m.mn_id === id);
    expect(item).toBeTruthy();
    const detail = (await api(`/api/get_masternode?masternode=${id}`)).body.data;
    expect(detail).toMatchObject({
      simulated: true,
      server_ip: null,
      server_ip6: null,
      worth: '--',
      revenue: '--',
      roi: null,
    });
    // The operator sees it too.
    const nodes = await cli(['fleet', 'nodes']);
    expect(nodes.out).toMatch(new RegExp(`${id}\\tdash\\t${userId}\\tcloud\\terror\\tlocal\\t-\\tSIMULATED`));
    const status = await cli(['fleet', 'status']);
    expect(status.out).toMatch(/simulated nodes: 1 /);
    // The server's setting, whatever the command's own environment says.
    expect(status.out).toMatch(/FLEET_SIMULATOR off \(the server's, as of its start at \d{4}-\d\d-\d\dT[\d:.]+Z\)/);
    const fromOnShell = await cli(['fleet', 'status'], { FLEET_SIMULATOR: 'true' });
    expect(fromOnShell.out).toMatch(/FLEET_SIMULATOR off \(the server's/);
    // A node asked for from such a shell is refused as the server would refuse it.
    const refused = await cli(['fleet', 'create', 'dash', '--user', 'newbie', '--plan', 'cloud'], {
      FLEET_SIMULATOR: 'true',
    });
    expect(refused.code).toBe(1);
    await cli(['fleet', 'destroy', id]);
    await waitFor(
      async () =>
        (
          await s.deps.db
            .selectFrom('node_view')
            .select('destroyed_at')
            .where('mn_id', '=', id)
            .executeTakeFirstOrThrow()
        ).destroyed_at,
      10_000,
      'destroyed',
    );
  });
});

describe('the Deployments panel', () => {
  it('lists what deploys and only the latest few finished nodes, for a short while', async () => {
    const now = Date.now();
    const host = await s.deps.db
      .selectFrom('hosts')
      .select('id')
      .where('engine', '=', 'local')
      .executeTakeFirstOrThrow();
    const base = {
      user_id: userId,
      coin_id: 'pivx',
      package: 'cloud' as const,
      hosting_price: 63_000,
      status: 'running',
    };
    // Rows only: nothing is requested of the engine (provisioned, or deleted-free "deploying" on a host we drain first).
    await s.deps.db.updateTable('hosts').set({ state: 'draining' }).where('id', '=', host.id).execute();
    const rows = [
      ...Array.from({ length: FINISHED_IN_QUEUE + 2 }, (_, i) => ({
        ...base,
        mn_id: `q-done-${i}`,
        created_at: now - 60_000 * (i + 2),
        placement: { host_id: host.id, provisioned_at: now - 60_000 * (i + 1) },
        observation: { checked_at: now, first_answer_at: now - 60_000 * (i + 1) },
      })),
      {
        ...base,
        mn_id: 'q-old',
        created_at: now - DONE_IN_QUEUE_MS * 3,
        placement: { host_id: host.id, provisioned_at: now - DONE_IN_QUEUE_MS * 2 },
        observation: { checked_at: now, first_answer_at: now - DONE_IN_QUEUE_MS * 2 },
      },
    ];
    for (const r of rows) await insertTestNode(s.deps.db, r);
    const { queue, masternodes } = (await api('/api/get_masternodes')).body;
    const ours = queue.filter((q: any) => q.mn_id.startsWith('q-'));
    expect(ours.map((q: any) => q.mn_id)).toEqual(Array.from({ length: FINISHED_IN_QUEUE }, (_, i) => `q-done-${i}`));
    expect(ours.every((q: any) => q.status === 'done')).toBe(true);
    // Every node is still in the portfolio list.
    expect(masternodes.map((m: any) => m.mn_id)).toEqual(expect.arrayContaining(['q-old', 'q-done-6']));
    await s.deps.db.updateTable('nodes').set({ state: 'deleted' }).where('mn_id', 'like', 'q-%').execute();
    await s.deps.db.updateTable('hosts').set({ state: 'active' }).where('id', '=', host.id).execute();
  });
});

describe('maintenance reaches open tabs', () => {
  it('tells a logged-in tab that maintenance began and ended, and visitors read it from system.status', async () => {
    const live = liveClient(s.url, token);
    try {
      await waitFor(async () => live.types().includes('sync'), 15_000, 'live');
      expect((await cli(['maintenance', 'on'])).code).toBe(0);
      await waitFor(async () => live.received.find((e) => e.type === 'maintenance'), 15_000, 'maintenance event');
      expect((await fetch(`${s.url}/public_api/status`).then((r) => r.json())).maintenance).toBe(true);
      expect((await cli(['maintenance', 'off'])).code).toBe(0);
      await waitFor(
        async () => live.received.filter((e) => e.type === 'maintenance').length === 2 && true,
        15_000,
        'maintenance end event',
      );
      expect(live.received.filter((e) => e.type === 'maintenance').map((e) => e.payload)).toEqual([
        { on: true },
        { on: false },
      ]);
      expect((await fetch(`${s.url}/public_api/status`).then((r) => r.json())).maintenance).toBe(false);
    } finally {
      await live.close();
    }
  });
});

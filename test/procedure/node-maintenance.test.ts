import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED, NODE_LOG_LINES } from '../../src/shared/node-maintenance';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { secretsAad } from '../../src/server/nodes/node-secrets';
import { makeDeps, offlineFleet, rejection, type Deps } from '../support/caller';
import { fundedUser } from '../support/users';

// The node page's log and Restart button: the log its owner reads has every secret the
// platform wrote for the node masked; a restart is asked at most once per 10 minutes per
// node, however many asks arrive at once, and is one of the node's events.

let d: Deps;
let daemonText = '';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  await insertHost(d.db, {
    name: 'local',
    engine: 'local',
    url: null,
    ipv4: '203.0.113.9',
    ipv6: null,
    dedicated_slots: 100,
    cloud_slots: 100,
    state: 'active',
    last_error: null,
  });
  d.deps.fleet = { ...offlineFleet(), daemonLog: async () => daemonText };
});
afterAll(() => d.close());

let nextIp = 10;
async function deployLive(token: string, input: Record<string, unknown>) {
  const ok = await d.caller(token).deploy.deploy_server({ package: 'dedicated', ...input } as never);
  const mnId = ok.server_id as string;
  const row = await d.db.selectFrom('nodes').selectAll().where('mn_id', '=', mnId).executeTakeFirstOrThrow();
  // A node on a real daemon: it has a public address.
  await d.db.updateTable('nodes').set({ state: 'live', simulated: 0 }).where('id', '=', row.id).execute();
  const rpcPassword = `pw-${mnId}-Zq81xv`;
  await d.db
    .insertInto('placements')
    .values({
      node_id: row.id,
      host_id: 1,
      daemon_profile: 'simulator-classic',
      server_ip: `203.0.113.${nextIp++}`,
      p2p_port: 51472,
      rpc_user: 'nk',
      rpc_password: rpcPassword,
    })
    .execute();
  const secrets = JSON.parse(d.deps.secrets.open(row.secrets!, secretsAad(mnId))) as Record<string, string>;
  return { mnId, nodeId: row.id, rpcPassword, key: secrets.masternode_key! };
}

describe('the node log', () => {
  it('masks the RPC password, the masternode key and any secret setting; another user gets nothing', async () => {
    const owner = await fundedUser(d.deps);
    const other = await fundedUser(d.deps);
    const { mnId, rpcPassword, key } = await deployLive(owner.token, { currency: 'pivx', txid: 'd1'.repeat(32) });
    const lines = Array.from(
      { length: 150 },
      (_, i) => `2026-11-28T10:00:${String(i % 60).padStart(2, '0')}Z UpdateTip height=${i}`,
    );
    lines.push(
      `Command-line arg: rpcpassword=${rpcPassword}`,
      `Config file arg: masternodeprivkey="${key}"`,
      `ThreadRPCServer incorrect password attempt from 127.0.0.1 using ${rpcPassword}`,
      'Config file arg: masternodeblsprivkey=5b1d0f9c1e3a',
      'HTTP request Authorization: Bearer abcdefghijklmnop123',
    );
    daemonText = lines.join('\n');

    const log = await d.caller(owner.token).nodes.get_node_log({ masternode: mnId });
    expect(log.lines).toHaveLength(NODE_LOG_LINES);
    const text = log.lines.join('\n');
    for (const secret of [rpcPassword, key, '5b1d0f9c1e3a', 'abcdefghijklmnop123']) expect(text).not.toContain(secret);
    expect(log.lines.slice(-5)).toEqual([
      `Command-line arg: rpcpassword=${MASKED}`,
      `Config file arg: masternodeprivkey="${MASKED}"`,
      `ThreadRPCServer incorrect password attempt from 127.0.0.1 using ${MASKED}`,
      `Config file arg: masternodeblsprivkey=${MASKED}`,
      `HTTP request Authorization: Bearer ${MASKED}`,
    ]);
    // Ordinary lines stay as the daemon wrote them.
    expect(log.lines[0]).toBe('2026-11-28T10:00:55Z UpdateTip height=55');

    const err = await rejection(d.caller(other.token).nodes.get_node_log({ masternode: mnId }));
    expect(err.code).toBe('NOT_FOUND');
  });
});

describe('restart', () => {
  it('100 simultaneous restarts of one node ask the daemon once; the others are told when, and nothing else changes', async () => {
    const owner = await fundedUser(d.deps);
    const { mnId, nodeId } = await deployLive(owner.token, { currency: 'pivx', txid: 'd2'.repeat(32) });
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => d.caller(owner.token).nodes.restart_node({ masternode: mnId })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      const e = (r as PromiseRejectedResult).reason as { code: string; message: string };
      expect(e.code).toBe('TOO_MANY_REQUESTS');
      expect(e.message).toBe(
        'This node was restarted less than 10 minutes ago. You can restart it again in 10 minutes.',
      );
    }
    const events = await d.db.selectFrom('node_events').selectAll().where('node_id', '=', nodeId).execute();
    expect(events.map((e) => e.kind)).toEqual(['restart_requested']);
    const placement = await d.db
      .selectFrom('placements')
      .select('restart_requested_at')
      .where('node_id', '=', nodeId)
      .executeTakeFirstOrThrow();
    expect(placement.restart_requested_at).not.toBeNull();

    const page = (await d.caller(owner.token).nodes.get_masternode({ masternode: mnId })).data;
    expect(page.events).toEqual([{ kind: 'restart_requested', at: expect.any(String) }]);
    expect(Date.parse(page.restart_after!)).toBe(placement.restart_requested_at! + 10 * 60_000);
    expect(page.address).toMatch(/^203\.0\.113\.\d+:51472$/);
    expect(page.uptime).toHaveLength(30);
    // PIVX has a public explorer in the catalog: its transaction id links there.
    expect(page.setup.fields).toContainEqual({
      label: 'TXID',
      value: 'd2'.repeat(32),
      secret: false,
      href: `https://chainz.cryptoid.info/pivx/tx.dws?${'d2'.repeat(32)}.htm`,
    });

    // Ten minutes on, the owner may ask again.
    await d.db
      .updateTable('placements')
      .set({ restart_requested_at: Date.now() - 10 * 60_000 - 1 })
      .where('node_id', '=', nodeId)
      .execute();
    await expect(d.caller(owner.token).nodes.restart_node({ masternode: mnId })).resolves.toMatchObject({
      success: true,
    });
  });

  it("another user's node is not found and is not restarted", async () => {
    const owner = await fundedUser(d.deps);
    const other = await fundedUser(d.deps);
    const { mnId, nodeId } = await deployLive(owner.token, { currency: 'pivx', txid: 'd3'.repeat(32) });
    const err = await rejection(d.caller(other.token).nodes.restart_node({ masternode: mnId }));
    expect(err.code).toBe('NOT_FOUND');
    const events = await d.db.selectFrom('node_events').selectAll().where('node_id', '=', nodeId).execute();
    expect(events).toEqual([]);
  });
});

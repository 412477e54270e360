import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/server/cli/main';
import { DAEMON_BUDGET_MS, ensureWallet, haveBinary, mineTo, pidsMatching, rpc, waitFor } from '../support/daemons';
import { LITECOIND_ENTRYPOINT, litecoindRootfs } from '../support/images/litecoind';
import { startPodman, type Podman } from '../support/podman';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Nodes of real daemons placed and started through the fleet, as a customer's would be:
// litecoind and monerod as local processes, litecoind in a Podman container.
const dataDir = tempDataDir('nodekeep-real-');
// The command line runs with the server's environment: the simulator on, as in the demo, where
// every coin is offered (with it off a coin needs a verified profile and a passed `coins check`).
const env = { MONITOR_NODE_SECONDS: '0.5', MONITOR_NETWORK_SECONDS: '0.5', FLEET_SIMULATOR: 'true' };
const catalogFile = path.join(dataDir, 'real-coins.json');
const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
const base = shipped.coins.find((c: any) => c.id === 'pivx');
fs.writeFileSync(
  catalogFile,
  JSON.stringify({
    ...shipped,
    coins: [
      {
        ...base,
        id: 'ltc',
        label: 'Litecoin (regtest)',
        ticker: 'LTC',
        daemon: 'litecoind-regtest',
        market: { ...base.market, coingecko_id: 'litecoin' },
      },
      {
        ...base,
        id: 'xmr',
        label: 'Monero (regtest)',
        ticker: 'XMR',
        family: 'monero',
        flags: { ...base.flags, monero: true },
        daemon: 'monerod-regtest',
        market: { ...base.market, coingecko_id: 'monero' },
      },
    ],
  }),
);

let s: TestServer;
let miner: FreshUser;
let podman: Podman | { skip: string } = { skip: 'not started' };
const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const node = (id: string) =>
  fetch(`${s.url}/api/get_masternode?masternode=${id}`, { headers: { authorization: `Bearer ${miner.token}` } })
    .then((r) => r.json())
    .then((b) => b.data);
const nodeRow = (id: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  expect((await cli('catalog', 'import', catalogFile)).code).toBe(0);
  s = await startTestServer(env, { dataDir });
  miner = await freshUser(s.deps, { prefix: 'miner' });
}, 60_000);
afterAll(async () => {
  await stopTestServer(s);
  if ('stop' in podman) await podman.stop();
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

/**
 * Mines `n` regtest blocks on a litecoind node through its own RPC (credentials from the
 * node's row). Every call retries within the budget and fails with the daemon's own last
 * error: a createwallet that timed out must not surface later as "No wallet is loaded".
 */
async function mine(mnId: string, n: number) {
  const row = await nodeRow(mnId);
  const host = await s.deps.db.selectFrom('hosts').selectAll().where('id', '=', row.host_id!).executeTakeFirstOrThrow();
  const target = async () => ({
    endpoint: await s.fleet.engines.for(host).rpcEndpoint(mnId),
    auth: { user: row.rpc_user!, password: row.rpc_password! },
  });
  const start = await rpc(target, 'getblockcount', [], v.number());
  await ensureWallet(target, 'w');
  expect(await mineTo(target, start + n)).toBe(start + n);
}

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('a litecoind node through the fleet', () => {
  it('starts for real and shows its true wallet info', async () => {
    const created = await cli('fleet', 'create', 'ltc', '--user', miner.username, '--plan', 'dedicated');
    expect(created.code).toBe(0);
    const id = /node (\S+) requested/.exec(created.out)![1];
    // Fresh regtest chains are in initial block download until a block arrives.
    const syncing = await waitFor(
      async () => ((await node(id))?.status === 'syncing' ? node(id) : null),
      DAEMON_BUDGET_MS,
      'syncing',
    );
    expect(syncing.wallet_info).toMatchObject({
      version: expect.stringMatching(/LitecoinCore:0\.21/),
      blocks: 0,
      connections: 0,
    });
    await mine(id, 3);
    const running = await waitFor(
      async () => ((await node(id))?.status === 'running' ? node(id) : null),
      DAEMON_BUDGET_MS,
      'running',
    );
    expect(running.wallet_info.blocks).toBe(3);
    expect(running.status_on_network).toBeNull(); // a plain daemon has no masternode list
  });
});

describe.skipIf(!haveBinary('/usr/bin/monerod'))('a monerod node through the fleet', () => {
  it('starts for real and shows its true wallet info', async () => {
    const created = await cli('fleet', 'create', 'xmr', '--user', miner.username, '--plan', 'dedicated');
    expect(created.code).toBe(0);
    const id = /node (\S+) requested/.exec(created.out)![1];
    const n = await waitFor(
      async () => {
        const d = await node(id);
        return d?.wallet_info && d.status !== 'deploying' && d;
      },
      DAEMON_BUDGET_MS,
      'monerod answers',
    );
    expect(n.wallet_info).toMatchObject({ version: expect.stringMatching(/^0\.18/), blocks: expect.any(Number) });
    expect(['running', 'syncing']).toContain(n.status);
  });
});

describe('a litecoind container on a Podman host through the fleet', () => {
  it('is placed on the docker host and runs there', async () => {
    podman = await startPodman();
    if ('skip' in podman) {
      console.warn(`skipped: ${podman.skip}`);
      return;
    }
    const image = JSON.parse(fs.readFileSync('catalog/daemons.json', 'utf8')).profiles['litecoind-regtest'].image;
    await podman.buildImage(image, litecoindRootfs(fs.mkdtempSync(path.join(dataDir, 'rootfs-'))), {
      entrypoint: LITECOIND_ENTRYPOINT,
    });
    expect(
      (
        await cli(
          'hosts',
          'add',
          'podman1',
          '--engine',
          'docker',
          '--url',
          podman.socketUrl,
          '--ipv4',
          '192.0.2.10',
          '--dedicated',
          '2',
        )
      ).code,
    ).toBe(0);
    // Keep the local machine out of it, so placement must pick the Podman host.
    expect((await cli('hosts', 'drain', 'local')).code).toBe(0);
    const created = await cli('fleet', 'create', 'ltc', '--user', miner.username, '--plan', 'dedicated');
    expect(created.code).toBe(0);
    const id = /node (\S+) requested/.exec(created.out)![1];
    await waitFor(async () => (await nodeRow(id)).provisioned_at, DAEMON_BUDGET_MS, 'provisioned');
    expect((await nodeRow(id)).last_error).toBeNull();
    try {
      await mine(id, 2);
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\n--- container log ---\n${(await cli('fleet', 'logs', id, '--tail', '30')).out}`,
      );
    }
    const running = await waitFor(
      async () => ((await node(id))?.status === 'running' ? node(id) : null),
      DAEMON_BUDGET_MS,
      'running in the container',
    );
    expect(running).toMatchObject({ server_ip: '192.0.2.10', wallet_info: { blocks: 2 } });
    const containers = await podman.cli(['ps', '--format', '{{.Names}} {{.Labels}}']);
    expect(containers).toMatch(new RegExp(`nodekeep-${id}`));
    // Its config (RPC password included) is a file in the container, not in its arguments.
    const { rpc_password } = await nodeRow(id);
    expect(await podman.cli(['inspect', `nodekeep-${id}`])).not.toContain(rpc_password!);
    expect(await podman.cli(['ps', '--no-trunc', '--format', '{{.Command}}'])).toMatch(/-conf=\/data\/litecoin\.conf/);
    // `podman cp … -` answers a tar of the file: its header holds the mode.
    const tar = await podman.cli(['cp', `nodekeep-${id}:/data/litecoin.conf`, '-']);
    expect(parseInt(tar.slice(100, 107), 8)).toBe(0o600);
    expect(tar).toContain(`rpcpassword=${rpc_password}\n`);
    // Destroyed through the fleet: the container goes.
    expect((await cli('fleet', 'destroy', id)).code).toBe(0);
    await waitFor(async () => (await nodeRow(id)).destroyed_at, DAEMON_BUDGET_MS, 'destroyed');
    expect(await podman.cli(['ps', '-a', '--format', '{{.Names}}'])).not.toMatch(id);
  }, 360_000);
});

import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/shared/format';
import { runCli } from '../../src/server/cli/main';
import { WATCH_LABEL, WATCH_WALLET } from '../../src/server/fleet/daemons/activity';
import { bitcoinCall } from '../../src/server/fleet/daemons/jsonrpc';
import { updateNodeRow } from '../../src/server/nodes/repository';
import { ADDRESS_TOKEN, buildOutputText } from '../../src/server/nodes/output-text';
import { DAEMON_BUDGET_MS, ensureWallet, haveBinary, pidsMatching, waitFor, withinBudget } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { at, browserSession } from '../e2e/browser';

// A litecoind node (no address index) run by the fleet as a customer's would be: its
// collateral address's activity is read through the watch-only wallet the monitor sets
// up on the node's own daemon, and reaches the owner through the node data call.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const dataDir = tempDataDir('nodekeep-activity-');
// The command line runs with the server's environment: the simulator on, as in the demo, where
// every coin is offered (with it off a coin needs a verified profile and a passed `coins check`).
const env = { MONITOR_NODE_SECONDS: '0.5', MONITOR_NETWORK_SECONDS: '0.5', FLEET_SIMULATOR: 'true' };
const catalogFile = path.join(dataDir, 'ltc-coins.json');
const shipped = JSON.parse(fs.readFileSync('catalog/coins.json', 'utf8'));
const base = shipped.coins.find((c: any) => c.id === 'pivx');
// A classic-family coin on litecoind, with a collateral a regtest miner can pay quickly.
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
        collateral: '100',
        daemon: 'litecoind-regtest',
        market: { ...base.market, coingecko_id: 'litecoin' },
      },
    ],
  }),
);

let s: TestServer;
let owner: FreshUser;
let other: FreshUser;
const browser = browserSession(() => s.url);

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const code = await runCli(args, { DATA_DIR: dataDir, ...env }, { out: (l) => lines.push(l) });
  return { code, out: lines.join('\n') };
};
const nodeOf = (user: FreshUser, id: string) =>
  fetch(`${s.url}/api/get_masternode?masternode=${id}`, { headers: { authorization: `Bearer ${user.token}` } }).then(
    (r) => r.json(),
  );
const nodeRow = (id: string) =>
  s.deps.db.selectFrom('node_view').selectAll().where('mn_id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  expect((await cli('catalog', 'import', catalogFile)).code).toBe(0);
  s = await startTestServer(env, { dataDir });
  owner = await freshUser(s.deps, { prefix: 'ltcowner' });
  other = await freshUser(s.deps, { prefix: 'ltcother' });
  await browser.launch();
}, 60_000);
afterAll(async () => {
  await browser.close();
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
}, 60_000);

type Activity = {
  sent: number;
  balance: number;
  address: string;
  transactions: Array<{ block: number; txid: string; human_time: string; amount: number }>;
};

describe.skipIf(!haveBinary(LITECOIND))("a litecoind node's collateral activity", () => {
  it('shows the balance, what left and the transactions with blocks and times; a wallet error keeps the last activity and the status checks go on', async () => {
    const created = await cli('fleet', 'create', 'ltc', '--user', owner.username, '--plan', 'dedicated');
    expect(created.code).toBe(0);
    const id = /node (\S+) requested/.exec(created.out)![1];
    await waitFor(async () => (await nodeRow(id)).first_answer_at, DAEMON_BUDGET_MS, 'the daemon answers');

    // The node's own daemon is the regtest chain: a miner and the owner's wallet live on it.
    const row = await nodeRow(id);
    const host = await s.deps.db
      .selectFrom('hosts')
      .selectAll()
      .where('id', '=', row.host_id!)
      .executeTakeFirstOrThrow();
    const target = async () => ({
      endpoint: await s.fleet.engines.for(host).rpcEndpoint(id),
      auth: { user: row.rpc_user!, password: row.rpc_password! },
    });
    const call = <T>(wallet: string, method: string, params: unknown[], schema: v.GenericSchema<unknown, T>) =>
      withinBudget(`${wallet} ${method}`, async (timeoutMs) =>
        bitcoinCall({ ...(await target()), timeoutMs, wallet }, method, params, schema),
      );
    await ensureWallet(target, 'miner');
    await ensureWallet(target, 'owner');
    const minerAddr = await call('miner', 'getnewaddress', [], v.string());
    const mine = async (n: number) =>
      (await call('miner', 'generatetoaddress', [n, minerAddr], v.array(v.string()))).length;
    expect(await mine(110)).toBe(110);

    // Nothing to read before the node has a collateral: the cards show '---'.
    expect((await nodeOf(owner, id)).data.activity).toBeNull();

    // The owner pays the collateral to an address of their wallet and enters it at deploy.
    const collateral = await call('owner', 'getnewaddress', [], v.string());
    const collateralTx = await call('miner', 'sendtoaddress', [collateral, 100], v.string());
    await mine(1);
    const outs = await call(
      'owner',
      'listunspent',
      [1, 9_999_999, [collateral]],
      v.array(v.looseObject({ txid: v.string(), vout: v.number() })),
    );
    const index = outs.find((o) => o.txid === collateralTx)!.vout;
    // What a classic deploy writes (deploy/node-fields.ts): the entry and the masternode.conf line with txid and index.
    await updateNodeRow(s.deps.db, row.id, {
      entry: `${collateralTx}-${index}`,
      output_text: buildOutputText({
        kind: 'masternode_conf',
        address: ADDRESS_TOKEN,
        txid: collateralTx,
        index,
        burn: null,
      }),
    });

    const funded: Activity = await waitFor(
      async () => (await nodeOf(owner, id)).data.activity,
      DAEMON_BUDGET_MS,
      'the collateral activity',
    );
    expect(funded).toMatchObject({ address: collateral, balance: 100, sent: 0 });
    expect(funded.transactions).toEqual([
      {
        block: 111,
        txid: collateralTx,
        human_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        amount: 100,
      },
    ]);
    // Imported without a rescan, then rescanned from the collateral's block (111) outside the status check.
    expect(s.logLines.find((l) => l.includes('collateral address rescanned') && l.includes(id))).toMatch(
      /"from_height":111/,
    );
    // The monitor watches it in a key-less wallet of the daemon, under its label.
    const info = await call(
      WATCH_WALLET,
      'getaddressinfo',
      [collateral],
      v.looseObject({ iswatchonly: v.boolean(), labels: v.array(v.unknown()) }),
    );
    expect(info.iswatchonly).toBe(true);
    expect(JSON.stringify(info.labels)).toContain(WATCH_LABEL);
    expect(
      (await call(WATCH_WALLET, 'getwalletinfo', [], v.looseObject({ private_keys_enabled: v.boolean() })))
        .private_keys_enabled,
    ).toBe(false);

    // A node payment arrives, then the owner moves the collateral out (the reward stays).
    const reward = await call('miner', 'sendtoaddress', [collateral, 2.5], v.string());
    await mine(1);
    const rewardOut = (
      await call(
        'owner',
        'listunspent',
        [1, 9_999_999, [collateral]],
        v.array(v.looseObject({ txid: v.string(), vout: v.number() })),
      )
    ).find((o) => o.txid === reward)!;
    await call('owner', 'lockunspent', [false, [{ txid: reward, vout: rewardOut.vout }]], v.boolean());
    const elsewhere = await call('miner', 'getnewaddress', [], v.string());
    const spend = await call('owner', 'sendtoaddress', [elsewhere, 1.25], v.string());
    await mine(1);

    // The spent collateral output is gone from gettxout (and litecoind keeps no txindex):
    // the address the node showed last still names it.
    const spent: Activity = await waitFor(
      async () => {
        const a: Activity | null = (await nodeOf(owner, id)).data.activity;
        return a && a.transactions.length === 3 && a;
      },
      DAEMON_BUDGET_MS,
      'the spend',
    );
    expect(spent).toMatchObject({ address: collateral, balance: 2.5, sent: 100 });
    expect(spent.transactions.map((t) => [t.txid, t.block])).toEqual([
      [spend, 113],
      [reward, 112],
      [collateralTx, 111],
    ]);
    // What left the address: the 100 minus the fee it paid (the change went to another address of the owner).
    expect(spent.transactions[0].amount).toBeLessThan(-99.99);
    expect(spent.transactions[0].amount).toBeGreaterThan(-100);
    expect(spent.transactions[1].amount).toBe(2.5);
    const times = await Promise.all(
      spent.transactions.map(
        async (t) =>
          (
            await call(
              'miner',
              'getblock',
              [await call('miner', 'getblockhash', [t.block], v.string())],
              v.looseObject({ time: v.number() }),
            )
          ).time,
      ),
    );
    expect(spent.transactions.map((t) => t.human_time)).toEqual(
      times.map((t) => new Date(t * 1000).toISOString().slice(0, 19).replace('T', ' ')),
    );
    // The owner's node page: Earnings (sent + balance - collateral) and Exits carry the numbers.
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByLabel('Username or email', { exact: true }).fill(owner.username);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await at(page, '/dashboard');
    await page.goto(`/dashboard/masternode/${id}`);
    const card = (label: string) =>
      page.locator('.stat', { has: page.getByText(label, { exact: true }) }).locator('.stat-value');
    await expect.poll(() => card('Exits').textContent()).toBe(`${formatNumber(100)} LTC`);
    expect(await card('Earnings').textContent()).toBe(`${formatNumber(2.5)} LTC`);
    await page.context().close();
    browser.assertNoPageErrors();
    // Imported and rescanned once for this node, however many cycles read it.
    expect(s.logLines.filter((l) => l.includes('collateral address watched') && l.includes(id))).toHaveLength(1);
    // Another user does not see the node at all.
    expect((await nodeOf(other, id)).success).toBe(false);

    // The daemon loses the watch wallet and cannot make it again (its file is in the way):
    // the status checks go on, the last activity stays, and the failure is logged.
    const failures = () => s.logLines.filter((l) => l.includes('wallet activity unavailable') && l.includes(id)).length;
    expect(failures()).toBe(0);
    await call(WATCH_WALLET, 'unloadwallet', [], v.unknown());
    const walletDir = findDir(path.join(dataDir), WATCH_WALLET);
    fs.renameSync(walletDir, `${walletDir}.moved`);
    fs.writeFileSync(walletDir, 'not a wallet');
    const checked = (await nodeRow(id)).last_checked_at!;
    await waitFor(async () => failures() > 0, DAEMON_BUDGET_MS, 'the logged failure');
    expect(s.logLines.find((l) => l.includes('wallet activity unavailable') && l.includes(id))).toMatch(
      /"level":"warn".*"way":"watch_wallet"/,
    );
    await waitFor(
      async () => ((await nodeRow(id)).last_checked_at! > checked + 1000 ? true : null),
      DAEMON_BUDGET_MS,
      'later status checks',
    );
    const during = (await nodeOf(owner, id)).data;
    expect(during.status).toBe('running');
    expect(during.activity).toEqual(spent);

    // Back in place: the wallet is loaded again (no new import) and the reading resumes.
    fs.rmSync(walletDir);
    fs.renameSync(`${walletDir}.moved`, walletDir);
    const more = await call('miner', 'sendtoaddress', [collateral, 0.5], v.string());
    await mine(1);
    const resumed: Activity = await waitFor(
      async () => {
        const a: Activity | null = (await nodeOf(owner, id)).data.activity;
        return a && a.transactions[0]?.txid === more && a;
      },
      DAEMON_BUDGET_MS,
      'the reading resumes',
    );
    expect(resumed).toMatchObject({ balance: 3, sent: 100 });
    expect(s.logLines.filter((l) => l.includes('collateral address watched') && l.includes(id))).toHaveLength(1);
  }, 240_000);
});

/** The folder named `name` somewhere under `root` (the daemon's wallet, inside the node's data folder). */
function findDir(root: string, name: string): string {
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory() && entry.name === name) return path.join(entry.parentPath, entry.name);
  }
  throw new Error(`no ${name} under ${root}`);
}

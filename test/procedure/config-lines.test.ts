import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBlocks } from '../../src/client/nodes/portfolio';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { withFeeAddress } from '../../src/shared/quick-setup';
import { makeDeps, offlineFleet, type Deps } from '../support/caller';
import { freshAddress, MAINNET } from '../support/addresses';
import { fundedUser } from '../support/users';

// Issue 24, item 3: a literal `{address}` reached the portfolio export and the PIVX and
// SIN masternode.conf lines of simulated nodes. Every family's line, export and start
// command is rendered here for a node the simulator runs, as the demo places it (its
// host's address, no port of its own), and none may keep a `{…}` or `<…>` placeholder.

let d: Deps;
const burnTx = 'b0b0'.padEnd(64, '3');
const IP = '203.0.113.77';

beforeAll(async () => {
  d = await makeDeps();
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  // BITG is under maintenance in the catalog; its line is rendered with it open.
  await d.db.updateTable('coins').set({ maintenance: 0 }).where('id', '=', 'bitg').execute();
  await insertHost(d.db, {
    name: 'local',
    engine: 'local',
    url: null,
    ipv4: IP,
    ipv6: null,
    dedicated_slots: 100,
    cloud_slots: 100,
    state: 'active',
    last_error: null,
  });
  d.deps.fleet = {
    ...offlineFleet(),
    checkBurn: async (_coin, txid) =>
      txid === burnTx ? { ok: true, output_id: 1 } : { ok: false, message: 'Burn transaction not found.' },
  };
});
afterAll(() => d.close());

const PLACEHOLDER = /\{[^}]*\}|<[^>]*>/;
const tx = () => crypto.randomUUID().replace(/-/g, '').repeat(2);

/** One deploy of every family that sends JSON, with what a customer would type. */
const deploys = (): Array<[string, Record<string, unknown>]> => [
  ['dash', { txid: `${tx()}-1`, payee: MAINNET.dash }],
  ['bitg', { txid: tx(), payee: freshAddress('bitg', 'P2SH') }],
  ['rtm', { txid: `${tx()}-0` }],
  ['pivx', { txid: `${tx()}-1` }],
  ['sin', { txid: tx(), burntxid: burnTx, burn_output_id: 1 }],
  ['zen42', { txid: freshAddress('zen42') }],
  ['nrg', { txid: freshAddress('nrg') }],
  ['bdx', { txid: `b${'x'.repeat(96)}` }],
  ['playa3ull', { txid: 'LIC-12345' }],
  ['satori', { rewardAddress: MAINNET.evr, neuronCount: 1 }],
  ['defi', { txid: tx() }],
];

/** The node as the fleet leaves a simulated one: live, on its host's address, with no P2P port of its own. */
async function deploySimulated(token: string, coin: string, input: Record<string, unknown>) {
  const ok = await d.caller(token).deploy.deploy_server({ currency: coin, package: 'dedicated', ...input } as never);
  const row = await d.db.selectFrom('nodes').selectAll().where('mn_id', '=', ok.server_id).executeTakeFirstOrThrow();
  const profile = coin === 'dash' || coin === 'bitg' || coin === 'rtm' ? 'simulator-dash' : 'simulator-classic';
  await d.db.updateTable('nodes').set({ state: 'live', simulated: 1 }).where('id', '=', row.id).execute();
  await d.db
    .insertInto('placements')
    .values({ node_id: row.id, daemon_profile: profile, server_ip: IP, p2p_port: null })
    .execute();
  return ok.server_id;
}

const DEPLOYS = deploys();

describe("every family's configuration line on a simulated node", () => {
  it('carries the node’s address and the coin’s P2P port, and no placeholder, in the list, the export and the node page', async () => {
    const owner = await fundedUser(d.deps);
    const ids = new Map<string, string>();
    for (const [coin, input] of DEPLOYS) ids.set(coin, await deploySimulated(owner.token, coin, input));
    await d.caller(owner.token).nodes.update_alias({ mn: ids.get('pivx')!, alias: 'cold one' });

    const list = await d.caller(owner.token).nodes.get_masternodes();
    expect(list.masternodes).toHaveLength(DEPLOYS.length);
    for (const m of list.masternodes) expect(m.output_text, m.currency).not.toMatch(PLACEHOLDER);

    const blocks = exportBlocks(list.masternodes);
    expect(blocks.map((b) => b.currency).sort()).toEqual(['pivx', 'sin']);
    for (const b of blocks) expect(b.text, b.currency).not.toMatch(PLACEHOLDER);
    // The coins' fixed P2P ports (catalog/daemons.json: pivxd 51472, sind 20970).
    expect(blocks.find((b) => b.currency === 'pivx')!.text).toMatch(
      new RegExp(`^cold_one ${IP}:51472 \\S{52} [0-9a-f]{64} 1$`),
    );
    expect(blocks.find((b) => b.currency === 'sin')!.text).toMatch(
      new RegExp(`^sin-\\S+ ${IP}:20970 \\S{52} [0-9a-f]{64} 0 ${burnTx}-1$`),
    );

    for (const [coin] of DEPLOYS) {
      const page = (await d.caller(owner.token).nodes.get_masternode({ masternode: ids.get(coin)! })).data;
      expect(page.output_text, coin).not.toMatch(PLACEHOLDER);
      const conf = page.setup.commands.find((c) => c.label === 'masternode.conf');
      if (conf) expect(conf.text, coin).not.toMatch(PLACEHOLDER);
      // The API's start command is whole or empty; what it still needs is said in words.
      expect(page.start_cmd, coin).not.toMatch(PLACEHOLDER);
      expect(page.start_cmd_missing.join(), coin).not.toMatch(PLACEHOLDER);
      if (page.setup.view === 'dip003' || page.setup.view === 'dip003_restrict') {
        expect(page.start_cmd, coin).toBe('');
        expect(page.start_cmd_missing, coin).toEqual(['owner address', 'voting address']);
        // The command the node page fills carries the node's ip:port.
        const prepare = page.setup.commands.find((c) => c.label === 'Prepare the registration')!;
        expect(prepare.text, coin).toContain(` ${IP}:${coin === 'dash' ? 9999 : 9333} `);
      } else if (page.setup.view === 'quick_setup') {
        expect(page.start_cmd_missing, coin).toEqual(['fee source address']);
        const cmd = page.setup.commands.find((c) => c.label === 'Set up the node from your wallet')!;
        expect(withFeeAddress(cmd.text, MAINNET.rtm), coin).toMatch(
          new RegExp(`^protx quick_setup [0-9a-f]{64} 0 ${IP}:10226 ${MAINNET.rtm}$`),
        );
      } else expect(page.start_cmd_missing, coin).toEqual([]);
    }
  });

  it("the API's start command of a node not yet placed names the node address as missing", async () => {
    const owner = await fundedUser(d.deps);
    const caller = d.caller(owner.token);
    // Fresh entries: an address or txid is never used for a second node.
    for (const [coin, input] of deploys()) {
      const { server_id } = await caller.deploy.deploy_server({
        currency: coin,
        package: 'dedicated',
        ...input,
      } as never);
      const page = (await caller.nodes.get_masternode({ masternode: server_id })).data;
      expect(page.output_text, coin).not.toMatch(PLACEHOLDER);
      expect(page.start_cmd, coin).not.toMatch(PLACEHOLDER);
      expect(page.start_cmd_missing.join(), coin).not.toMatch(PLACEHOLDER);
      // The page's commands name the address's slot, which the page explains; never `{address}`.
      // (The quick-setup fee token is the one the page's own field fills.)
      for (const c of page.setup.commands)
        expect(withFeeAddress(c.text, 'typed'), `${coin} ${c.label}`).not.toMatch(/\{[^}]*\}/);
      if (page.setup.view === 'dip003' || page.setup.view === 'quick_setup' || page.setup.view === 'dip003_restrict')
        expect(page.start_cmd_missing, coin).toContain('node address');
    }
  });
});

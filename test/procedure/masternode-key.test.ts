import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBlocks, exportLine } from '../../src/client/nodes/portfolio';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { secretsAad } from '../../src/server/nodes/node-secrets';
import { makeDeps, offlineFleet, type Deps } from '../support/caller';
import { fundedUser } from '../support/users';

// A classic node's masternode key is the owner's to paste into masternode.conf: sealed in
// nodes.secrets, never in output_text or any other column, and put back into the line only
// on its owner's views (node page, portfolio list, export view).

let d: Deps;
const burnTx = 'b1b1'.padEnd(64, '2');

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
  d.deps.fleet = {
    ...offlineFleet(),
    checkBurn: async (_coin, txid) =>
      txid === burnTx
        ? { ok: true, output_id: 3 }
        : { ok: false, message: 'Burn transaction not found. Check the transaction ID and try again.' },
  };
});
afterAll(() => d.close());

/** Every byte SQLite keeps on disk for this database (main file and write-ahead log). */
function databaseBytes(): string {
  return [d.deps.config.dbFile, `${d.deps.config.dbFile}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}

let nextIp = 10;
async function deployLive(token: string, input: Record<string, unknown>) {
  const ip = `203.0.113.${nextIp++}`;
  const ok = await d.caller(token).deploy.deploy_server({ package: 'dedicated', ...input } as never);
  const mnId = ok.server_id as string;
  // What the fleet does once the node runs: it is live, on its public address.
  const row = await d.db.selectFrom('nodes').selectAll().where('mn_id', '=', mnId).executeTakeFirstOrThrow();
  await d.db.updateTable('nodes').set({ state: 'live' }).where('id', '=', row.id).execute();
  await d.db
    .insertInto('placements')
    .values({ node_id: row.id, daemon_profile: 'simulator-classic', server_ip: ip, p2p_port: 51472 })
    .execute();
  const key = JSON.parse(d.deps.secrets.open(row.secrets!, secretsAad(mnId))).masternode_key as string;
  return { mnId, row, key, ip };
}

describe('the classic masternode key', () => {
  it('is sealed at deploy and no column of the database file holds it in plaintext', async () => {
    const owner = await fundedUser(d.deps);
    const txid = 'c1'.repeat(32);
    const pivx = await deployLive(owner.token, { currency: 'pivx', txid: `${txid}-1` });
    const sin = await deployLive(owner.token, {
      currency: 'sin',
      txid: 'c2'.repeat(32),
      burntxid: burnTx,
      burn_output_id: 3,
    });

    expect(pivx.key).toMatch(/^Y[1-9A-HJ-NP-Za-km-z]{51}$/); // PIVX's prefix 212
    expect(sin.key).toMatch(/^V[1-9A-HJ-NP-Za-km-z]{51}$/); // SIN's prefix 191
    expect(pivx.row.output_text).toBe(`mn1 {address} - ${txid} 1`);
    expect(sin.row.output_text).toBe(`mn1 {address} - ${'c2'.repeat(32)} 0 ${burnTx}-3`);
    // Sealed for its own node only.
    expect(() => d.deps.secrets.open(pivx.row.secrets!, secretsAad(sin.mnId))).toThrow();

    // The search reads the real file: the row's public values are in it.
    expect(databaseBytes()).toContain(txid);
    for (const key of [pivx.key, sin.key]) {
      const row = await d.db.selectFrom('node_view').selectAll().where('mn_id', 'in', [pivx.mnId, sin.mnId]).execute();
      expect(JSON.stringify(row)).not.toContain(key);
      expect(databaseBytes()).not.toContain(key);
    }
  });

  it("the owner's node page, list and export view show the whole masternode.conf line; another user sees nothing", async () => {
    const owner = await fundedUser(d.deps);
    const other = await fundedUser(d.deps);
    const txid = 'c3'.repeat(32);
    const { mnId, key, ip } = await deployLive(owner.token, { currency: 'pivx', txid });
    await d.caller(owner.token).nodes.update_alias({ mn: mnId, alias: 'cold one' });
    const line = `cold_one ${ip}:51472 ${key} ${txid} 0`;

    const page = (await d.caller(owner.token).nodes.get_masternode({ masternode: mnId })).data;
    expect(page.setup.commands).toContainEqual({ label: 'masternode.conf', text: line });
    expect(page.setup.fields).toContainEqual({ label: 'Private key', value: key, secret: true, href: null });
    expect(page.start_cmd).toBe('masternode start-alias cold_one');
    expect(page.output_text).toBe(`mn1 ${ip}:51472 ${key} ${txid} 0`);

    const list = await d.caller(owner.token).nodes.get_masternodes();
    const item = list.masternodes.find((m) => m.mn_id === mnId)!;
    expect(item.output_text).toBe(`mn1 ${ip}:51472 ${key} ${txid} 0`);
    expect(exportLine(item)).toBe(`cold_one ${ip}:51472 ${key} ${txid} 0`);
    expect(exportBlocks(list.masternodes).find((b) => b.currency === 'pivx')!.text).toContain(
      `${ip}:51472 ${key} ${txid} 0`,
    );

    await expect(d.caller(other.token).nodes.get_masternode({ masternode: mnId })).rejects.toThrow(
      'Masternode not found.',
    );
    const theirs = await d.caller(other.token).nodes.get_masternodes();
    expect(JSON.stringify(theirs)).not.toContain(key);
    expect(theirs.masternodes.map((m) => m.mn_id)).not.toContain(mnId);
  });

  it('a key that does not open is left out of the line, never shown half, and logged', async () => {
    const owner = await fundedUser(d.deps);
    const { mnId, row, ip } = await deployLive(owner.token, { currency: 'pivx', txid: 'c4'.repeat(32) });
    // Another node's sealed value copied in: bound to that node, it does not open here.
    const other = await d.db
      .selectFrom('nodes')
      .select('secrets')
      .where('coin_id', '=', 'pivx')
      .where('id', '!=', row.id)
      .where('secrets', 'is not', null)
      .executeTakeFirstOrThrow();
    await d.db.updateTable('nodes').set({ secrets: other.secrets }).where('id', '=', row.id).execute();
    const page = (await d.caller(owner.token).nodes.get_masternode({ masternode: mnId })).data;
    expect(page.setup.commands[0].text).toBe(`${mnId} ${ip}:51472 <masternodeprivkey> ${'c4'.repeat(32)} 0`);
    expect(page.setup.fields.map((f) => f.label)).not.toContain('Private key');
    const item = (await d.caller(owner.token).nodes.get_masternodes()).masternodes.find((m) => m.mn_id === mnId)!;
    expect(item.output_text).toBe(`mn1 ${ip}:51472 - ${'c4'.repeat(32)} 0`);
    expect(d.log.lines.some((l) => l.includes('node secrets do not open') && l.includes(mnId))).toBe(true);
  });
});

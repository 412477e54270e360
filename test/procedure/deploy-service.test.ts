import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINNET } from '../support/addresses';
import { accountBalance, userAccount } from '../../src/server/billing/ledger';
import { OUTPOINT_INVALID } from '../../src/shared/address-check';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { FLEET_FULL } from '../../src/server/nodes/lifecycle';
import type { BurnResult } from '../../src/server/fleet/access';
import { DEPLOY_IN_FLIGHT } from '../../src/server/deploy/in-flight';
import { BURN_MISMATCH, BURN_NOT_CHECKED, BURN_VERIFIED, NO_BURN } from '../../src/server/deploy/service';
import { parseOutputText } from '../../src/server/nodes/output-text';
import { makeDeps, offlineFleet, type Deps } from '../support/caller';
import { fundedUser } from '../support/users';
import { insertTestNode } from '../support/nodes';

// The deploy service through createCaller, with a fleet that places nothing (nodes stay
// `requested`) and a burn checker the test controls: SIN's burn rules, the queue of a
// large deploy, and one deploy per user at a time.

let d: Deps;
const burns = new Map<string, BurnResult>();
const asked: Array<[string, string]> = [];

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
    checkBurn: async (coinId, txid) => {
      asked.push([coinId, txid]);
      return (
        burns.get(txid) ?? { ok: false, message: 'Burn transaction not found. Check the transaction ID and try again.' }
      );
    },
  };
});
afterAll(() => d.close());

const call = (token: string) => d.caller(token);
const burnTx = 'b0b0'.padEnd(64, '1');

describe('SIN: check_burn and the deploy that follows it', () => {
  it('check_burn answers the burn output from the coin daemon, or its message', async () => {
    const { token } = await fundedUser(d.deps);
    burns.set(burnTx, { ok: true, output_id: 2 });
    expect(await call(token).deploy.check_burn({ currency: 'sin', txid: ` ${burnTx} ` })).toEqual({
      success: true,
      message: BURN_VERIFIED,
      output_id: 2,
    });
    expect(asked.at(-1)).toEqual(['sin', burnTx]);
    await expect(call(token).deploy.check_burn({ currency: 'sin', txid: 'f'.repeat(64) })).rejects.toThrow(
      'Burn transaction not found. Check the transaction ID and try again.',
    );
    await expect(call(token).deploy.check_burn({ currency: 'sin', txid: '' })).rejects.toThrow(
      'Burn transaction ID required.',
    );
    await expect(call(token).deploy.check_burn({ currency: 'pivx', txid: burnTx })).rejects.toThrow(NO_BURN('PIVX'));
  });

  it('the deploy checks the burn again and keeps it in the output text', async () => {
    const { token } = await fundedUser(d.deps);
    const txid = 'c0'.repeat(32);
    await expect(call(token).deploy.deploy_server({ currency: 'sin', txid, burntxid: burnTx })).rejects.toThrow(
      BURN_NOT_CHECKED,
    );
    await expect(
      call(token).deploy.deploy_server({ currency: 'sin', txid, burntxid: burnTx, burn_output_id: 0 }),
    ).rejects.toThrow(BURN_MISMATCH);
    await expect(
      call(token).deploy.deploy_server({ currency: 'sin', txid, burntxid: 'e'.repeat(64), burn_output_id: 0 }),
    ).rejects.toThrow(/^Burn transaction not found/);
    expect(await d.db.selectFrom('nodes').select('id').where('coin_id', '=', 'sin').execute()).toEqual([]);
    const ok = await call(token).deploy.deploy_server({ currency: 'sin', txid, burntxid: burnTx, burn_output_id: 2 });
    const node = await d.db.selectFrom('nodes').selectAll().where('mn_id', '=', ok.server_id).executeTakeFirstOrThrow();
    expect(parseOutputText('sin', node.output_text)).toMatchObject({
      kind: 'masternode_conf',
      txid,
      index: 0,
      burn: `${burnTx}-2`,
      address: '{address}',
    });
  });
});

describe('the owner reads the output text with the node address', () => {
  it('{address} becomes the public ip:port once the node has one, a simulated node’s with the coin’s port', async () => {
    const u = await fundedUser(d.deps);
    const host = await d.db.selectFrom('hosts').select('id').executeTakeFirstOrThrow();
    const text = `mn1 {address} - ${'ab'.repeat(32)} 0`;
    await insertTestNode(d.db, {
      mn_id: 'pivx-addr1',
      user_id: u.id,
      coin_id: 'pivx',
      output_text: text,
      status: 'running',
      placement: { host_id: host.id, server_ip: '203.0.113.9', p2p_port: 51472 },
    });
    await insertTestNode(d.db, {
      mn_id: 'pivx-addr2',
      user_id: u.id,
      coin_id: 'pivx',
      output_text: text,
      status: 'running',
      placement: { host_id: host.id, server_ip: '203.0.113.9' },
    });
    const list = await call(u.token).nodes.get_masternodes();
    const of = (id: string) => list.masternodes.find((m) => m.mn_id === id)!.output_text;
    expect(of('pivx-addr1')).toBe(`mn1 203.0.113.9:51472 - ${'ab'.repeat(32)} 0`);
    // No port of its own (a simulated daemon binds none): the coin's fixed P2P port (pivxd 51472).
    expect(of('pivx-addr2')).toBe(`mn1 203.0.113.9:51472 - ${'ab'.repeat(32)} 0`);
    // The stored text keeps the placeholder.
    expect(
      (await d.db.selectFrom('nodes').select('output_text').where('mn_id', '=', 'pivx-addr1').executeTakeFirstOrThrow())
        .output_text,
    ).toBe(text);
  });
});

describe('the build queue', () => {
  it('a deploy of 30 neurons shows one queue item per node while they are set up', async () => {
    const { token } = await fundedUser(d.deps);
    const r = await call(token).deploy.deploy_server({
      currency: 'satori',
      rewardAddress: MAINNET.evr,
      neuronCount: 30,
    });
    const q = await call(token).deploy.get_building_servers();
    expect(q.data).toHaveLength(30);
    expect(new Set(q.data.map((i) => i.mn_id))).toEqual(new Set(r.server_ids));
    expect(
      q.data.every(
        (i) =>
          i.status === 'assigning' &&
          i.currency === 'satori' &&
          i.link === `/dashboard/masternode/${i.mn_id}?tab=config`,
      ),
    ).toBe(true);
    // Another user's queue is theirs alone.
    const other = await fundedUser(d.deps);
    expect((await call(other.token).deploy.get_building_servers()).data).toEqual([]);
  });
});

describe('one deploy per user at a time', () => {
  it('a second deploy while the first is being checked is refused; another user is not held up', async () => {
    const a = await fundedUser(d.deps);
    const b = await fundedUser(d.deps);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = 'd1'.repeat(32);
    burns.set(slow, { ok: true, output_id: 0 });
    let reached!: () => void;
    const checking = new Promise<void>((r) => (reached = r));
    const inner = d.deps.fleet.checkBurn;
    d.deps.fleet = {
      ...d.deps.fleet,
      checkBurn: async (c, t) => (t === slow ? (reached(), await gate, inner(c, t)) : inner(c, t)),
    };
    const first = call(a.token).deploy.deploy_server({
      currency: 'sin',
      txid: 'a1'.repeat(32),
      burntxid: slow,
      burn_output_id: 0,
    });
    // The first deploy is being checked (inside its per-user guard) from here on.
    await checking;
    await expect(call(a.token).deploy.deploy_server({ currency: 'pivx', txid: 'a2'.repeat(32) })).rejects.toThrow(
      DEPLOY_IN_FLIGHT,
    );
    await expect(
      call(b.token).deploy.deploy_server({ currency: 'pivx', txid: 'a2'.repeat(32) }),
    ).resolves.toMatchObject({ success: true });
    release();
    await expect(first).resolves.toMatchObject({ success: true });
    // Finished: the user may deploy again.
    await expect(
      call(a.token).deploy.deploy_server({ currency: 'pivx', txid: 'a3'.repeat(32) }),
    ).resolves.toMatchObject({ success: true });
  });
});

describe('no room in the fleet', () => {
  it('a deploy the fleet cannot take is refused at once with the reason, and nothing is written', async () => {
    const u = await fundedUser(d.deps);
    await d.db.updateTable('hosts').set({ dedicated_slots: 0 }).execute();
    try {
      const before = await d.db.selectFrom('nodes').select('id').execute();
      await expect(call(u.token).deploy.deploy_server({ currency: 'pivx', txid: 'f0'.repeat(32) })).rejects.toThrow(
        FLEET_FULL,
      );
      await expect(
        call(u.token).deploy.deploy_server({ currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 5 }),
      ).rejects.toThrow(FLEET_FULL);
      expect(await d.db.selectFrom('nodes').select('id').execute()).toEqual(before);
    } finally {
      await d.db.updateTable('hosts').set({ dedicated_slots: 100 }).execute();
    }
  });
});

describe("nonsense in a deploy's fields", () => {
  // The issue's own examples: each was accepted and charged (no refunds) before.
  const nonsense: Array<[Record<string, unknown>, string]> = [
    [{ currency: 'dash', txid: 'not-a-txid' }, OUTPOINT_INVALID],
    [{ currency: 'pivx', txid: 'abc' }, OUTPOINT_INVALID],
    [{ currency: 'zen42', txid: 'hello' }, 'This is not a Horizen address: it should start with zn, t1, zs, zt or t3.'],
    [
      { currency: 'satori', rewardAddress: 'abc', neuronCount: 1 },
      'This is not an Evrmore address: it should start with E or e.',
    ],
    [
      { currency: 'firo', txid: 'ab'.repeat(32), payee: 'notanaddress' },
      'This is not a Firo address: it should start with Z, a, 3 or 4.',
    ],
  ];

  it.each(nonsense)(
    '%j is refused with what is wrong, 100 times at once, and nothing is charged or written',
    async (input, message) => {
      const u = await fundedUser(d.deps);
      const before = await accountBalance(d.db, userAccount(u.id));
      const send = () =>
        call(u.token).deploy.deploy_server(input as Parameters<ReturnType<typeof call>['deploy']['deploy_server']>[0]);
      await expect(send()).rejects.toThrow(message);
      const answers = await Promise.allSettled(Array.from({ length: 100 }, send));
      // Each is refused: with the field's message, or (the guard of one deploy at a time) told to wait.
      for (const a of answers) {
        expect(a.status).toBe('rejected');
        expect([message, DEPLOY_IN_FLIGHT]).toContain((a as PromiseRejectedResult).reason.message);
      }
      expect(await accountBalance(d.db, userAccount(u.id))).toBe(before);
      expect(await d.db.selectFrom('nodes').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
    },
  );
});

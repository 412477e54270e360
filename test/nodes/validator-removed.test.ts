import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, dayOf, dayStart } from '../../src/server/billing/charge-days';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { pruneAll } from '../../src/server/housekeeping/prune';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { destroyNode } from '../../src/server/nodes/node-ops';
import { systemActor } from '../../src/server/operator/log';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, fundedUser, type FreshUser } from '../support/users';
import { waitFor } from '../support/wait';

// Before any validator is destroyed (unpaid fees, an operator, its owner) it is stopped and
// its EIP-3076 slashing-protection file kept for the owner for 30 days, against the running
// platform with the simulator on fast clocks.

const dataDir = tempDataDir('nodekeep-removed-');
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(fastFleetEnv(dataDir), { dataDir });
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const get = async (p: string, u: FreshUser) => {
  const r = await fetch(s.url + p, { headers: { authorization: `Bearer ${u.token}` } });
  return { status: r.status, body: await r.json() };
};
const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
const simNodes = async () =>
  ((await fetch(`http://127.0.0.1:${simPort()}/admin/nodes`).then((r) => r.json())) as { nodes: string[] }).nodes;
const stateOf = async (mn: string) =>
  (await s.deps.db.selectFrom('nodes').select('state').where('mn_id', '=', mn).executeTakeFirstOrThrow()).state;

let seq = 0;
async function liveValidator(u: FreshUser, coinId: 'eth' | 'gno' = 'eth') {
  const pubkey = (++seq).toString(16).padStart(2, '0').repeat(48);
  const fee = '0x' + 'b'.repeat(40);
  const n = await requestNode(
    s.deps.db,
    { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true },
    { userId: u.id, coinId, plan: 'dedicated' },
    { validator_pubkey: pubkey, fee_recipient: fee, output_text: JSON.stringify({ pubkey, fee_recipient: fee }) },
  );
  await s.fleet.reconcile();
  await waitFor(
    async () => (await stateOf(n.mn_id)) === 'live' && (await simNodes()).includes(n.mn_id),
    20_000,
    'validator live',
  );
  return { mn: n.mn_id, pubkey };
}

function expectInterchange(json: string, pubkey: string) {
  const file = JSON.parse(json);
  expect(file.metadata.interchange_format_version).toBe('5');
  expect(file.metadata.genesis_validators_root).toMatch(/^0x[0-9a-f]{64}$/);
  expect(file.data).toHaveLength(1);
  expect(file.data[0].pubkey).toBe(`0x${pubkey}`);
  // At least the wall clock's slot on Ethereum's chain: nothing signed here is signed again.
  const wallSlot = Math.floor((Date.now() / 1000 - 1_606_824_023) / 12);
  expect(Number(file.data[0].signed_blocks[0].slot)).toBeGreaterThanOrEqual(wallSlot);
  const att = file.data[0].signed_attestations[0];
  expect(Number(att.source_epoch)).toBeLessThanOrEqual(Number(att.target_epoch));
}

describe('a destroyed validator leaves its slashing-protection file', () => {
  it(
    'destroyed for unpaid fees: the file is kept 30 days for its owner only, the notice and mail lead to it',
    { timeout: 90_000 },
    async () => {
      const owner = await freshUser(s.deps, { prefix: 'vown' });
      const other = await fundedUser(s.deps, { prefix: 'voth' });
      const { mn, pubkey } = await liveValidator(owner);
      // Nothing kept while it runs.
      expect((await get('/api/removed_validators', owner)).body).toEqual({ success: true, data: [] });

      // Tomorrow's charge finds no money: the node is destroyed through the fleet.
      const tomorrow = dayStart(dayOf(Date.now())) + DAY_MS + 30_000;
      await runDailyCharge(
        {
          db: s.deps.db,
          log: s.deps.log,
          afterChunk: (destroyed) => {
            void s.deps.mail.kick();
            if (destroyed) void s.fleet.reconcile();
          },
        },
        tomorrow,
      );
      await waitFor(async () => (await stateOf(mn)) === 'deleted', 20_000, 'destroyed by the engine');
      expect(await simNodes()).not.toContain(mn);

      // The node's page is gone, its file is not.
      expect((await get(`/api/get_masternode?masternode=${mn}`, owner)).status).toBe(404);
      const list = (await get('/api/removed_validators', owner)).body;
      expect(list.data).toHaveLength(1);
      const item = list.data[0];
      expect(item).toMatchObject({
        mn_id: mn,
        coin: 'eth',
        reason: 'Hosting fees not covered by the balance',
        file_name: `slashing-protection-${pubkey.slice(0, 12)}.json`,
      });
      expect(item.kept_until - item.removed_at).toBe(30 * DAY_MS);
      const file = await get(`/api/slashing_protection_file?masternode=${mn}`, owner);
      expect(file.status).toBe(200);
      expect(file.body.file_name).toBe(item.file_name);
      expectInterchange(file.body.json, pubkey);

      // Another customer: not found, and nothing listed.
      const theirs = await get(`/api/slashing_protection_file?masternode=${mn}`, other);
      expect(theirs).toEqual({
        status: 404,
        body: { success: false, message: 'No slashing-protection file is kept for this node.' },
      });
      expect((await get('/api/removed_validators', other)).body.data).toEqual([]);

      // The notice and its mail lead to the file.
      const note = await s.deps.db
        .selectFrom('notifications')
        .select(['message', 'link'])
        .where('user_id', '=', owner.id)
        .where('kind', '=', 'node_destroyed_unpaid')
        .executeTakeFirstOrThrow();
      expect(note.message).toContain('slashing-protection file is kept for you for 30 days under Removed nodes');
      expect(note.link).toBe('/dashboard/portfolio#removed-nodes');
      const mail = await waitFor(
        () =>
          s.deps.db
            .selectFrom('mail_outbox')
            .select('text')
            .where('to_addr', '=', owner.email)
            .where('subject', 'like', '%destroyed for unpaid fees')
            .executeTakeFirst(),
        20_000,
        'the mail',
      );
      expect(mail.text).toContain('/dashboard/portfolio#removed-nodes');

      // Kept past the node's own row (pruned after a week) until its 30 days are over.
      await pruneAll(s.deps.db, Date.now() + 29 * DAY_MS);
      expect((await get(`/api/slashing_protection_file?masternode=${mn}`, owner)).status).toBe(200);
      await pruneAll(s.deps.db, Date.now() + 30 * DAY_MS + 60_000);
      expect((await get(`/api/slashing_protection_file?masternode=${mn}`, owner)).status).toBe(404);
      expect((await get('/api/removed_validators', owner)).body.data).toEqual([]);
    },
  );

  it('destroyed by an operator or deleted by its owner: the file is kept too', { timeout: 90_000 }, async () => {
    const owner = await fundedUser(s.deps, { prefix: 'vop' });
    const a = await liveValidator(owner, 'gno');
    await destroyNode(s.deps.db, systemActor('test operator'), a.mn, 'host retired');
    await s.fleet.reconcile();
    await waitFor(async () => (await stateOf(a.mn)) === 'deleted', 20_000, 'destroyed by the engine');
    const b = await liveValidator(owner);
    const del = await fetch(s.url + '/api/delete_masternode', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mn: b.mn, reason: 'I will deploy another node' }),
    }).then((r) => r.json());
    const list = (await get('/api/removed_validators', owner)).body.data;
    expect(list.map((r: { mn_id: string }) => r.mn_id).sort()).toEqual([a.mn, b.mn].sort());
    const gno = JSON.parse((await get(`/api/slashing_protection_file?masternode=${a.mn}`, owner)).body.json);
    expect(gno.metadata.genesis_validators_root).toBe(
      '0xf5dcb5564e829aab27264b9becd5dfaa017085611224cb3036f573368dbb9d47',
    );
    expect(gno.data[0].pubkey).toBe(`0x${a.pubkey}`);
    // The owner's delete answers the very file that is kept.
    const kept = (await get(`/api/slashing_protection_file?masternode=${b.mn}`, owner)).body.json;
    expect(del.slashing_protection).toBe(kept);
    expectInterchange(kept, b.pubkey);
  });
});

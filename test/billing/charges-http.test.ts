import fs from 'node:fs';
import { MAINNET } from '../support/addresses';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS, dayOf, dayStart, initialChargeAmount } from '../../src/server/billing/charge-days';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { PLATFORM, accountBalance, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { currentPrices } from '../../src/server/coins/prices';
import { findCoin } from '../../src/server/coins/queries';
import { requestNode } from '../../src/server/nodes/lifecycle';
import { pidsMatching } from '../support/daemons';
import { fastFleetEnv } from '../support/fast-fleet';
import { nodeCharges } from '../support/nodes';
import { byStatus, loopback, requestFrom } from '../support/from-ip';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { waitFor } from '../support/wait';

// Charges against the running platform: 100 deploys at once from 100 addresses, by
// owners of whom only some can pay the first day; and a node whose fees are not covered
// destroyed by the daily charge through the fleet (the simulator really stops it), its
// owner told in-app and by mail.

const dataDir = tempDataDir('nodekeep-charges-');
let s: TestServer;
beforeAll(async () => {
  // Users funded by the operator, not by a paid deposit: the free-account limits (test/attack/free-limits) are not this test's subject.
  s = await startTestServer(
    { ...fastFleetEnv(dataDir), FREE_NODE_LIMIT: '1000', FREE_CAPACITY_SHARE: '100%' },
    { dataDir },
  );
});
afterAll(async () => {
  await stopTestServer(s);
  expect(pidsMatching(dataDir)).toEqual([]);
});

const fund = (userId: number, amount: number) =>
  s.deps.db.transaction().execute((trx) =>
    postTransfer(trx, {
      idempotencyKey: `fund:${userId}:${amount}:${Math.random()}`,
      debit: PLATFORM.adjustments,
      credit: userAccount(userId),
      amount,
      kind: 'adjustment',
      description: 'test funds',
    }),
  );
const balance = (userId: number) => accountBalance(s.deps.db, userAccount(userId));

it(
  '100 deploys at once from 100 addresses: exactly the owners who can pay the first day get a node, the others the Billing message and nothing written',
  { timeout: 180_000 },
  async () => {
    const price = currentPrices((await findCoin(s.deps.db, 'satori'))!).dedicated;
    const users: FreshUser[] = [];
    for (let i = 0; i < 100; i += 10)
      users.push(...(await Promise.all(Array.from({ length: 10 }, () => freshUser(s.deps, { prefix: 'pay' })))));
    // 30 can pay a whole day; 35 are short by a thousandth of a cent ... and 35 have nothing.
    // The first day's charge shrinks toward midnight: in its last minutes "short" is half of
    // it (seconds later, at the deploy, it is still more than that), in its last seconds the
    // test waits for the next day (the event is midnight itself, not a guessed 30 s), whose
    // charge is a whole day's.
    if (initialChargeAmount(price, Date.now()) < 100)
      await new Promise((r) => setTimeout(r, dayStart(dayOf(Date.now())) + DAY_MS - Date.now() + 1));
    const initial = initialChargeAmount(price, Date.now());
    const short = initial > 2000 ? initial - 1000 : Math.floor(initial / 2);
    const can = new Set(users.slice(0, 30).map((u) => u.id));
    for (const u of users.slice(0, 30)) await fund(u.id, price);
    for (const u of users.slice(30, 65)) await fund(u.id, short);
    const before = new Map(await Promise.all(users.map(async (u) => [u.id, await balance(u.id)] as const)));

    const answers = await Promise.all(
      users.map((u, i) =>
        requestFrom(loopback(i, 7000), `${s.url}/api/deploy_server`, {
          body: { currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 },
          token: u.token,
        }),
      ),
    );
    expect(byStatus(answers)).toEqual({ 200: 30, 400: 70 });
    for (const [i, u] of users.entries()) {
      const a = answers[i];
      const nodes = await s.deps.db
        .selectFrom('nodes')
        .select(['id', 'hosting_price', 'created_at'])
        .where('user_id', '=', u.id)
        .execute();
      if (can.has(u.id)) {
        expect(a.body.success, a.body.message).toBe(true);
        expect(nodes).toHaveLength(1);
        expect(await balance(u.id)).toBe(price - initialChargeAmount(nodes[0].hosting_price, nodes[0].created_at));
      } else {
        expect(a.body).toEqual({
          success: false,
          message: expect.stringMatching(
            /^Your balance does not cover this node's first day of hosting \(\$0\.\d\d\)\. Add funds on the Billing page\.$/,
          ),
        });
        expect(nodes).toEqual([]);
        expect(await balance(u.id)).toBe(before.get(u.id));
      }
    }
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  },
);

it(
  'a node whose fee is not covered is destroyed through the fleet, its owner told in-app and by mail; nothing is charged for it afterwards',
  { timeout: 60_000 },
  async () => {
    const u = await freshUser(s.deps, { prefix: 'unpaid' });
    const deps = { profiles: s.deps.fleet.profiles, log: s.deps.log, simulator: true };
    const paid = await requestNode(s.deps.db, deps, { userId: u.id, coinId: 'pivx', plan: 'dedicated' });
    const unpaid = await requestNode(s.deps.db, deps, { userId: u.id, coinId: 'pivx', plan: 'dedicated' });
    await s.fleet.reconcile();
    const simPort = () => fs.readFileSync(path.join(dataDir, 'fleet', 'local', '_simulator', 'port'), 'utf8');
    const simNodes = async () =>
      ((await fetch(`http://127.0.0.1:${simPort()}/admin/nodes`).then((r) => r.json())) as { nodes: string[] }).nodes;
    const stateOf = async (mn: string) =>
      (await s.deps.db.selectFrom('nodes').select('state').where('mn_id', '=', mn).executeTakeFirstOrThrow()).state;
    await waitFor(
      async () =>
        (await stateOf(unpaid.mn_id)) === 'live' &&
        (await stateOf(paid.mn_id)) === 'live' &&
        (await simNodes()).includes(unpaid.mn_id),
      20_000,
      'both live',
    );
    await fund(u.id, paid.hosting_price); // one day of one node

    // Tomorrow's charge, as the job runs it (its after-commit hooks poke the fleet).
    const tomorrow = dayStart(dayOf(Date.now())) + DAY_MS + 30_000;
    const afterChunk = (destroyed: boolean) => {
      void s.deps.hub.poke();
      void s.deps.mail.kick();
      if (destroyed) void s.fleet.reconcile();
    };
    // (The first test's owners are charged too: their nodes' fees are uncovered as well.)
    await runDailyCharge({ db: s.deps.db, log: s.deps.log, afterChunk }, tomorrow);
    const chargesOf = async (id: number) => (await nodeCharges(s.deps.db, id)).map((c) => c.day);
    expect(await chargesOf(paid.id)).toEqual([dayOf(tomorrow)]);
    expect(await chargesOf(unpaid.id)).toEqual([]);
    expect(await balance(u.id)).toBe(0);

    await waitFor(async () => (await stateOf(unpaid.mn_id)) === 'deleted', 20_000, 'destroyed by the engine');
    expect(await simNodes()).not.toContain(unpaid.mn_id);
    expect(await simNodes()).toContain(paid.mn_id);
    const note = await s.deps.db
      .selectFrom('notifications')
      .select('message')
      .where('user_id', '=', u.id)
      .where('kind', '=', 'node_destroyed_unpaid')
      .execute();
    expect(note).toEqual([
      { message: `Your PIVX node ${unpaid.mn_id} was destroyed because its hosting fees were not paid.` },
    ]);
    const mail = await waitFor(
      () =>
        s.deps.db
          .selectFrom('mail_outbox')
          .select(['subject', 'status'])
          .where('to_addr', '=', u.email)
          .where('subject', 'like', '%destroyed for unpaid fees')
          .executeTakeFirst(),
      20_000,
      'the mail',
    );
    expect(mail.subject).toBe('Your PIVX node was destroyed for unpaid fees');

    // The day after, with money again: the destroyed node is not charged.
    await fund(u.id, 10_000_000);
    await runDailyCharge({ db: s.deps.db, log: s.deps.log }, tomorrow + DAY_MS);
    expect(await chargesOf(unpaid.id)).toEqual([]);
    expect(await chargesOf(paid.id)).toHaveLength(2);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  },
);

import { MAINNET } from '../support/addresses';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { currentPrices } from '../../src/server/coins/prices';
import { findCoin } from '../../src/server/coins/queries';
import type { DB } from '../../src/server/db/open';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { adjustBalance } from '../../src/server/billing/adjust';
import { DAY_MS, dayOf, dayStart, initialChargeAmount, nextDay } from '../../src/server/billing/charge-days';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { takeBack } from '../../src/server/billing/debt';
import { PLATFORM, accountBalance, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { remindIfLow } from '../../src/server/billing/runway';
import { systemActor } from '../../src/server/operator/log';
import { makeDeps, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser } from '../support/users';

// The low-balance reminder (issue 24 item 6) under a faked clock: raised whenever the
// runway falls under 3 days (a deploy, a charge, a payment taken back, an operator's
// debit), at most once per UTC day (once more that day only to say which nodes go at
// 00:00 UTC and what keeps them), and always before any node is destroyed.

const open: Deps[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const d of open.splice(0)) await d.close();
});
async function deps(): Promise<Deps> {
  const d = await makeDeps();
  open.push(d);
  Object.assign(d.deps.config, { freeNodeLimit: 1000, freeCapacityBasisPoints: 10_000 });
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  return d;
}

const TODAY = '2026-11-20';
const at = (day: string, hms = '00:00:30') => Date.parse(`${day}T${hms}.000Z`);
/** The faked clock: only Date moves (SQLite, timers and promises run as they do). */
function clock(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
}

async function fund(db: DB, userId: number, micros: number) {
  await db.transaction().execute((trx) =>
    postTransfer(trx, {
      idempotencyKey: `fund:${userId}:${Math.random()}`,
      debit: PLATFORM.adjustments,
      credit: userAccount(userId),
      amount: micros,
      kind: 'adjustment',
      description: 'test funds',
    }),
  );
}
const notes = (db: DB, userId: number) =>
  db
    .selectFrom('notifications')
    .select(['id', 'kind', 'message', 'created_at'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['low_balance', 'node_destroyed_unpaid'])
    .orderBy('id')
    .execute();
const reminders = async (db: DB, userId: number) =>
  (await notes(db, userId)).filter((n) => n.kind === 'low_balance').map((n) => n.message);

describe('the low-balance reminder', () => {
  it('after a deploy, once a day; again that day only to name the nodes that go at 00:00 UTC and what keeps them', async () => {
    const d = await deps();
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
    const u = await freshUser(d.deps);
    const daily = currentPrices((await findCoin(d.db, 'satori'))!).dedicated;
    const deploy = () =>
      d.caller(u.token).deploy.deploy_server({ currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: 1 });

    // Noon: the first day's half plus 2.5 days after it.
    clock(at(TODAY, '12:00:00'));
    await fund(d.db, u.id, initialChargeAmount(daily, Date.now()) + (5 * daily) / 2);
    await deploy();
    expect(await reminders(d.db, u.id)).toHaveLength(1);
    expect((await reminders(d.db, u.id))[0]).toMatch(
      /^Your balance is \$\d+\.\d\d: enough for 2 days 12 hours of hosting at \$\d+\.\d\d a day\. Add funds to keep your nodes running\.$/,
    );

    // A second deploy the same day halves the runway: no second reminder that day.
    clock(at(TODAY, '13:00:00'));
    await fund(d.db, u.id, initialChargeAmount(daily, Date.now()));
    await deploy();
    expect(await reminders(d.db, u.id)).toHaveLength(1);

    // A card payment taken back leaves less than the next charge: told once more, with the nodes and the amount.
    clock(at(TODAY, '14:00:00'));
    const balance = await accountBalance(d.db, userAccount(u.id));
    await d.db.transaction().execute((trx) =>
      takeBack(trx, {
        userId: u.id,
        amount: balance - daily / 2,
        idempotencyKey: 'refund:test',
        kind: 'card_refund',
        description: 'Card payment refunded',
      }),
    );
    const nodes = await d.db
      .selectFrom('nodes')
      .select(['id', 'mn_id'])
      .where('user_id', '=', u.id)
      .orderBy('id')
      .execute();
    const usd = (micros: number) => `$${(Math.ceil(micros / 10_000) / 100).toFixed(2)}`;
    const short = await reminders(d.db, u.id);
    expect(short).toHaveLength(2);
    expect(short[1]).toBe(
      `Your balance of ${usd(daily / 2)} does not cover the next daily charge of ${usd(2 * daily)} at 00:00 UTC. ` +
        `Add at least ${usd(2 * daily - daily / 2)} before then, or these 2 nodes will be destroyed: ` +
        `Satori Network node ${nodes[0].mn_id}, Satori Network node ${nodes[1].mn_id}.`,
    );
    // An operator's debit the same day: nothing more that day.
    await adjustBalance(d.db, systemActor('test'), { userId: u.id, amount: -1, reason: 'test debit', key: 'k1' });
    expect(await reminders(d.db, u.id)).toHaveLength(2);

    // 00:00 UTC: both go, each after the warnings.
    const next = nextDay(TODAY);
    await runDailyCharge({ db: d.db, log: d.log }, at(next));
    const all = await notes(d.db, u.id);
    expect(all.map((n) => n.kind)).toEqual([
      'low_balance',
      'low_balance',
      'node_destroyed_unpaid',
      'node_destroyed_unpaid',
    ]);
  });

  it('falls day by day under the daily charge: reminded each day from 3 days left, the last naming exactly the nodes destroyed', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    // The demo's customer: 14 nodes at $0.15 a day ($2.10), $10.00 to begin with.
    const start = dayOf(dayStart(TODAY) - 10 * DAY_MS);
    const made: string[] = [];
    for (let i = 0; i < 14; i++) {
      const mn_id = `dash-r${i}`;
      await insertTestNode(d.db, {
        mn_id,
        user_id: u.id,
        coin_id: 'dash',
        created_at: at(start),
        state: 'live',
        hosting_price: 150_000,
        deleted_at: null,
        failed_reason: null,
      });
      made.push(mn_id);
    }
    await fund(d.db, u.id, 10_000_000);
    const days = [TODAY, nextDay(TODAY), nextDay(nextDay(TODAY)), nextDay(nextDay(nextDay(TODAY)))];
    const seen: Record<string, string[]> = {};
    for (const day of days) {
      // Twice a day: the second run reminds no one again.
      await runDailyCharge({ db: d.db, log: d.log }, at(day));
      await runDailyCharge({ db: d.db, log: d.log }, at(day, '18:00:00'));
      seen[day] = await reminders(d.db, u.id);
    }
    // $7.90 (3 days 18 hours): none; $5.80: 2 days 18 hours; $3.70: 1 day 18 hours.
    expect(seen[days[0]]).toEqual([]);
    expect(seen[days[1]]).toEqual([
      'Your balance is $5.80: enough for 2 days 18 hours of hosting at $2.10 a day. Add funds to keep your nodes running.',
    ]);
    expect(seen[days[2]]).toHaveLength(2);
    // $1.60 pays 10 of the 14 tomorrow: the 4 newest go unless $0.50 comes in.
    expect(seen[days[3]].at(-1)).toBe(
      'Your balance of $1.60 does not cover the next daily charge of $2.10 at 00:00 UTC. Add at least $0.50 before then, ' +
        `or these 4 nodes will be destroyed: ${made
          .slice(10)
          .map((m) => `Dash node ${m}`)
          .join(', ')}.`,
    );
    const destroyDay = nextDay(days[3]);
    await runDailyCharge({ db: d.db, log: d.log }, at(destroyDay));
    const gone = await d.db
      .selectFrom('nodes')
      .select('mn_id')
      .where('user_id', '=', u.id)
      .where('deleted_at', 'is not', null)
      .orderBy('id')
      .execute();
    expect(gone.map((n) => n.mn_id)).toEqual(made.slice(10));
    const all = await notes(d.db, u.id);
    const firstDestroyed = all.findIndex((n) => n.kind === 'node_destroyed_unpaid');
    expect(all.slice(0, firstDestroyed).every((n) => n.kind === 'low_balance')).toBe(true);
    expect(firstDestroyed).toBe(3);
  });

  it('100 triggers at once raise one reminder', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    await insertTestNode(d.db, {
      mn_id: 'dash-p1',
      user_id: u.id,
      coin_id: 'dash',
      created_at: at(TODAY),
      state: 'live',
      hosting_price: 1_000_000,
      deleted_at: null,
      failed_reason: null,
    });
    await fund(d.db, u.id, 2_000_000);
    const raised = await Promise.all(
      Array.from({ length: 100 }, () =>
        d.db.transaction().execute((trx) => remindIfLow(trx, u.id, at(TODAY, '09:00:00'))),
      ),
    );
    expect(raised.filter(Boolean)).toHaveLength(1);
    expect(await reminders(d.db, u.id)).toEqual([
      'Your balance is $2.00: enough for 2 days of hosting at $1.00 a day. Add funds to keep your nodes running.',
    ]);
  });
});

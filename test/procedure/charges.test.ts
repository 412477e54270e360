import { sql } from 'kysely';
import { MAINNET } from '../support/addresses';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import { ConfigError, loadConfig } from '../../src/server/kernel/config';
import { currentPrices } from '../../src/server/coins/prices';
import { findCoin } from '../../src/server/coins/queries';
import { openDatabase, type DB } from '../../src/server/db/open';
import { insertHost } from '../../src/server/nodes/fleet-queries';
import { JobRunner } from '../../src/server/jobs/runner';
import { DAY_MS, dayOf, dayStart, initialChargeAmount, nextDay } from '../../src/server/billing/charge-days';
import {
  UNPAID_REASON,
  chargeOneDay,
  runDailyCharge,
  scheduleDailyCharge,
} from '../../src/server/billing/daily-charge';
import { chargeMismatches } from '../../src/server/billing/charge-queries';
import { notCovered } from '../../src/server/billing/initial-charge';
import { PLATFORM, accountBalance, ledgerMismatches, postTransfer, userAccount } from '../../src/server/billing/ledger';
import { paySignupCredit } from '../../src/server/billing/signup-credit';
import { memoryLogger } from '../../src/server/kernel/log';
import { makeDeps, offlineFleet, type Deps } from '../support/caller';
import { insertTestNode, nodeCharges } from '../support/nodes';
import { freshUser } from '../support/users';

// The Charges part of billing on real SQLite files: the Initial Charge in the deploy's
// transaction and its refusal, the daily charge (once per node and day under reruns,
// two runners and catch-up), deletion, unpaid nodes destroyed, reminders, sign-up credit.

const open: Deps[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const d of open.splice(0)) await d.close();
});
async function deps(): Promise<Deps> {
  const d = await makeDeps();
  open.push(d);
  // These users are funded by the operator (not a paid deposit); the free-account limits are deploy-free-limits' subject.
  Object.assign(d.deps.config, { freeNodeLimit: 1000, freeCapacityBasisPoints: 10_000 });
  await importCatalog(d.db, bundledCatalogPath(), 'seed');
  return d;
}

const TODAY = '2026-11-20';
const at = (day: string, hms = '00:00:30') => Date.parse(`${day}T${hms}.000Z`);
const before = (day: string, n: number) => dayOf(dayStart(day) - n * DAY_MS);

async function fund(db: DB, userId: number, micros: number, key = `fund:${userId}:${micros}:${Math.random()}`) {
  await db.transaction().execute((trx) =>
    postTransfer(trx, {
      idempotencyKey: key,
      debit: PLATFORM.adjustments,
      credit: userAccount(userId),
      amount: micros,
      kind: 'adjustment',
      description: 'test funds',
    }),
  );
}
async function drain(db: DB, userId: number) {
  const b = await accountBalance(db, userAccount(userId));
  if (b > 0)
    await db.transaction().execute((trx) =>
      postTransfer(trx, {
        idempotencyKey: `drain:${userId}:${Math.random()}`,
        debit: userAccount(userId),
        credit: PLATFORM.adjustments,
        amount: b,
        kind: 'adjustment',
        description: 'test drain',
      }),
    );
}
let seq = 0;
async function node(
  db: DB,
  userId: number,
  opts: {
    created: number;
    price?: number;
    state?: 'live' | 'failed' | 'deleting';
    deleted_at?: number;
    failed_reason?: string;
  },
) {
  const mn_id = `dash-c${++seq}`;
  const id = await insertTestNode(db, {
    mn_id,
    user_id: userId,
    coin_id: 'dash',
    created_at: opts.created,
    state: opts.state ?? 'live',
    hosting_price: opts.price ?? 330_000,
    deleted_at: opts.deleted_at ?? null,
    failed_reason: opts.failed_reason ?? null,
  });
  return { id, mn_id };
}
const chargesOf = nodeCharges;
const dailyTransfers = (db: DB, userId: number) =>
  db
    .selectFrom('ledger_transfers')
    .select(['amount', 'description'])
    .where('kind', '=', 'daily_charge')
    .where('debit_account', '=', userAccount(userId))
    .orderBy('id')
    .execute();
const balance = (db: DB, userId: number) => accountBalance(db, userAccount(userId));
const run = (d: Deps, now: number, chunk?: number) => runDailyCharge({ db: d.db, log: d.log, chunk }, now);

describe('Initial Charge', () => {
  it('is the daily price times the share of the UTC day left, rounded down to the micro-dollar', () => {
    expect(initialChargeAmount(330_000, at(TODAY, '00:00:00'))).toBe(330_000);
    expect(initialChargeAmount(330_000, at(TODAY, '12:00:00'))).toBe(165_000);
    expect(initialChargeAmount(63_000, at(TODAY, '06:00:00'))).toBe(47_250);
    // 330000 x 1/3 of a day = 110000 exactly; one millisecond later rounds down.
    expect(initialChargeAmount(330_000, at(TODAY, '16:00:00'))).toBe(110_000);
    expect(initialChargeAmount(330_000, at(TODAY, '16:00:00') + 1)).toBe(109_999);
    expect(initialChargeAmount(330_000, at(TODAY, '23:59:59') + 999)).toBe(0);
    // Past 2^53 in the product (a $5,000/day node): still exact.
    expect(initialChargeAmount(5_000_000_000, at(TODAY, '08:00:00'))).toBe(3_333_333_333);
  });

  it('is paid in the deploy; a deploy the balance cannot cover is refused with nothing written', async () => {
    // The expected charge is computed before the deploy: a UTC midnight between the two
    // would make the deploy's first day whole and its charge larger. The clock is pinned
    // at noon of today (only Date; timers and I/O stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: dayStart(dayOf(Date.now())) + DAY_MS / 2 });
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
    const deploy = (n: number) =>
      d.caller(u.token).deploy.deploy_server({ currency: 'satori', rewardAddress: MAINNET.evr, neuronCount: n });

    const snapshot = async () => ({
      nodes: (await d.db.selectFrom('nodes').select('id').where('user_id', '=', u.id).execute()).length,
      transfers: (await d.db.selectFrom('ledger_transfers').select('id').execute()).length,
      events: (await d.db.selectFrom('events').select('id').where('user_id', '=', u.id).execute()).length,
      balance: await balance(d.db, u.id),
    });
    const empty = await snapshot();
    const refused = await deploy(1).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(refused).toMatch(
      /^Your balance does not cover this node's first day of hosting \(\$\d+\.\d\d\)\. Add funds on the Billing page\.$/,
    );
    expect(await snapshot()).toEqual(empty);

    // Enough for two nodes' first day, not three: three refused whole, two taken.
    const daily = currentPrices((await findCoin(d.db, 'satori'))!).dedicated;
    const first = initialChargeAmount(daily, Date.now()); // a later node pays no more
    await fund(d.db, u.id, 2 * first);
    const funded = await snapshot();
    await expect(deploy(3)).rejects.toThrow(/^Your balance does not cover these 3 nodes' first day of hosting/);
    expect(await snapshot()).toEqual(funded);
    const ok = await deploy(2);
    const made = await d.db
      .selectFrom('nodes')
      .select(['id', 'mn_id', 'hosting_price', 'created_at'])
      .where('user_id', '=', u.id)
      .execute();
    expect(made.map((n) => n.mn_id).sort()).toEqual([...ok.server_ids].sort());
    let paid = 0;
    for (const n of made) {
      const t = await d.db
        .selectFrom('ledger_transfers')
        .selectAll()
        .where('idempotency_key', '=', `initial-charge:${n.id}`)
        .executeTakeFirstOrThrow();
      expect(t).toMatchObject({
        kind: 'initial_charge',
        debit_account: userAccount(u.id),
        credit_account: PLATFORM.revenue,
        amount: initialChargeAmount(n.hosting_price, n.created_at),
      });
      expect(t.description).toMatch(/^Initial Charge: /);
      paid += t.amount;
    }
    expect(await balance(d.db, u.id)).toBe(2 * first - paid);
    // The owner hears of the new balance once for the deploy.
    const ev = await d.db
      .selectFrom('events')
      .select('type')
      .where('user_id', '=', u.id)
      .where('type', '=', 'update_balance')
      .execute();
    expect(ev.length).toBe(2); // the funding, the deploy
    expect(await ledgerMismatches(d.db)).toEqual([]);
  });

  it('the message names the amount rounded up to the cent', () => {
    expect(notCovered(1, 164_999)).toBe(
      "Your balance does not cover this node's first day of hosting ($0.17). Add funds on the Billing page.",
    );
    expect(notCovered(4, 1_000_000)).toBe(
      "Your balance does not cover these 4 nodes' first day of hosting ($1.00). Add funds on the Billing page.",
    );
  });
});

describe('daily charge', () => {
  it('charges each node once for the day, whatever its status, however often it runs (also two runners at once)', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    await fund(d.db, u.id, 100_000_000);
    const y = before(TODAY, 1);
    const live = await node(d.db, u.id, { created: at(y, '13:00:00') });
    const setUp = await node(d.db, u.id, { created: at(y, '23:59:59') });
    await d.db.updateTable('nodes').set({ state: 'requested' }).where('id', '=', setUp.id).execute();
    const today = await node(d.db, u.id, { created: at(TODAY, '00:00:00') });
    const failed = await node(d.db, u.id, {
      created: at(y, '01:00:00'),
      state: 'failed',
      failed_reason: 'No capacity',
    });

    const out = await run(d, at(TODAY));
    expect(out).toEqual([{ day: TODAY, charged: 2, destroyed: 0 }]);
    expect(await chargesOf(d.db, live.id)).toEqual([{ day: TODAY, amount: 330_000 }]);
    // One line in the owner's history for the day: the sum of the nodes' fees.
    expect(await dailyTransfers(d.db, u.id)).toEqual([
      { amount: 660_000, description: `Daily charge: 2 nodes (${TODAY})` },
    ]);
    expect(await chargesOf(d.db, setUp.id)).toHaveLength(1);
    expect(await chargesOf(d.db, today.id)).toEqual([]); // created at 00:00: its Initial Charge paid the day
    expect(await chargesOf(d.db, failed.id)).toEqual([]);
    const after = await balance(d.db, u.id);
    expect(after).toBe(100_000_000 - 2 * 330_000);

    // Rerun, a restart (a new connection), and two runs at once (their chunks interleave;
    // two processes at once: test/billing/charges-crash.test.ts).
    await run(d, at(TODAY, '10:00:00'));
    const other = openDatabase(d.deps.config.dbFile);
    try {
      await runDailyCharge({ db: other, log: memoryLogger() }, at(TODAY, '11:00:00'));
    } finally {
      await other.destroy();
    }
    await d.db.deleteFrom('charge_days').execute(); // as if the day's record were lost: only the keys guard now
    await Promise.all([run(d, at(TODAY), 1), run(d, at(TODAY), 1)]);
    expect(await chargesOf(d.db, live.id)).toHaveLength(1);
    expect(await chargesOf(d.db, setUp.id)).toHaveLength(1);
    expect(await balance(d.db, u.id)).toBe(after);
    expect(await dailyTransfers(d.db, u.id)).toHaveLength(1);
    expect(await ledgerMismatches(d.db)).toEqual([]);
    expect(await chargeMismatches(d.db)).toEqual([]);
    // The check sees a node's fee that no transfer holds.
    await d.db.insertInto('node_charges').values({ day: TODAY, user_id: u.id, node_id: today.id, amount: 1 }).execute();
    expect(await chargeMismatches(d.db)).toEqual([{ user_id: u.id, day: TODAY, transfers: 660_000, fees: 660_001 }]);
  });

  it('goes owner by owner, about `chunk` nodes per transaction, whole owners unless one has more, and tells each owner once per chunk', async () => {
    const d = await deps();
    const owners = [await freshUser(d.deps), await freshUser(d.deps), await freshUser(d.deps), await freshUser(d.deps)];
    for (const u of owners) await fund(d.db, u.id, 50_000_000);
    // Node ids interleave the owners (they deploy at different times): 3, 3, 10 and 2 nodes.
    const counts = [3, 3, 10, 2];
    const ids: number[] = [];
    for (let i = 0; ids.length < 18; i++) {
      const o = i % 4;
      if (counts[o]-- > 0) ids.push((await node(d.db, owners[o].id, { created: at(before(TODAY, 2)) })).id);
    }
    const seen: number[] = [];
    await chargeOneDay({ db: d.db, log: d.log, chunk: 5, onChunk: (_, c) => seen.push(c) }, TODAY, at(TODAY));
    // 5 rows read: the first owner's 3 and 2 of the second's: the second waits for the next chunk;
    // the third has more than 5: it comes alone, 5 nodes at a time (a transfer each).
    const [a, b, c, dd] = owners.map((u) => u.id);
    expect(seen).toEqual([a, b, c, c, dd]);
    for (const id of ids) expect(await chargesOf(d.db, id)).toHaveLength(1);
    expect((await dailyTransfers(d.db, c)).map((t) => t.amount)).toEqual([5 * 330_000, 5 * 330_000]);
    expect((await dailyTransfers(d.db, a)).map((t) => t.description)).toEqual([`Daily charge: 3 nodes (${TODAY})`]);
    for (const u of owners) {
      const ev = await d.db
        .selectFrom('events')
        .select('user_id')
        .where('type', '=', 'update_balance')
        .where('user_id', '=', u.id)
        .execute();
      expect(ev.length).toBe(1 + (u.id === c ? 2 : 1)); // funding + one per chunk that charged them
    }
    expect((await d.db.selectFrom('charge_days').selectAll().executeTakeFirstOrThrow()).completed_at).not.toBeNull();
    expect(await chargeMismatches(d.db)).toEqual([]);
  });

  it('catches up the days missed while down, day by day, and a deletion stops the charges from the next day', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    await fund(d.db, u.id, 100_000_000);
    const d3 = before(TODAY, 3);
    const d2 = before(TODAY, 2);
    const d1 = before(TODAY, 1);
    const old = await node(d.db, u.id, { created: at(before(TODAY, 10)) });
    // Deleted during d2: charged for d2 (it existed at 00:00), never after.
    const gone = await node(d.db, u.id, {
      created: at(before(TODAY, 10)),
      state: 'deleting',
      deleted_at: at(d2, '15:00:00'),
    });
    // Deleted during d3 (before the missed days): nothing.
    const early = await node(d.db, u.id, {
      created: at(before(TODAY, 10)),
      state: 'deleting',
      deleted_at: at(d3, '09:00:00'),
    });
    // Created during d1: its first daily charge is for today.
    const late = await node(d.db, u.id, { created: at(d1, '18:00:00') });
    await d.db
      .insertInto('charge_days')
      .values({ day: d3, started_at: at(d3), completed_at: at(d3) })
      .execute();

    const out = await run(d, at(TODAY, '07:00:00'));
    expect(out.map((o) => o.day)).toEqual([d2, d1, TODAY]);
    expect((await chargesOf(d.db, old.id)).map((c) => c.day)).toEqual([d2, d1, TODAY]);
    expect((await chargesOf(d.db, gone.id)).map((c) => c.day)).toEqual([d2]);
    expect(await chargesOf(d.db, early.id)).toEqual([]);
    expect((await chargesOf(d.db, late.id)).map((c) => c.day)).toEqual([TODAY]);
    expect((await dailyTransfers(d.db, u.id)).map((t) => t.description)).toEqual([
      `Daily charge: 2 nodes (${d2})`,
      `Daily charge: ${old.mn_id} (${d1})`,
      `Daily charge: 2 nodes (${TODAY})`,
    ]);

    // The next day: only what is still there.
    await run(d, at(nextDay(TODAY)));
    expect(await chargesOf(d.db, old.id)).toHaveLength(4);
    expect(await chargesOf(d.db, gone.id)).toHaveLength(1);
    const days = await d.db
      .selectFrom('charge_days')
      .select('day')
      .where('completed_at', 'is not', null)
      .orderBy('day')
      .execute();
    expect(days.map((r) => r.day)).toEqual([d3, d2, d1, TODAY, nextDay(TODAY)]);
  });

  it('first run ever charges today only; runs on the job runner (two runners, once)', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    await fund(d.db, u.id, 10_000_000);
    const n = await node(d.db, u.id, { created: Date.now() - 3 * DAY_MS });
    const runners = [new JobRunner(d.db, d.log), new JobRunner(d.db, d.log)];
    try {
      for (const r of runners) scheduleDailyCharge(r, { ...d.deps, fleet: offlineFleet() });
      await Promise.all(runners.flatMap((r) => [r.trigger('billing.daily_charge'), r.trigger('billing.daily_charge')]));
    } finally {
      for (const r of runners) await r.stop(0);
    }
    expect(d.log.lines.filter((l) => l.includes('job failed'))).toEqual([]);
    expect((await chargesOf(d.db, n.id)).map((c) => c.day)).toEqual([dayOf(Date.now())]);
  });
});

describe('requests during the charge', () => {
  it('are answered between chunks, not after the whole run', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    await fund(d.db, u.id, 1_000_000_000_000);
    const created = at(before(TODAY, 2));
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO nodes (mn_id, user_id, coin_id, package, state, hosting_price, created_at, state_at)
      SELECT 'dash-load' || i, ${u.id}, 'dash', 'dedicated', 'live', 330000, ${created}, ${created} FROM n`.execute(
      d.db,
    );
    let running = true;
    const waits: number[] = [];
    let duringRun = 0;
    // A request's worth of reads every 10 ms while the charge runs, as the API would make them.
    const load = (async () => {
      while (running) {
        const t = performance.now();
        await d.caller(u.token).billing.get_balance();
        waits.push(performance.now() - t);
        if (running) duringRun++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const t0 = performance.now();
    const [out] = await run(d, at(TODAY));
    const runMs = performance.now() - t0;
    running = false;
    await load;
    expect(out.charged).toBe(20_000);
    // 20 chunks: the reads got in between them, none waited for the whole run.
    expect(duringRun).toBeGreaterThanOrEqual(10);
    expect(Math.max(...waits)).toBeLessThan(Math.max(1000, runMs / 2));
  });
});

describe('uncovered fees', () => {
  it('pays the oldest nodes first, destroys the ones left unpaid, tells the owner in-app and by mail, and never charges them again', async () => {
    const d = await deps();
    const u = await freshUser(d.deps);
    const y = before(TODAY, 1);
    const a = await node(d.db, u.id, { created: at(y, '01:00:00'), price: 400_000 });
    const b = await node(d.db, u.id, { created: at(y, '02:00:00'), price: 400_000 });
    const c = await node(d.db, u.id, { created: at(y, '03:00:00'), price: 100_000 });
    await fund(d.db, u.id, 550_000); // a (400k), not b, then c (100k) still fits
    const out = await run(d, at(TODAY));
    expect(out).toEqual([{ day: TODAY, charged: 2, destroyed: 1 }]);
    expect(await balance(d.db, u.id)).toBe(50_000);
    expect(await chargesOf(d.db, a.id)).toHaveLength(1);
    expect(await chargesOf(d.db, b.id)).toEqual([]);
    expect(await chargesOf(d.db, c.id)).toHaveLength(1);
    expect(await dailyTransfers(d.db, u.id)).toEqual([
      { amount: 500_000, description: `Daily charge: 2 nodes (${TODAY})` },
    ]);
    const row = await d.db.selectFrom('nodes').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'deleting', delete_reason: UNPAID_REASON, deleted_at: dayStart(TODAY) });
    const notes = await d.db
      .selectFrom('notifications')
      .select(['kind', 'message'])
      .where('user_id', '=', u.id)
      .where('kind', '=', 'node_destroyed_unpaid')
      .execute();
    expect(notes).toEqual([
      {
        kind: 'node_destroyed_unpaid',
        message: `Your Dash node ${b.mn_id} was destroyed because its hosting fees were not paid.`,
      },
    ]);
    const mailJobs = await d.db.selectFrom('jobs').select('name').where('name', '=', 'notify.mail').execute();
    expect(mailJobs.length).toBeGreaterThanOrEqual(1);

    // Rerun the day after a top-up: the destroyed node is not charged, nor tomorrow.
    await fund(d.db, u.id, 10_000_000);
    await d.db.deleteFrom('charge_days').execute();
    await run(d, at(TODAY));
    await run(d, at(nextDay(TODAY)));
    expect(await chargesOf(d.db, b.id)).toEqual([]);
    expect(await chargesOf(d.db, a.id)).toHaveLength(2);
    expect(
      await d.db.selectFrom('notifications').select('id').where('kind', '=', 'node_destroyed_unpaid').execute(),
    ).toHaveLength(1);
    expect(await ledgerMismatches(d.db)).toEqual([]);
    expect(await chargeMismatches(d.db)).toEqual([]);
  });
});

describe('low-balance reminders', () => {
  it('from under 3 days of fees left, once per UTC day', async () => {
    const d = await deps();
    const low = await freshUser(d.deps);
    const fine = await freshUser(d.deps);
    for (const u of [low, fine]) await node(d.db, u.id, { created: at(before(TODAY, 5)), price: 1_000_000 });
    await fund(d.db, low.id, 3_500_000); // 2.5 days left after today's charge
    await fund(d.db, fine.id, 4_000_000); // 3 days left: not yet
    await run(d, at(TODAY));
    await run(d, at(TODAY, '18:00:00'));
    await d.db.updateTable('charge_days').set({ reminded_at: null }).execute(); // as if the mark were lost: the per-user key holds
    await run(d, at(TODAY, '19:00:00'));
    const remindersOf = (userId: number) =>
      d.db
        .selectFrom('notifications')
        .select('message')
        .where('user_id', '=', userId)
        .where('kind', '=', 'low_balance')
        .execute();
    expect(await remindersOf(low.id)).toEqual([
      {
        message:
          'Your balance is $2.50: enough for 2 days 12 hours of hosting at $1.00 a day. Add funds to keep your nodes running.',
      },
    ]);
    // And by mail: the reminder's mail job is queued with it.
    const [note] = await d.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', low.id)
      .where('kind', '=', 'low_balance')
      .execute();
    expect(
      await d.db.selectFrom('jobs').select('key').where('key', '=', `notify.mail:${note.id}`).execute(),
    ).toHaveLength(1);
    expect(await remindersOf(fine.id)).toEqual([]);
    await run(d, at(nextDay(TODAY)));
    expect(await remindersOf(low.id)).toHaveLength(2);
    expect(await remindersOf(fine.id)).toHaveLength(1); // 2 days left now
  });
});

describe('sign-up credit', () => {
  it('is paid once, when the email is verified', async () => {
    const d = await deps();
    d.deps.config.signupCreditMicros = 2_500_000;
    const u = await freshUser(d.deps);
    expect(await balance(d.db, u.id)).toBe(2_500_000);
    expect(await d.db.transaction().execute((trx) => paySignupCredit(trx, u.id, 2_500_000))).toBe(false);
    expect(await balance(d.db, u.id)).toBe(2_500_000);
    const t = await d.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('idempotency_key', '=', `signup-credit:${u.id}`)
      .executeTakeFirstOrThrow();
    expect(t).toMatchObject({ debit_account: PLATFORM.signupCredit, kind: 'signup_credit' });
    const unverified = await freshUser(d.deps, { verified: false });
    expect(await balance(d.db, unverified.id)).toBe(0);
    d.deps.config.signupCreditMicros = 0;
    const none = await freshUser(d.deps);
    expect(await balance(d.db, none.id)).toBe(0);
  });
});

describe('bad input', () => {
  it('SIGNUP_CREDIT_USD must be a plain USD amount; a bad day is refused', () => {
    expect(loadConfig({}).signupCreditMicros).toBe(0);
    expect(loadConfig({ SIGNUP_CREDIT_USD: '2.5' }).signupCreditMicros).toBe(2_500_000);
    for (const bad of ['-1', 'abc', '1.1234567', '1e3', '10000000', ' 5'])
      expect(() => loadConfig({ SIGNUP_CREDIT_USD: bad }), bad).toThrow(ConfigError);
    expect(() => dayStart('2026-13-45')).toThrow(RangeError);
    expect(() => dayStart('yesterday')).toThrow(RangeError);
  });
});

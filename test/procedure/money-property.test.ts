import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { DAY_MS, dayOf, dayStart, nextDay } from '../../src/server/billing/charge-days';
import { chargeMismatches } from '../../src/server/billing/charge-queries';
import { giftCodeHash, giftCodeHint, normalizeGiftCode } from '../../src/server/billing/coupons/codes';
import { insertGiftCodes } from '../../src/server/billing/coupons/queries';
import { runDailyCharge } from '../../src/server/billing/daily-charge';
import { creditDeposit } from '../../src/server/billing/deposit';
import { BONUS_HOLD_MS } from '../../src/server/referrals/bonus';
import { matureReferralBonuses } from '../../src/server/referrals/mature';
import { chargeInitial } from '../../src/server/billing/initial-charge';
import { ledgerMismatches } from '../../src/server/billing/ledger';
import { bundledCatalogPath, importCatalog } from '../../src/server/coins/import';
import type { DB } from '../../src/server/db/open';
import { AppError } from '../../src/server/kernel/errors';
import { markDestroy } from '../../src/server/nodes/lifecycle';
import { systemActor } from '../../src/server/operator/log';
import { makeDeps, type Deps } from '../support/caller';
import { insertTestNode } from '../support/nodes';
import { freshUser, type FreshUser } from '../support/users';

// The money rules as one property: a seeded random sequence of deposits (some replayed),
// gift codes (some used twice), referrals, deploys with their Initial Charge, deletions,
// and days passing with their daily charge (some run twice), through the real services.
// After every step: no balance below zero, the sum over all accounts zero, the counters
// equal the transfers, each owner's daily transfers equal their nodes' fees, no node
// charged twice for a day or for a day it did not exist, no node left unpaid on a charged
// day, at most one referral bonus per referred user. A failure reproduces with the seed.

const SEED = Number(process.env.MONEY_PROPERTY_SEED ?? 20261124);
const STEPS = 300;
let d: Deps;
afterAll(() => d?.close());

async function invariants(db: DB, step: string): Promise<void> {
  const q = async <T>(text: ReturnType<typeof sql<T>>) => (await text.execute(db)).rows;
  expect(
    await q(sql`SELECT account FROM ledger_accounts WHERE account LIKE 'user:%' AND credits < debits`),
    `${step}: a balance below zero`,
  ).toEqual([]);
  expect(
    (await q<{ s: number }>(sql`SELECT coalesce(sum(credits - debits), 0) AS s FROM ledger_accounts`))[0].s,
    `${step}: accounts sum to zero`,
  ).toBe(0);
  expect(
    await q(sql`SELECT id FROM ledger_transfers WHERE amount <= 0 OR debit_account = credit_account`),
    `${step}: unbalanced transfer`,
  ).toEqual([]);
  expect(await ledgerMismatches(db), step).toEqual([]);
  expect(await chargeMismatches(db), step).toEqual([]);
  // Charged only for days a node existed at 00:00 and was not deleted before.
  expect(
    await q(sql`SELECT c.node_id, c.day FROM node_charges c JOIN nodes n ON n.id = c.node_id
      WHERE n.created_at >= (unixepoch(c.day) * 1000) OR (n.deleted_at IS NOT NULL AND n.deleted_at <= unixepoch(c.day) * 1000)`),
    `${step}: a fee for a day the node did not exist`,
  ).toEqual([]);
  // Every node that existed on a completed day paid it, or was destroyed at that day's start.
  expect(
    await q(sql`SELECT n.id, d.day FROM charge_days d JOIN nodes n
      ON n.created_at < unixepoch(d.day) * 1000 AND (n.deleted_at IS NULL OR n.deleted_at > unixepoch(d.day) * 1000) AND n.failed_reason IS NULL AND n.hosting_price > 0
      WHERE d.completed_at IS NOT NULL AND d.day > '2026-11-01'
        AND NOT EXISTS (SELECT 1 FROM node_charges c WHERE c.node_id = n.id AND c.day = d.day)`),
    `${step}: a node hosted unpaid`,
  ).toEqual([]);
  expect(
    await q(
      sql`SELECT credit_account FROM ledger_transfers WHERE kind = 'referral_bonus' GROUP BY meta ->> 'referred_user_id' HAVING count(*) > 1`,
    ),
    `${step}: bonus twice`,
  ).toEqual([]);
}

it(
  `holds every money invariant over ${STEPS} random steps of deposits, gift codes, referrals, deploys, deletions and daily charges (seed ${SEED})`,
  { timeout: 120_000 },
  async () => {
    d = await makeDeps();
    await importCatalog(d.db, bundledCatalogPath(), 'seed');
    let seed = SEED;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];

    const users: FreshUser[] = [];
    for (let i = 0; i < 5; i++) users.push(await freshUser(d.deps, { prefix: `mp${i}` }));
    // The first user referred the others.
    await d.db
      .updateTable('users')
      .set({ referrer_id: users[0].id })
      .where(
        'id',
        'in',
        users.slice(1).map((u) => u.id),
      )
      .execute();

    let day = '2026-11-10';
    let now = dayStart(day) + 3600_000;
    await d.db
      .insertInto('charge_days')
      .values({ day: dayOf(dayStart(day) - DAY_MS), started_at: 0, completed_at: 0 })
      .execute();
    const depositKeys: string[] = [];
    const codes: string[] = [];
    const nodes: Array<{ id: number; mn_id: string; user_id: number }> = [];
    const counts: Record<string, number> = {};

    for (let i = 0; i < STEPS; i++) {
      const u = pick(users);
      const r = rand();
      let step: string;
      if (r < 0.25) {
        // A deposit, or a replay of an earlier one (same key: credited once).
        const replay = depositKeys.length > 0 && rand() < 0.2;
        const key = replay ? pick(depositKeys) : `prop-dep:${i}`;
        const amount = 1 + Math.floor(rand() * 25_000_000);
        const base = { userId: u.id, amount, idempotencyKey: key, description: 'Deposit' };
        const input =
          rand() < 0.5
            ? { ...base, via: 'crypto' as const }
            : { ...base, via: 'card' as const, card: { fingerprint: null } };
        await d.db.transaction().execute((trx) => creditDeposit(trx, input));
        if (!replay) depositKeys.push(key);
        step = replay ? 'deposit replay' : 'deposit';
      } else if (r < 0.35) {
        // A gift code: a new one, or one already redeemed.
        const reuse = codes.length > 0 && rand() < 0.3;
        let code: string;
        if (reuse) code = pick(codes);
        else {
          code = `PROP-${i}-${Math.floor(rand() * 1e9)}`;
          const n = normalizeGiftCode(code);
          await insertGiftCodes(d.db, [
            {
              code_hash: giftCodeHash(n),
              hint: giftCodeHint(n),
              amount: 1 + Math.floor(rand() * 5_000_000),
              expires_at: now + 30 * DAY_MS,
              batch: 'prop',
            },
          ]);
          codes.push(code);
        }
        try {
          await d.caller(u.token).billing.redeem_coupon({ code });
          expect(reuse, 'a used code redeemed again').toBe(false);
        } catch (err) {
          expect(err).toBeInstanceOf(Error);
          expect((err as Error).message).toMatch(/already used|Too many gift code attempts/);
        }
        step = reuse ? 'gift code reused' : 'gift code';
      } else if (r < 0.6) {
        // A deploy: the node and its Initial Charge in one transaction, refused when the balance cannot pay.
        const price = pick([63_000, 330_000, 1_000_000, 2_500_000]);
        const mn_id = `dash-prop${i}`;
        try {
          const id = await d.db.transaction().execute(async (trx) => {
            const id = await insertTestNode(trx, {
              mn_id,
              user_id: u.id,
              coin_id: 'dash',
              state: 'live',
              hosting_price: price,
              created_at: now,
            });
            await chargeInitial(trx, u.id, [
              { id, mn_id, user_id: u.id, hosting_price: price, created_at: now, alias: null },
            ]);
            return id;
          });
          nodes.push({ id, mn_id, user_id: u.id });
          step = 'deploy';
        } catch (err) {
          expect(err).toBeInstanceOf(AppError);
          expect(
            await d.db.selectFrom('nodes').select('id').where('mn_id', '=', mn_id).executeTakeFirst(),
          ).toBeUndefined();
          step = 'deploy refused';
        }
      } else if (r < 0.7 && nodes.length) {
        const n = pick(nodes);
        await d.db.transaction().execute((trx) => markDestroy(trx, n, systemActor('property test'), 'prop', now));
        step = 'delete';
      } else {
        // Time passes to the next day (a few hours in); its charge runs, sometimes twice, or not
        // yet (the platform was down): the next run catches up, charging what existed each day.
        day = nextDay(day);
        now = dayStart(day) + Math.floor(rand() * 6) * 3600_000 + 30_000;
        if (rand() < 0.25) step = 'day, charge not run';
        else {
          await runDailyCharge({ db: d.db, log: d.log, chunk: 1 + Math.floor(rand() * 4) }, now);
          if (rand() < 0.3) await runDailyCharge({ db: d.db, log: d.log }, now + 60_000);
          step = 'day';
        }
      }
      counts[step] = (counts[step] ?? 0) + 1;
      await invariants(d.db, `step ${i} (${step}, ${day})`);
    }
    // The run exercised every kind of step, and charged and destroyed something.
    for (const k of [
      'deposit',
      'deposit replay',
      'gift code',
      'gift code reused',
      'deploy',
      'deploy refused',
      'delete',
      'day',
      'day, charge not run',
    ])
      expect(counts[k], `${k} in ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    expect(await d.db.selectFrom('node_charges').select('node_id').execute()).not.toHaveLength(0);
    expect(
      await d.db
        .selectFrom('nodes')
        .select('id')
        .where('delete_reason', '=', 'Hosting fees not covered by the balance')
        .execute(),
    ).not.toHaveLength(0);
    // Referral bonuses are held 14 days (in real time) before they are paid: once every hold is over, they are paid once each.
    await matureReferralBonuses(d.deps, Date.now() + BONUS_HOLD_MS + 60_000);
    await invariants(d.db, 'after the referral holds');
    expect(
      await d.db.selectFrom('ledger_transfers').select('id').where('kind', '=', 'referral_bonus').execute(),
    ).not.toHaveLength(0);
  },
);

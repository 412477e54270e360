import type { AppDeps } from '../context';
import type { DB } from '../db/open';
import { findCoin } from '../coins/queries';
import { markDestroy } from '../fleet/service';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../log';
import { afterRaise, raise } from '../notifications/raise';
import { dayOf, dayStart, nextDay } from './charge-days';
import { chargeDay, chargeableNodes, chargedAlready, completeChargeDay, firstOpenDay, insertNodeCharges, insertOwnerCharges, markReminded, moveChargeCursor, nextOwnersToCharge, openChargeDay, type OwedFee, type OwnerCharge } from './charge-queries';
import { PLATFORM, balancesChanged, userBalances, type MoneyTx } from './ledger';
import { remindLowBalances } from './reminders';

/** Why a node destroyed by the daily charge went (kept on the node, like an owner's reason). */
export const UNPAID_REASON = 'Hosting fees not covered by the balance';

export type DailyChargeDeps = {
  db: DB;
  log: Logger;
  /** After each chunk commits: deliver its live events and mail; `destroyed`: let the fleet remove the nodes now. */
  afterChunk?(destroyed: boolean): void;
  /** Nodes per transaction (default 1000): each is a short write, requests go in between. */
  chunk?: number;
  /** For the crash test: called after each committed chunk. */
  onChunk?(day: string, cursor: number): void;
};

export type DayOutcome = { day: string; charged: number; destroyed: number };

/**
 * The daily charge: every day from the one after the last completed (or, on the first
 * run, today) up to today, in order, so a day missed while the platform was down is
 * charged when it starts again; then today's low-balance reminders. Safe to run twice at
 * once or after a crash (keys and the per-day cursor; see `chargeOneDay`).
 */
export async function runDailyCharge(deps: DailyChargeDeps, now = Date.now(), signal?: AbortSignal): Promise<DayOutcome[]> {
  const today = dayOf(now);
  const { afterCompleted, oldestOpen } = await firstOpenDay(deps.db);
  let day = afterCompleted ? nextDay(afterCompleted) : (oldestOpen ?? today);
  const out: DayOutcome[] = [];
  for (; day <= today; day = nextDay(day)) {
    const o = await chargeOneDay(deps, day, now, signal);
    if (o.charged || o.destroyed) deps.log.info('daily charge done', { ...o });
    out.push(o);
  }
  // Once per day, after its charges (a run cut before this sends them on the next tick).
  const state = await chargeDay(deps.db, today);
  if (state?.completed_at != null && state.reminded_at === null) {
    await remindLowBalances(deps, today, now, signal);
    await markReminded(deps.db, today, now);
  }
  return out;
}

/**
 * One day's charges, owner by owner, about `chunk` nodes per transaction. In each: every
 * owner's fees for the day as ONE transfer (an owner with more nodes than a chunk gets one
 * per chunk), and each node's fee as a row keyed by node and day (`node_charges`), written
 * together, so a rerun writes nothing twice; a node whose owner's balance cannot pay it is
 * destroyed (docs/decisions.md "Uncovered fees": the oldest nodes are paid first, each
 * later one that the rest of the balance still covers is paid too); the cursor (the last
 * owner and node done) moves with the chunk, so a crash resumes after the last committed
 * chunk. Between chunks the event loop runs (requests, other jobs). docs/decisions.md
 * "One daily-charge line per owner and day" says why per owner.
 */
export async function chargeOneDay(deps: DailyChargeDeps, day: string, now: number, signal?: AbortSignal): Promise<DayOutcome> {
  const start = dayStart(day);
  const size = deps.chunk ?? 1000;
  const outcome: DayOutcome = { day, charged: 0, destroyed: 0 };
  await openChargeDay(deps.db, day, now);
  for (;;) {
    signal?.throwIfAborted();
    const step = await deps.db.transaction().execute(async (trx) => {
      // Read in the write transaction (BEGIN IMMEDIATE): two runners take turns, never the same chunk twice.
      const state = await chargeDay(trx, day);
      if (!state || state.completed_at !== null) return null;
      const owed = await nextOwnersToCharge(trx, start, { user: state.cursor, node: state.cursor_node }, size);
      if (!owed) {
        await completeChargeDay(trx, day, now);
        return null;
      }
      const last = owed[owed.length - 1];
      const r = await chargeOwners(trx, owed, day, start, now);
      await moveChargeCursor(trx, day, { user: last.user_id, node: last.id });
      return { ...r, cursor: last.user_id };
    });
    if (!step) return outcome;
    outcome.charged += step.charged;
    outcome.destroyed += step.destroyed;
    deps.afterChunk?.(step.destroyed > 0);
    deps.onChunk?.(day, step.cursor);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A chunk of whole owners (by owner, oldest node first): their fees, their transfers, their unpaid nodes destroyed. */
async function chargeOwners(trx: MoneyTx, owed: OwedFee[], day: string, start: number, now: number) {
  const done = await chargedAlready(trx, day, owed[0].user_id, owed[owed.length - 1].user_id);
  const balances = await userBalances(trx, [...new Set(owed.map((n) => n.user_id))]);
  const paid: OwedFee[] = [];
  const unpaid: number[] = [];
  const totals = new Map<number, { amount: number; nodes: number[] }>();
  for (const n of owed) {
    if (done.has(n.id)) continue;
    const left = balances.get(n.user_id)!;
    if (n.hosting_price > left) {
      unpaid.push(n.id);
      continue;
    }
    balances.set(n.user_id, left - n.hosting_price);
    paid.push(n);
    const t = totals.get(n.user_id) ?? { amount: 0, nodes: [] };
    t.amount += n.hosting_price;
    t.nodes.push(n.id);
    totals.set(n.user_id, t);
  }
  // Names for the history: a single node's alias (or id); several are counted.
  const single = [...totals.values()].filter((t) => t.nodes.length === 1).map((t) => t.nodes[0]);
  const named = new Map((await chargeableNodes(trx, [...single, ...unpaid])).map((n) => [n.id, n]));
  const charges: OwnerCharge[] = [...totals].map(([userId, t]) => {
    const one = t.nodes.length === 1 ? named.get(t.nodes[0]) : undefined;
    const what = one ? (one.alias ?? one.mn_id) : `${t.nodes.length} nodes`;
    return { userId, firstNodeId: t.nodes[0], amount: t.amount, description: `Daily charge: ${what} (${day})` };
  });
  const fees = await insertNodeCharges(trx, day, paid);
  const transfers = await insertOwnerCharges(trx, day, charges, now, PLATFORM.revenue);
  // Both keys are new by construction (the cursor, `chargedAlready`); anything else is a bug: write nothing.
  if (fees !== paid.length || transfers !== charges.length) {
    throw new Error(`daily charge ${day}: wrote ${fees}/${paid.length} node fees and ${transfers}/${charges.length} transfers; rolled back`);
  }
  await balancesChanged(trx, [...totals.keys()]);
  let destroyed = 0;
  for (const id of unpaid) {
    const n = named.get(id)!;
    // Unpaid from the start of this day: charged neither today nor after (charge-queries `chargedOn`).
    if (await markDestroy(trx, n, 'daily charge', UNPAID_REASON, start)) {
      destroyed++;
      const coin = await findCoin(trx, n.coin_id);
      await raise(trx, n.user_id, 'node_destroyed_unpaid', { mn_id: n.mn_id, coin: coin?.label ?? n.coin_id, alias: n.alias });
    }
  }
  return { charged: paid.length, destroyed };
}

/**
 * The recurring job `billing.daily_charge`: at start (a day missed while down is caught
 * up) and every minute after, which costs two reads while the day is done and charges
 * within a minute of 00:00 UTC whatever the machine's time zone.
 */
export function scheduleDailyCharge(jobs: JobRunner, deps: Pick<AppDeps, 'db' | 'log' | 'hub' | 'mail' | 'fleet'>): void {
  const afterChunk = (destroyed: boolean) => {
    afterRaise(deps);
    if (destroyed) void deps.fleet.reconcile().catch((err) => deps.log.warn('reconcile after unpaid destroy failed', { err }));
  };
  jobs.every('billing.daily_charge', {
    everyMs: 60_000,
    atStart: true,
    // Resumable (the cursor): a run cut at its deadline goes on at the next tick.
    deadlineMs: 30 * 60_000,
    run: async (signal) => {
      await runDailyCharge({ db: deps.db, log: deps.log, afterChunk }, Date.now(), signal);
    },
  });
}

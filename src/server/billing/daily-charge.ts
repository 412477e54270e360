import type { AppDeps } from '../context';
import type { DB } from '../db/open';
import { findCoin } from '../coins/queries';
import { markDestroy } from '../fleet/service';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../log';
import { afterRaise, raise } from '../notifications/raise';
import { systemActor } from '../operator/log';
import { dailyChargeKey, dayOf, dayStart, nextDay } from './charge-days';
import { chargeDay, completeChargeDay, firstOpenDay, insertDailyCharges, markReminded, moveChargeCursor, nodesChargedOn, nodesChargedOnUpTo, openChargeDay } from './charge-queries';
import { InsufficientFunds, PLATFORM, balancesChanged, postTransfer, userAccount, type MoneyTx } from './ledger';
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
 * One day's charges, `chunk` nodes per transaction, oldest node first. In each: every
 * node's fee as a transfer keyed by node and day (a rerun writes nothing twice); a node
 * whose owner's balance cannot pay it is destroyed (docs/decisions.md "Uncovered fees":
 * the oldest nodes are paid first, each later one that the rest of the balance still
 * covers is paid too); the cursor moves with the chunk, so a crash resumes after the
 * last committed chunk. Between chunks the event loop runs (requests, other jobs).
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
      const nodes = await nodesChargedOn(trx, start, state.cursor, size);
      if (!nodes.length) {
        await completeChargeDay(trx, day, now);
        return null;
      }
      const r = await chargeChunk(trx, nodes, day, start, state.cursor, now);
      await moveChargeCursor(trx, day, nodes[nodes.length - 1].id);
      return { ...r, cursor: nodes[nodes.length - 1].id };
    });
    if (!step) return outcome;
    outcome.charged += step.charged;
    outcome.destroyed += step.destroyed;
    deps.afterChunk?.(step.destroyed > 0);
    deps.onChunk?.(day, step.cursor);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function chargeChunk(trx: MoneyTx, chunk: Array<{ id: number; user_id: number }>, day: string, start: number, after: number, now: number) {
  const upTo = chunk[chunk.length - 1].id;
  // Every owner can pay (the common case): the chunk in one statement.
  try {
    const charged = await insertDailyCharges(trx, day, start, after, upTo, now, PLATFORM.revenue);
    if (charged) await balancesChanged(trx, [...new Set(chunk.map((n) => n.user_id))]);
    return { charged, destroyed: 0 };
  } catch (err) {
    if (!(err instanceof Error && err.message.includes('user_balance_not_negative'))) throw err;
    // An owner cannot pay: the statement wrote nothing; node by node, oldest first.
  }
  const nodes = await nodesChargedOnUpTo(trx, start, after, upTo);
  const touched = new Set<number>();
  let charged = 0;
  let destroyed = 0;
  for (const n of nodes) {
    try {
      const written = await postTransfer(trx, {
        idempotencyKey: dailyChargeKey(n.id, day),
        debit: userAccount(n.user_id),
        credit: PLATFORM.revenue,
        amount: n.hosting_price,
        kind: 'daily_charge',
        description: `Daily charge: ${n.alias ?? n.mn_id} (${day})`,
        quiet: true,
      });
      if (written) {
        charged++;
        touched.add(n.user_id);
      }
    } catch (err) {
      if (!(err instanceof InsufficientFunds)) throw err;
      // Unpaid from the start of this day: charged neither today nor after (charge-queries `nodesChargedOn`).
      if (await markDestroy(trx, n, systemActor('daily charge'), UNPAID_REASON, start)) {
        destroyed++;
        const coin = await findCoin(trx, n.coin_id);
        await raise(trx, n.user_id, 'node_destroyed_unpaid', { mn_id: n.mn_id, coin: coin?.label ?? n.coin_id, alias: n.alias });
      }
    }
  }
  await balancesChanged(trx, [...touched]);
  return { charged, destroyed };
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

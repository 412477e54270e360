import type { AppDeps } from '../rpc/context';
import type { DB } from '../db/open';
import { findCoin } from '../coins/catalog';
import { familyOf } from '../../shared/families';
import { chargeableNodes } from '../nodes/charged';
import { markDestroy } from '../nodes/lifecycle';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { afterRaise, raise } from '../notifications/raise';
import { systemActor } from '../operator/log';
import { dayOf, dayStart, nextDay } from './charge-days';
import {
  chargeDay,
  chunkFeeSums,
  chunkFees,
  completeChargeDay,
  deleteNodeCharges,
  firstOpenDay,
  insertChunkCharges,
  insertOwnerCharges,
  markReminded,
  moveChargeCursor,
  nextChunkEnd,
  openChargeDay,
  type ChargeCursor,
  type NodeFee,
  type OwnerCharge,
} from './charge-queries';
import { PLATFORM, balancesChanged, userBalances, type MoneyTx } from './ledger';
import { remindLowBalances } from './reminders';
import { alertLateChargeDay, lateChargeDay } from './charge-late';
import { errorText } from '../jobs/attempt';

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
export async function runDailyCharge(
  deps: DailyChargeDeps,
  now = Date.now(),
  signal?: AbortSignal,
): Promise<DayOutcome[]> {
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
    await remindLowBalances(deps, now, signal);
    await markReminded(deps.db, today, now);
  }
  return out;
}

/**
 * One day's charges, owner by owner, about `chunk` nodes per transaction. In each: every
 * owner's fees for the day as ONE transfer (an owner with more nodes than a chunk gets one
 * per chunk), and each node's fee as a row keyed by node and day (`node_charges`), written
 * together, so a rerun writes nothing twice; a node whose owner's balance cannot pay it is
 * destroyed (src/server/billing/README.md: the oldest nodes are paid first, each
 * later one that the rest of the balance still covers is paid too); the cursor (the last
 * owner and node done) moves with the chunk, so a crash resumes after the last committed
 * chunk. Between chunks the event loop runs (requests, other jobs). One transfer per
 * owner keeps the bill readable and the ledger's wide rows few (src/server/billing/README.md).
 */
export async function chargeOneDay(
  deps: DailyChargeDeps,
  day: string,
  now: number,
  signal?: AbortSignal,
): Promise<DayOutcome> {
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
      const after = { user: state.cursor, node: state.cursor_node };
      const upTo = await nextChunkEnd(trx, start, after, size);
      if (!upTo) {
        await completeChargeDay(trx, day, now);
        return null;
      }
      const r = await chargeChunk(trx, day, start, after, upTo, now);
      await moveChargeCursor(trx, day, upTo);
      return { ...r, cursor: upTo.user };
    });
    if (!step) return outcome;
    outcome.charged += step.charged;
    outcome.destroyed += step.destroyed;
    deps.afterChunk?.(step.destroyed > 0);
    deps.onChunk?.(day, step.cursor);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One owner's fees that a chunk charges: the first (oldest) node, how many, their sum. */
type OwnerSum = { userId: number; first: number; nodes: number; amount: number };

/**
 * Fees in (owner, node) order paid from each owner's balance, oldest node first: each
 * fee the rest of the balance covers is paid, the others are not (src/server/billing/README.md).
 */
function payInOrder(fees: NodeFee[], balances: Map<number, number>): { sums: OwnerSum[]; unpaid: NodeFee[] } {
  const sums = new Map<number, OwnerSum>();
  const unpaid: NodeFee[] = [];
  for (const f of fees) {
    const sum = sums.get(f.user_id) ?? { userId: f.user_id, first: f.node_id, nodes: 0, amount: 0 };
    if (sum.amount + f.amount > (balances.get(f.user_id) ?? 0)) {
      unpaid.push(f);
      continue;
    }
    sum.nodes++;
    sum.amount += f.amount;
    sums.set(f.user_id, sum);
  }
  return { sums: [...sums.values()], unpaid };
}

const feeKey = (f: NodeFee) => `${f.user_id}:${f.node_id}`;

/**
 * A chunk: every fee owed in it written straight from the index in one statement, then
 * summed per owner from the rows just written and set against each owner's balance
 * (one read each); an owner who cannot pay them all keeps, oldest node first, the fees
 * the balance covers, the rest are taken back and those nodes destroyed; then one
 * transfer per owner holding the sum of their fees written here.
 */
async function chargeChunk(
  trx: MoneyTx,
  day: string,
  start: number,
  after: ChargeCursor,
  upTo: ChargeCursor,
  now: number,
) {
  // Fees already kept in the range: none (the cursor), except on a day begun before fees
  // were kept per node, whose per-node transfers migration 2045 copied. Those are paid:
  // the chunk then sums, node by node, only the fees it wrote.
  const before = await chunkFees(trx, day, after, upTo);
  const wrote = await insertChunkCharges(trx, day, start, after, upTo);
  let sums: OwnerSum[];
  let unpaid: NodeFee[] = [];
  let balances: Map<number, number>;
  if (before.length) {
    const old = new Set(before.map(feeKey));
    const fresh = (await chunkFees(trx, day, after, upTo)).filter((f) => !old.has(feeKey(f)));
    balances = await userBalances(trx, [...new Set(fresh.map((f) => f.user_id))]);
    ({ sums, unpaid } = payInOrder(fresh, balances));
  } else {
    const owners = await chunkFeeSums(trx, day, after, upTo);
    balances = await userBalances(
      trx,
      owners.map((o) => o.user_id),
    );
    const short = owners.filter((o) => o.amount > balances.get(o.user_id)!);
    sums = owners
      .filter((o) => o.amount <= balances.get(o.user_id)!)
      .map((o) => ({ userId: o.user_id, first: o.first_node, nodes: o.nodes, amount: o.amount }));
    if (short.length) {
      const paid = payInOrder(
        await chunkFees(
          trx,
          day,
          after,
          upTo,
          short.map((o) => o.user_id),
        ),
        balances,
      );
      sums.push(...paid.sums);
      unpaid = paid.unpaid;
    }
  }
  const charged = sums.reduce((n, o) => n + o.nodes, 0);
  // What is charged and what is taken back are what the statement wrote; anything else is a bug: write nothing.
  if (charged + unpaid.length !== wrote || (await deleteNodeCharges(trx, day, unpaid)) !== unpaid.length) {
    throw new Error(
      `daily charge ${day}: wrote ${wrote} node fees, charged ${charged}, ${unpaid.length} unpaid; rolled back`,
    );
  }
  // A lone node lends its name to the line.
  const names = new Map(
    (
      await chargeableNodes(
        trx,
        sums.filter((o) => o.nodes === 1).map((o) => o.first),
      )
    ).map((n) => [n.id, n.alias ?? n.mn_id]),
  );
  const charges: OwnerCharge[] = sums.map((o) => ({
    userId: o.userId,
    firstNodeId: o.first,
    amount: o.amount,
    description: `Daily charge: ${o.nodes === 1 ? names.get(o.first) : `${o.nodes} nodes`} (${day})`,
  }));
  const transfers = await insertOwnerCharges(trx, day, charges, now, PLATFORM.revenue);
  // The key is new with its nodes' fees (written just now, once); anything else is a bug: write nothing.
  if (transfers !== charges.length)
    throw new Error(`daily charge ${day}: wrote ${transfers}/${charges.length} transfers; rolled back`);
  await balancesChanged(
    trx,
    charges.map((c) => c.userId),
    new Map(charges.map((c) => [c.userId, balances.get(c.userId)! - c.amount])),
  );
  let destroyed = 0;
  for (const n of await chargeableNodes(
    trx,
    unpaid.map((f) => f.node_id),
  )) {
    // Unpaid from the start of this day: charged neither today nor after (charge-queries `chargedOn`).
    if (await markDestroy(trx, n, systemActor('daily charge'), UNPAID_REASON, start)) {
      destroyed++;
      const coin = await findCoin(trx, n.coin_id);
      await raise(trx, n.user_id, 'node_destroyed_unpaid', {
        mn_id: n.mn_id,
        coin: coin?.label ?? n.coin_id,
        alias: n.alias,
        // Its file is made by the control loop before the destroy, kept for the owner.
        ...(coin && familyOf(coin.family).validator ? { validator: true } : {}),
      });
    }
  }
  return { charged, destroyed };
}

/**
 * The recurring job `billing.daily_charge`: at start (a day missed while down is caught
 * up) and every minute after, which costs two reads while the day is done and charges
 * within a minute of 00:00 UTC whatever the machine's time zone. After each run, a day
 * still open past 01:00 UTC is told to the operators (once per day). Returns the
 * readiness check: the charge is late (charge-late.ts), once this process has tried.
 */
export function scheduleDailyCharge(
  jobs: JobRunner,
  deps: Pick<AppDeps, 'db' | 'log' | 'hub' | 'mail' | 'fleet'>,
): () => Promise<string | null> {
  // Until its first run here has ended, a late day may be one this process is about to
  // charge (a start after 01:00): readiness waits for that run's answer.
  let tried = false;
  const afterChunk = (destroyed: boolean) => {
    afterRaise(deps);
    if (destroyed)
      void deps.fleet.reconcile().catch((err) => deps.log.warn('reconcile after unpaid destroy failed', { err }));
  };
  jobs.every('billing.daily_charge', {
    everyMs: 60_000,
    atStart: true,
    // Resumable (the cursor): a run cut at its deadline goes on at the next tick.
    deadlineMs: 30 * 60_000,
    run: async (signal) => {
      let failure: string | null = null;
      try {
        await runDailyCharge({ db: deps.db, log: deps.log, afterChunk }, Date.now(), signal);
      } catch (err) {
        failure = errorText(err);
        throw err;
      } finally {
        tried = true;
        await alertLateChargeDay(deps, Date.now(), failure).catch((err) =>
          deps.log.error('telling the operators of a late daily charge failed', { error: errorText(err) }),
        );
      }
    },
  });
  return async () => (tried ? lateChargeDay(deps.db) : null);
}

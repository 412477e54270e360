import { isLowRunway, runwayHours } from '../../shared/runway';
import type { Micros } from '../../shared/money';
import { findCoin } from '../coins/catalog';
import type { DB } from '../db/open';
import { chargedNodesOf, type ChargeableNode } from '../nodes/charged';
import { raise } from '../notifications/raise';
import { dayOf } from './charge-days';
import { claimReminder } from './charge-queries';
import { accountBalance, userAccount } from './ledger';

/** A node the next daily charge would not pay, named as the customer reads it. */
export type NodeAtRisk = { mn_id: string; name: string };

/** Where a user's balance stands against their nodes' fees. */
export type Runway = {
  balance: Micros;
  /** The charged nodes' fees per day. */
  daily: Micros;
  /** Whole hours the balance pays; null when nothing is charged. */
  hours: number | null;
  /** The nodes the next 00:00 UTC charge would destroy, oldest first (empty when the balance covers it). */
  atRisk: ChargeableNode[];
  /** What the balance lacks for the next charge to pay every node (0 when it covers it). */
  short: Micros;
};

/**
 * The nodes the next charge would not pay: fees in node order, each paid when the rest of
 * the balance covers it, the daily charge's own rule (daily-charge.ts `payInOrder`).
 */
function unpaidInOrder(nodes: ChargeableNode[], balance: Micros): ChargeableNode[] {
  let left = Math.max(0, balance);
  return nodes.filter((n) => {
    if (n.hosting_price <= left) {
      left -= n.hosting_price;
      return false;
    }
    return true;
  });
}

export async function runwayOf(db: DB, userId: number): Promise<Runway> {
  const [balance, nodes] = await Promise.all([accountBalance(db, userAccount(userId)), chargedNodesOf(db, userId)]);
  const daily = nodes.reduce((sum, n) => sum + n.hosting_price, 0);
  return {
    balance,
    daily,
    hours: runwayHours(balance, daily),
    atRisk: daily > balance ? unpaidInOrder(nodes, balance) : [],
    short: Math.max(0, daily - Math.max(0, balance)),
  };
}

/** "Dash node mn-abc (home)", as every notification names a node. */
export async function namesOf(db: DB, nodes: ChargeableNode[]): Promise<NodeAtRisk[]> {
  const labels = new Map<string, string>();
  for (const id of new Set(nodes.map((n) => n.coin_id))) labels.set(id, (await findCoin(db, id))?.label ?? id);
  return nodes.map((n) => ({
    mn_id: n.mn_id,
    name: `${labels.get(n.coin_id)} node ${n.mn_id}${n.alias ? ` (${n.alias})` : ''}`,
  }));
}

/**
 * Raises the low-balance reminder when the user's balance pays fewer than
 * LOW_RUNWAY_DAYS days of their nodes' fees: at most once per UTC day, plus once more
 * that day when the balance has since stopped covering the next charge (then it names
 * the nodes that go at 00:00 UTC and what keeps them). Called in the transaction of
 * everything that shortens the runway (a deploy's Initial Charge, the daily charge's
 * pass, a payment taken back, an operator's debit), so no node is destroyed unwarned.
 * The claim is a keyed row in that transaction: 100 deploys at once raise one reminder.
 */
export async function remindIfLow(trx: DB, userId: number, now: number): Promise<boolean> {
  const r = await runwayOf(trx, userId);
  if (!isLowRunway(r.balance, r.daily)) return false;
  const short = r.atRisk.length > 0;
  if (!(await claimReminder(trx, userId, dayOf(now), now, short))) return false;
  const balance = Math.max(0, r.balance);
  await raise(trx, userId, 'low_balance', {
    balance_micros: balance,
    days_left: Math.floor(balance / r.daily),
    hours_left: r.hours ?? 0,
    daily_micros: r.daily,
    ...(short ? { at_risk: (await namesOf(trx, r.atRisk)).map((n) => n.name), keep_micros: r.short } : {}),
  });
  return true;
}

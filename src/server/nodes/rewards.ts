import { formatCoins } from '../../shared/coin-amount';
import { microsToUsd } from '../../shared/money';
import { nodeRewardAtomic } from '../../shared/roi';
import {
  INCOME_WINDOW_DAYS,
  REWARDS_SHOWN,
  type GetRewardsInput,
  type GetRewardsOutput,
} from '../../shared/schemas/rewards';
import { coinDetails, findCoin, listCoins } from '../coins/catalog';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import { findQuote } from '../market/quotes';
import type { Context } from '../rpc/context';
import { insertReward, listRewards, nodeKinds, rewardTotals } from './reward-queries';
import { findUserNode } from './repository';

/**
 * What one check saw of the node's payments: the last paid height and when it was paid
 * (`blockS` seconds a block, counted back from the tip). A simulated node's chain pays
 * nobody: its "payments" are the simulator's and none of them is the owner's reward, so
 * nothing is taken from it (no last reward, no reward row, no reward notification).
 */
export function paidOfCheck(
  node: Pick<Masternode, 'simulated'>,
  obs: { blocks: number | null; lastPaidHeight: number | null },
  blockS: number,
  now: number,
): { last_paid_height: number; last_paid: number } | null {
  if (node.simulated === 1 || obs.lastPaidHeight === null || obs.blocks === null) return null;
  return {
    last_paid_height: obs.lastPaidHeight,
    last_paid: now - Math.max(0, obs.blocks - obs.lastPaidHeight) * blockS * 1000,
  };
}

/**
 * In the check's transaction: a paid height above the last one the node had (or its first)
 * becomes a reward row, its USD value priced from the quote the platform holds now and kept
 * so (a later price never changes what a reward was worth when it came). Answers whether a
 * reward was written.
 */
export async function recordReward(
  trx: DB,
  node: Masternode,
  paid: { last_paid_height: number; last_paid: number },
  now: number,
): Promise<boolean> {
  if (node.simulated === 1) return false;
  if (node.last_paid_height !== null && paid.last_paid_height <= node.last_paid_height) return false;
  const coin = await findCoin(trx, node.coin_id);
  if (!coin) return false;
  const atomic = nodeRewardAtomic(coinDetails(coin).reward);
  const price = (await findQuote(trx, node.coin_id))?.price_usd ?? null;
  return insertReward(trx, {
    user_id: node.user_id,
    node_id: node.id,
    mn_id: node.mn_id,
    coin_id: node.coin_id,
    height: paid.last_paid_height,
    paid_at: paid.last_paid,
    amount_atomic: atomic,
    price_usd: price,
    usd_micros: price === null ? null : Math.round((atomic / 1e8) * price * 1e6),
    created_at: now,
  });
}

type Ctx = Pick<Context, 'db'>;

/** The portfolio's rewards (or one node's): the newest ones, the last 30 days and all time. */
export async function getRewards(ctx: Ctx, userId: number, input: GetRewardsInput): Promise<GetRewardsOutput> {
  let nodeId: number | undefined;
  let simulatedOnly: boolean;
  if (input.masternode !== undefined) {
    const n = await findUserNode(ctx.db, userId, input.masternode);
    if (!n) fail('NOT_FOUND', 'Masternode not found.');
    nodeId = n.id;
    simulatedOnly = n.simulated === 1;
  } else {
    const kinds = await nodeKinds(ctx.db, userId);
    simulatedOnly = kinds.simulated > 0 && kinds.real === 0;
  }
  const since = Date.now() - INCOME_WINDOW_DAYS * 86_400_000;
  const [rows, month, all, coins] = await Promise.all([
    listRewards(ctx.db, userId, REWARDS_SHOWN, nodeId),
    rewardTotals(ctx.db, userId, since, nodeId),
    rewardTotals(ctx.db, userId, 0, nodeId),
    listCoins(ctx.db),
  ]);
  const coinOf = new Map(coins.map((c) => [c.id, c]));
  const sum = (t: typeof month) => ({ count: t.count, usd: microsToUsd(t.usdMicros), unpriced: t.count - t.priced });
  return {
    rewards: rows.map((r) => {
      const coin = coinOf.get(r.coin_id);
      return {
        mn_id: r.mn_id,
        alias: r.alias,
        currency_data: { id: r.coin_id, label: coin?.label ?? r.coin_id, ticker: coin?.ticker ?? r.coin_id },
        height: r.height,
        paid_at: new Date(r.paid_at).toISOString(),
        amount: formatCoins(BigInt(r.amount_atomic), 8),
        price_usd: r.price_usd,
        usd: r.usd_micros === null ? null : microsToUsd(r.usd_micros),
      };
    }),
    last_30_days: sum(month),
    total: sum(all),
    // A portfolio that once had a real node keeps its history: it is not "simulated only".
    simulated_only: simulatedOnly && all.count === 0,
  };
}

import { z } from 'zod';

/** `get_rewards`: the portfolio's rewards, or one node's (`masternode`: its id). */
export const getRewardsInput = z
  .object({ masternode: z.string().trim().min(1, 'is required').max(80, 'is too long').optional() })
  .strict();
export type GetRewardsInput = z.infer<typeof getRewardsInput>;

/** One reward a node was paid: the amount in coins and what it was worth in USD when it arrived. */
export const rewardItem = z.object({
  mn_id: z.string(),
  alias: z.string().nullable(),
  currency_data: z.object({ id: z.string(), label: z.string(), ticker: z.string() }),
  /** The block that paid it. */
  height: z.number(),
  /** ISO time it was paid. */
  paid_at: z.string(),
  /** Coins, exact decimal text ("1.35"). */
  amount: z.string(),
  /** The coin's USD price the platform held when the reward arrived; null without one. */
  price_usd: z.number().nullable(),
  /** USD value at that price; null without one. */
  usd: z.number().nullable(),
});
export type RewardItem = z.infer<typeof rewardItem>;

/** How many rewards and their USD value at arrival; `unpriced` arrived when no price was known. */
const rewardSum = z.object({ count: z.number(), usd: z.number(), unpriced: z.number() });

export const getRewardsOutput = z.object({
  /** The newest rewards first (at most REWARDS_SHOWN). */
  rewards: z.array(rewardItem),
  /** The last 30 days: the portfolio's "Monthly income". */
  last_30_days: rewardSum,
  total: rewardSum,
  /**
   * Nothing shown can earn: the node, or every node of the portfolio, is simulated (and
   * none ever earned). Clients say so instead of showing an amount.
   */
  simulated_only: z.boolean(),
});
export type GetRewardsOutput = z.infer<typeof getRewardsOutput>;

/** Rewards listed at once: the newest ones (the sums cover them all). */
export const REWARDS_SHOWN = 100;
/** The window of the portfolio's monthly income. */
export const INCOME_WINDOW_DAYS = 30;

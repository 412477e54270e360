/**
 * The platform's ROI and income formulas (spec section 9). Shared so that the server's
 * tables and the client's income calculator can never disagree.
 */
export type RewardParams = { block_time_s: number; block_reward: number; node_share: number; network_nodes: number };

const SECONDS_PER_YEAR = 365 * 86_400;

/** Coins one node earns in a year: blocks per year × reward × nodes' share ÷ nodes. */
export function yearlyNodeReward(r: RewardParams): number {
  if (r.block_time_s <= 0 || r.network_nodes <= 0) return 0;
  return ((SECONDS_PER_YEAR / r.block_time_s) * r.block_reward * r.node_share) / r.network_nodes;
}

/** Yearly ROI in percent of the collateral, or null where it has no meaning (no collateral). */
export function roiPercent(r: RewardParams, collateral: number): number | null {
  if (collateral <= 0) return null;
  return (yearlyNodeReward(r) / collateral) * 100;
}

/** Income in USD: yearly = collateral × price × roi / 100; monthly /12, weekly /52, daily /365. */
export function income(collateral: number, priceUsd: number, roi: number) {
  const yearly = (collateral * priceUsd * roi) / 100;
  return { yearly, monthly: yearly / 12, weekly: yearly / 52, daily: yearly / 365 };
}

/**
 * A node's share of one block's reward in 1e-8 coin units: what one payment to it is worth.
 * Daemons report the heights that paid a node, not amounts, so rewards are counted with it.
 */
export function nodeRewardAtomic(r: Pick<RewardParams, 'block_reward' | 'node_share'>): number {
  return Math.round(r.block_reward * r.node_share * 1e8);
}

import { formatNumber } from '../../shared/format';
import type { GetRewardsOutput, RewardItem } from '../../shared/schemas/rewards';
import { formatUsd2, MISSING } from '../ui/display';

/**
 * The reward history's rules (the portfolio's and a node's), kept apart from the pages so
 * they can be tested without a browser.
 */

/** Said instead of an amount where nothing can earn: simulated nodes are paid nothing. */
export const SIMULATED_INCOME = 'None (simulated)';

/** The portfolio's "Monthly income": what its rewards of the last 30 days were worth when they came. */
export function monthlyIncomeText(r: GetRewardsOutput | undefined): string {
  if (!r) return MISSING;
  if (r.simulated_only) return SIMULATED_INCOME;
  return formatUsd2(r.last_30_days.usd);
}

/** "1.02 DASH". */
export const rewardAmountText = (r: RewardItem): string => `${r.amount} ${r.currency_data.ticker}`;

/** "$40.80", or a dash when no price was known when it came. */
export const rewardUsdText = (r: RewardItem): string => (r.usd === null ? MISSING : formatUsd2(r.usd));

/** The price it was valued at: "$40.00 per DASH". */
export const rewardPriceText = (r: RewardItem): string =>
  r.price_usd === null ? MISSING : `$${formatNumber(r.price_usd)} per ${r.currency_data.ticker}`;

/** "2 rewards worth $71.40" (and how many came with no price to value them). */
export function rewardSumText(s: GetRewardsOutput['total']): string {
  const n = s.count === 1 ? '1 reward' : `${s.count} rewards`;
  if (s.count === 0) return 'no rewards';
  const unpriced =
    s.unpriced === 0
      ? ''
      : s.unpriced === 1
        ? ' (1 came when no price was known)'
        : ` (${s.unpriced} came when no price was known)`;
  return `${n} worth ${formatUsd2(s.usd)}${unpriced}`;
}

import { describe, expect, it } from 'vitest';
import type { GetRewardsOutput, RewardItem } from '../../shared/schemas/rewards';
import { monthlyIncomeText, rewardPriceText, rewardSumText, rewardUsdText } from './rewards';

const none = { count: 0, usd: 0, unpriced: 0 };
const out = (o: Partial<GetRewardsOutput>): GetRewardsOutput => ({
  rewards: [],
  last_30_days: none,
  total: none,
  simulated_only: false,
  ...o,
});
const reward = (o: Partial<RewardItem> = {}): RewardItem => ({
  mn_id: 'dash-1',
  alias: null,
  currency_data: { id: 'dash', label: 'Dash', ticker: 'DASH' },
  height: 10,
  paid_at: '2026-11-28T10:00:00.000Z',
  amount: '1.02',
  price_usd: 40,
  usd: 40.8,
  ...o,
});

describe('reward history texts', () => {
  it('fills the monthly income from the last 30 days, and says plainly when only simulated nodes are held', () => {
    expect(monthlyIncomeText(undefined)).toBe('--');
    expect(monthlyIncomeText(out({ last_30_days: { count: 2, usd: 71.4, unpriced: 0 } }))).toBe('$71.40');
    expect(monthlyIncomeText(out({}))).toBe('$0.00');
    expect(monthlyIncomeText(out({ simulated_only: true }))).toBe('None (simulated)');
  });

  it('values a reward at its price then, a dash without one', () => {
    expect(rewardUsdText(reward())).toBe('$40.80');
    expect(rewardPriceText(reward())).toBe('$40.00 per DASH');
    expect(rewardUsdText(reward({ usd: null, price_usd: null }))).toBe('--');
    expect(rewardPriceText(reward({ usd: null, price_usd: null }))).toBe('--');
  });

  it('sums in words', () => {
    expect(rewardSumText({ count: 1, usd: 30.6, unpriced: 0 })).toBe('1 reward worth $30.60');
    expect(rewardSumText({ count: 3, usd: 71.4, unpriced: 1 })).toBe(
      '3 rewards worth $71.40 (1 came when no price was known)',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { income, roiPercent, yearlyNodeReward } from '../../src/shared/roi';

describe('ROI and income', () => {
  const dash = { block_time_s: 150, block_reward: 1.7, node_share: 0.6, network_nodes: 3000 };

  it('yearly node reward = blocks per year × reward × node share ÷ nodes', () => {
    // 31,536,000 s / 150 s = 210,240 blocks; × 1.7 × 0.6 ÷ 3000 = 71.4816 coins
    expect(yearlyNodeReward(dash)).toBeCloseTo(71.4816, 10);
    expect(roiPercent(dash, 1000)).toBeCloseTo(7.14816, 10);
  });

  it('has no ROI without collateral and no reward without nodes', () => {
    expect(roiPercent(dash, 0)).toBeNull();
    expect(yearlyNodeReward({ ...dash, network_nodes: 0 })).toBe(0);
  });

  it('income: yearly = collateral × price × roi / 100; monthly /12, weekly /52, daily /365', () => {
    const i = income(1000, 25, 8);
    expect(i.yearly).toBe(2000);
    expect(i.monthly).toBeCloseTo(2000 / 12, 12);
    expect(i.weekly).toBeCloseTo(2000 / 52, 12);
    expect(i.daily).toBeCloseTo(2000 / 365, 12);
  });
});

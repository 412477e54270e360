import { describe, expect, it } from 'vitest';
import { machineFactor, scaled } from './support/machine-speed';

// test/support/machine-speed.ts: the budgets of tests that start real processes.
describe('the machine speed factor', () => {
  it('is measured once per worker, at least 1 and bounded, and scales a budget by it', () => {
    delete process.env.NODEKEEP_TEST_SPEED_FACTOR;
    const factor = machineFactor();
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeLessThanOrEqual(8);
    // Kept for the worker's later files: a second call does not measure again.
    expect(process.env.NODEKEEP_TEST_SPEED_FACTOR).toBe(factor.toFixed(2));
    process.env.NODEKEEP_TEST_SPEED_FACTOR = '2.5';
    expect(machineFactor()).toBe(2.5);
    expect(scaled(30_000)).toBe(75_000);
  });
});

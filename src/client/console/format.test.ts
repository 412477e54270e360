import { describe, expect, it } from 'vitest';
import { usd, usdExact } from './format';

describe('console money', () => {
  it('shows balances and totals in cents, rounded half away from zero', () => {
    expect(usd(269_368)).toBe('$0.27');
    expect(usd(12_500_000)).toBe('$12.50');
    expect(usd(5_000)).toBe('$0.01');
    expect(usd(4_999)).toBe('$0.00');
    expect(usd(-269_368)).toBe('-$0.27');
    expect(usd(0)).toBe('$0.00');
  });

  it('keeps prices and single entries exact', () => {
    expect(usdExact(63_000)).toBe('$0.063');
    expect(usdExact(269_368)).toBe('$0.269368');
    expect(usdExact(-2_100_000)).toBe('-$2.10');
  });
});

import { describe, expect, it } from 'vitest';
import {
  expiryText,
  formatBalance,
  formatDailyPrice,
  formatNumber,
  formatPercent,
  formatPrice,
} from '../../src/shared/format';

// platform-and-account.md section 9.
describe('number formatting', () => {
  it('uses US grouping', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(1000)).toBe('1,000');
  });

  it('gives fractional values and small whole values (below 1000) two decimals', () => {
    expect(formatNumber(999)).toBe('999.00');
    expect(formatNumber(12)).toBe('12.00');
    expect(formatNumber(0)).toBe('0.00');
    expect(formatNumber(1234.5)).toBe('1,234.50');
    expect(formatNumber(0.125)).toBe('0.13');
    expect(formatNumber(-1500)).toBe('-1,500');
  });

  it('shows prices with two decimals, six below 0.01', () => {
    expect(formatPrice(42.5)).toBe('42.50');
    expect(formatPrice(3100)).toBe('3,100.00');
    expect(formatPrice(0.01)).toBe('0.01');
    expect(formatPrice(0.00999)).toBe('0.009990');
    expect(formatPrice(0.000213)).toBe('0.000213');
    expect(formatPrice(0)).toBe('0.00');
  });

  it('shows balances with two decimals and daily prices with three', () => {
    expect(formatBalance(1234.5)).toBe('1,234.50');
    expect(formatDailyPrice(0.063)).toBe('0.063');
    expect(formatDailyPrice(0.13)).toBe('0.130');
  });

  it('shows percentages and never NaN', () => {
    expect(formatPercent(7.14816)).toBe('7.15%');
    expect(formatPercent(Number.NaN)).toBe('--');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('--');
    expect(formatPrice(Number.NaN)).toBe('--');
  });
});

describe('expiryText', () => {
  it('reads an expiry at 00:00 UTC as the last day it covers, any other moment to the minute', () => {
    expect(expiryText(Date.UTC(2027, 1, 1))).toBe('through 2027-01-31 UTC');
    expect(expiryText('2027-02-01T00:00:00.000Z')).toBe('through 2027-01-31 UTC');
    expect(expiryText('2027-03-01T00:00:00Z')).toBe('through 2027-02-28 UTC');
    expect(expiryText('2027-02-01T12:30:59.000Z')).toBe('until 2027-02-01 12:30 UTC');
    expect(expiryText(Date.UTC(2027, 1, 1, 0, 0, 1))).toBe('until 2027-02-01 00:00 UTC');
  });
});

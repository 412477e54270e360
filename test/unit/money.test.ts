import { describe, expect, it } from 'vitest';
import { formatUsdExact, formatUsdGrouped, parseUsd, toUsdNumber } from '../../src/shared/money';
import { formatBalance } from '../../src/shared/format';

describe('money in integer micro-dollars', () => {
  it('parses decimal dollars exactly', () => {
    expect(parseUsd('0.063')).toBe(63_000);
    expect(parseUsd('12.5')).toBe(12_500_000);
    expect(parseUsd('-3')).toBe(-3_000_000);
    expect(parseUsd('+12.50')).toBe(12_500_000);
    expect(parseUsd('0.000001')).toBe(1);
    // The float sum 0.1 + 0.2 is 0.30000000000000004; ours is exact.
    expect(parseUsd('0.1') + parseUsd('0.2')).toBe(parseUsd('0.3'));
  });

  it('rejects what is not an amount', () => {
    for (const bad of ['', 'abc', '1.0000001', '1e3', '1,000', '0x10', '1.', '.5'])
      expect(() => parseUsd(bad)).toThrow(/USD amount/);
  });

  it('formats exactly and rounds to cents for display', () => {
    expect(formatUsdExact(63_000)).toBe('0.063');
    expect(formatUsdExact(12_500_000)).toBe('12.50');
    expect(formatUsdExact(-1)).toBe('-0.000001');
    expect(toUsdNumber(12_345_000)).toBe(12.35);
    expect(toUsdNumber(12_344_999)).toBe(12.34);
    expect(toUsdNumber(-12_345_000)).toBe(-12.35);
    expect(formatBalance(1234.5)).toBe('1,234.50');
    expect(formatBalance(0)).toBe('0.00');
  });

  it('groups the exact amount as customers read it', () => {
    expect(formatUsdGrouped(1_234_500_000)).toBe('1,234.50');
    expect(formatUsdGrouped(999_990_000)).toBe('999.99');
    expect(formatUsdGrouped(-1_234_567_891_000)).toBe('-1,234,567.891');
    expect(formatUsdGrouped(63_000)).toBe('0.063');
  });
});

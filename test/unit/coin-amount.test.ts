import { describe, expect, it } from 'vitest';
import { formatCoins, jsonCoinsToAtomic, parseCoins } from '../../src/shared/coin-amount';
import { coinsToSat, jsonCoinsToSat, satToCoins } from '../../src/server/fleet/daemons/amounts';

describe('the coin amount converter (deposits and daemon replies alike)', () => {
  it('reads decimal text and JSON numbers exactly, at any scale', () => {
    expect(parseCoins('12.5', 8)).toBe(1_250_000_000n);
    expect(parseCoins(' -0.00000001 ', 8)).toBe(-1n);
    expect(parseCoins('1', 18)).toBe(10n ** 18n);
    expect(parseCoins('7', 0)).toBe(7n);
    expect(() => parseCoins('1.5', 0)).toThrow(/not a coin amount/);
    expect(() => parseCoins('1.000000001', 8)).toThrow(/not a coin amount/);
    expect(jsonCoinsToAtomic(0.1, 8)).toBe(10_000_000n);
    expect(jsonCoinsToAtomic(-0.5, 8)).toBe(-50_000_000n);
    expect(jsonCoinsToAtomic(21_000_000.12345678, 8)).toBe(2_100_000_012_345_678n);
    expect(() => jsonCoinsToAtomic(Number.NaN, 8)).toThrow(/not a coin amount/);
  });

  it('writes amounts back without trailing zeros', () => {
    expect(formatCoins(50_000_000n, 8)).toBe('0.5');
    expect(formatCoins(-1n, 8)).toBe('-0.00000001');
    expect(formatCoins(1_000_000_000_000n, 12)).toBe('1');
    expect(formatCoins(7n, 0)).toBe('7');
  });

  it('round-trips every daemon amount through satoshis', () => {
    for (let i = 0; i < 2000; i++) {
      const sat = Math.floor(Math.random() * 1e15) * (i % 2 ? -1 : 1);
      const text = satToCoins(sat);
      expect(coinsToSat(text), text).toBe(sat);
      expect(jsonCoinsToSat(Number(text)), text).toBe(sat);
    }
    expect(() => coinsToSat('99999999999')).toThrow(/coin amount too large/);
  });
});

import { describe, expect, it } from 'vitest';
import { compactTick, priceTick } from './chartTicks';

const ticks = (from: number, step: number, n: number, f: (n: number, step: number) => string) =>
  Array.from({ length: n }, (_, i) => f(from + i * step, step));

describe('chart ticks', () => {
  it('never repeat a label, for prices below and across one cent', () => {
    for (const [from, step] of [
      [0.0091, 0.0002],
      [0.0045, 0.00005],
      [0.99, 0.005],
      [12.4, 0.1],
      [1200, 50],
    ] as const) {
      const labels = ticks(from, step, 8, priceTick);
      expect(new Set(labels).size, labels.join(' ')).toBe(labels.length);
    }
    expect(priceTick(0.0094, 0.0002)).toBe('$0.0094');
    expect(priceTick(12.5, 0.5)).toBe('$12.50');
  });

  it('keep compact market figures apart', () => {
    const labels = ticks(1_200_000, 20_000, 8, compactTick);
    expect(new Set(labels).size, labels.join(' ')).toBe(labels.length);
    expect(compactTick(2_000_000_000, 500_000_000)).toMatch(/^\$2(\.0)?B$/);
  });
});

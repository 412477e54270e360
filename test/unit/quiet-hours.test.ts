import { describe, expect, it } from 'vitest';
import { inQuietHours, quietHoursEnd } from '../../src/server/notifications/quiet';

const at = (iso: string) => Date.parse(iso);

describe('quiet hours (UTC)', () => {
  it('covers [start, end) within a day', () => {
    expect(inQuietHours(at('2026-11-23T21:59:59Z'), 22, 23)).toBe(false);
    expect(inQuietHours(at('2026-11-23T22:00:00Z'), 22, 23)).toBe(true);
    expect(inQuietHours(at('2026-11-23T22:59:59Z'), 22, 23)).toBe(true);
    expect(inQuietHours(at('2026-11-23T23:00:00Z'), 22, 23)).toBe(false);
  });

  it('wraps past midnight when start > end', () => {
    expect(inQuietHours(at('2026-11-23T23:30:00Z'), 22, 7)).toBe(true);
    expect(inQuietHours(at('2026-11-24T03:00:00Z'), 22, 7)).toBe(true);
    expect(inQuietHours(at('2026-11-24T07:00:00Z'), 22, 7)).toBe(false);
    expect(inQuietHours(at('2026-11-24T12:00:00Z'), 22, 7)).toBe(false);
  });

  it('ends at the next start of the end hour', () => {
    expect(quietHoursEnd(at('2026-11-23T23:30:00Z'), 7)).toBe(at('2026-11-24T07:00:00Z'));
    expect(quietHoursEnd(at('2026-11-24T03:00:00Z'), 7)).toBe(at('2026-11-24T07:00:00Z'));
    expect(quietHoursEnd(at('2026-11-24T07:00:00Z'), 7)).toBe(at('2026-11-25T07:00:00Z'));
    expect(quietHoursEnd(at('2026-12-31T22:10:00Z'), 1)).toBe(at('2027-01-01T01:00:00Z'));
  });
});

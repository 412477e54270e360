import { describe, expect, it } from 'vitest';
import { logDetailText } from '../../src/shared/log-detail';

describe("an operator log line's details in words", () => {
  it('says prices per day and amounts in dollars, times as UTC dates, ids as numbers', () => {
    expect(logDetailText({ coin: 'dash', dedicated: 130_000, campaignCloud: 45_000 })).toBe(
      'coin dash; dedicated $0.13/day; campaign cloud $0.045/day',
    );
    expect(logDetailText({ user_id: 7, username: 'alice', amount: 12_500_000, reason: 'outage', key: 'k1' })).toBe(
      'user #7; username alice; amount $12.50; reason outage; key k1',
    );
    expect(logDetailText({ amount: -2_000_000 })).toBe('amount -$2.00');
    expect(logDetailText({ batch: 'b1', count: 3, expires_at: Date.UTC(2027, 0, 31) })).toBe(
      'batch b1; count 3; expires 2027-01-31 00:00 UTC',
    );
    expect(logDetailText({ on: true, host: null, note: '' })).toBe('on yes');
    expect(logDetailText({})).toBe('');
  });
});

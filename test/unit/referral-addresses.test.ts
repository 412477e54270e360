import { describe, expect, it } from 'vitest';
import { addressNetwork, shareAnAddress } from '../../src/server/referrals/addresses';

describe("the referral check's address comparison", () => {
  it('matches IPv4 exactly (mapped IPv6 as its IPv4) and IPv6 by /64; what does not parse matches nothing', () => {
    expect(addressNetwork('203.0.113.7')).toBe('v4:203.0.113.7');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('v4:203.0.113.7');
    expect(addressNetwork('2001:DB8:1:2:ffff::1')).toBe(addressNetwork('2001:db8:1:2::'));
    expect(addressNetwork('2001:db8:1:3::1')).not.toBe(addressNetwork('2001:db8:1:2::1'));
    for (const bad of ['', 'unknown', '999.1.1.1', '1.2.3']) expect(addressNetwork(bad), bad).toBeNull();
    expect(shareAnAddress(['203.0.113.7', '2001:db8:1:2::9'], ['2001:db8:1:2:abcd::1'])).toBe(true);
    expect(shareAnAddress(['203.0.113.7'], ['203.0.113.8', '2001:db8::1'])).toBe(false);
    expect(shareAnAddress(['unknown'], ['unknown'])).toBe(false);
    expect(shareAnAddress([], [])).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { addressAllowed } from '../../src/server/apikeys/keys';
import { formatAllowList, parseAllowList } from '../../src/shared/ip-list';
import { isIPv6 } from '../../src/shared/ip';

describe('API key allow lists', () => {
  it('accepts IPv4, IPv6 (full, compressed, IPv4-tailed) and CIDR; stores them canonically', () => {
    const r = parseAllowList(
      ' 10.0.0.1, 2001:DB8::/32,::1 , 10.0.0.1, 0.0.0.0/0, ::ffff:192.0.2.1, 1:2:3:4:5:6:7:8, ::ffff:1.2.3.4/120',
    );
    expect('entries' in r && formatAllowList(r.entries)).toBe(
      '10.0.0.1,2001:db8::/32,::1,0.0.0.0/0,192.0.2.1,1:2:3:4:5:6:7:8,::ffff:1.2.3.4/120',
    );
    expect(parseAllowList('')).toEqual({ entries: [] });
  });

  it.each([
    ['256.0.0.1', /"256\.0\.0\.1" is not an IP address/],
    ['01.2.3.4', /is not an IP address/],
    ['1.2.3', /is not an IP address/],
    ['1.2.3.4/', /range size after \/ must be 0-32/],
    ['1.2.3.4/-1', /must be 0-32/],
    ['::1/200', /must be 0-128/],
    ['1::2::3', /is not an IP address/],
    ['12345::1', /is not an IP address/],
    ['1:2:3:4:5:6:7', /is not an IP address/],
    ['1.2.3.4/8/8', /is not an IP address/],
    ['localhost', /"localhost" is not an IP address/],
  ])('refuses %s with a message naming it', (entry, message) => {
    const r = parseAllowList(`10.0.0.1, ${entry}`);
    expect('error' in r && r.error).toMatch(message);
  });

  it('IPv6 shapes', () => {
    for (const ok of ['::', '::1', '1::', 'fe80::1:2', '1:2:3:4:5:6:7::', '::ffff:10.0.0.1', '1:2:3:4:5:6:1.2.3.4'])
      expect(isIPv6(ok), ok).toBe(true);
    for (const bad of [
      ':',
      ':::',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7:1.2.3.4',
      'g::1',
      '::1.2.3',
      'fe80::1%eth0',
      '::ffff:01.2.3.4',
      '::ffff:1.2.3',
    ])
      expect(isIPv6(bad), bad).toBe(false);
  });

  it('matches the client address against addresses and ranges; empty allows any', () => {
    expect(addressAllowed('', '203.0.113.5')).toBe(true);
    expect(addressAllowed('10.0.0.0/8', '10.200.1.1')).toBe(true);
    expect(addressAllowed('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(addressAllowed('10.0.0.5/24', '10.0.0.77')).toBe(true);
    expect(addressAllowed('10.1.1.1', '::ffff:10.1.1.1')).toBe(true);
    expect(addressAllowed('192.0.2.1', '::ffff:192.0.2.1')).toBe(true);
    expect(addressAllowed('2001:db8::/32', '2001:DB8:0:0::7')).toBe(true);
    expect(addressAllowed('2001:db8::/32', '2001:db9::7')).toBe(false);
    expect(addressAllowed('::1', '::1')).toBe(true);
    expect(addressAllowed('::1', '127.0.0.1')).toBe(false);
    expect(addressAllowed('10.0.0.1', 'unknown')).toBe(false);
  });
});

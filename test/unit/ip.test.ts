import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ipv6Network, ipVersion, parseIp } from '../../src/shared/ip';
import { normalizeIp } from '../../src/server/rpc/context';
import { addressAllowed } from '../../src/server/apikeys/keys';
import { addressKey } from '../../src/server/guards/rate-limit';

// One parser (ipaddr.js) behind every address check: these pin it to what Node's
// `net.isIP` and `BlockList` answered before, spelling by spelling.
describe('the IP parser', () => {
  it('reads exactly the forms net.isIP reads', () => {
    const forms = [
      '1.2.3.4',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '0x7f.0.0.1',
      ' 1.2.3.4',
      '127.1',
      '::',
      '0:0:0:0:0:0:0:1',
      '::ffff:1.2.3.4',
      '::ffff:01.2.3.4',
      '::FFFF:1.2.3.4',
      'fe80::1%eth0',
      'fe80::1%',
      'fe80::1%eth 0',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:1.2.3.4',
      '[::1]',
      '',
      'localhost',
      '1.2.3.4%eth0',
    ];
    for (const f of forms) expect(ipVersion(f), f).toBe(net.isIP(f));
  });

  it('keys an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
    expect(ipv6Network(parseIp('2001:db8:1:2:3::1') as never, 64)).toBe('2001:db8:1:2::/64');
    expect(ipv6Network(parseIp('2001:db8:1:2:3::1') as never, 48)).toBe('2001:db8:1::/48');
    expect(addressKey('::ffff:c000:201')).toBe('192.0.2.1');
    expect(normalizeIp('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeIp('::1.2.3.4')).toBe('::1.2.3.4');
    expect(normalizeIp('::ffff:c000:201')).toBe('::ffff:c000:201');
  });

  it('matches API key allow lists across the two families as BlockList did', () => {
    expect(addressAllowed('10.0.0.0/8', '::ffff:10.1.2.3')).toBe(true);
    expect(addressAllowed('10.0.0.0/8', '::ffff:a00:1')).toBe(true);
    expect(addressAllowed('::ffff:0:0/96', '1.2.3.4')).toBe(true);
    expect(addressAllowed('::/0', '1.2.3.4')).toBe(true);
    expect(addressAllowed('2001:db8::/32', '2001:DB8::1')).toBe(true);
    expect(addressAllowed('2001:db8::/32', '10.0.0.1')).toBe(false);
    expect(addressAllowed('1.2.3.4', 'unknown')).toBe(false);
  });
});

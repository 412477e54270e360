import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { isInternalAddress } from '../../src/server/notifications/channels/outbound';
import { hostAddresses, isPublicAddress } from '../../src/server/notifications/channels/public-address';

/** Every way an IPv6 address can carry an IPv4 one (a.b.c.d), as a resolver could return it. */
function embeddings(ipv4: string): string[] {
  const o = ipv4.split('.').map(Number);
  const hi = ((o[0] << 8) | o[1]).toString(16);
  const lo = ((o[2] << 8) | o[3]).toString(16);
  const inv = (x: string) => (parseInt(x, 16) ^ 0xffff).toString(16);
  return [
    ipv4,
    `::ffff:${ipv4}`, // IPv4-mapped
    `::ffff:${hi}:${lo}`,
    `0:0:0:0:0:ffff:${hi}:${lo}`,
    `::${ipv4}`, // IPv4-compatible
    `::${hi}:${lo}`,
    `::ffff:0:${ipv4}`, // RFC 6145 translated
    `64:ff9b::${ipv4}`, // NAT64, well-known prefix
    `64:ff9b::${hi}:${lo}`,
    `2002:${hi}:${lo}::1`, // 6to4
    `2002:${hi}:${lo}:5:6:7:8:9`,
    `2001:0:4136:e378:8000:63bf:${inv(hi)}:${inv(lo)}`, // Teredo: a public server, the client inverted
  ];
}

const OWN_NONE = new Set<string>();

describe('which addresses a customer webhook may reach', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '192.168.1.1',
    '100.64.0.1',
    '172.16.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '192.0.2.1',
    '255.255.255.255',
  ])('every form of %s is refused', (ipv4) => {
    for (const ip of embeddings(ipv4)) expect(isPublicAddress(ip, OWN_NONE), ip).toBe(false);
  });

  it('every form of a public IPv4 is allowed', () => {
    for (const ip of embeddings('8.8.8.8')) expect(isPublicAddress(ip, OWN_NONE), ip).toBe(true);
    for (const ip of embeddings('1.1.1.1')) expect(isPublicAddress(ip, OWN_NONE), ip).toBe(true);
  });

  it('the local-use NAT64 prefix is refused in every layout, whatever IPv4 it seems to carry', () => {
    // 127.0.0.1 in the /48 layout with 8.8.8.8 in the last 32 bits; and the /96 layout.
    for (const ip of ['64:ff9b:1:7f00:0:100:808:808', '64:ff9b:1::8.8.8.8', '64:ff9b:1::808:808', '64:ff9b:1:ffff::1'])
      expect(isPublicAddress(ip, OWN_NONE), ip).toBe(false);
  });

  it('a Teredo address is judged by its server too', () => {
    // Server 10.0.0.1, client 8.8.8.8.
    expect(isPublicAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7', OWN_NONE)).toBe(false);
    expect(isPublicAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7', OWN_NONE)).toBe(true);
  });

  it('IPv6: only global unicast (2000::/3)', () => {
    for (const ip of [
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'ff0e::1',
      'fec0::1',
      '100::1',
      '2001:db8::1',
      '2001:2::1',
      '3fff::1',
      '4000::1',
      '::1.2.3',
    ]) {
      expect(isPublicAddress(ip, OWN_NONE), ip).toBe(false);
    }
    for (const ip of ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:81d::200e'])
      expect(isPublicAddress(ip, OWN_NONE), ip).toBe(true);
  });

  it('anything that is not an address is refused', () => {
    for (const ip of ['', 'localhost', 'example.com', '1.2.3', '999.1.1.1', '0x7f.1'])
      expect(isPublicAddress(ip, OWN_NONE), ip).toBe(false);
  });

  it("this machine's own addresses are refused, public ones too, in any spelling", () => {
    const own = new Set(['8.8.4.4', '2606:4700:0:0:0:0:0:64']);
    for (const ip of [
      '8.8.4.4',
      '::ffff:8.8.4.4',
      '64:ff9b::8.8.4.4',
      '2002:808:404::1',
      '2606:4700::64',
      '2606:4700:0::0064',
    ])
      expect(isPublicAddress(ip, own), ip).toBe(false);
    expect(isPublicAddress('8.8.8.8', own)).toBe(true);
    // Interfaces that cannot be listed (a sandbox without netlink): nothing is known not to be ours.
    expect(isPublicAddress('8.8.8.8', null)).toBe(false);
  });

  it('reads every interface address of this machine, and refuses each', () => {
    const own = hostAddresses();
    const listed = Object.values(os.networkInterfaces()).flatMap((l) => (l ?? []).map((i) => i.address));
    expect(listed.length).toBeGreaterThan(0);
    for (const ip of listed) {
      expect(isPublicAddress(ip, own), ip).toBe(false);
      expect(isInternalAddress(ip), ip).toBe(true);
    }
  });
});

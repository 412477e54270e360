import { describe, expect, it } from 'vitest';
import type { Host } from '../../src/server/db/schema';
import { diskTransition, RECOVER_MARGIN } from '../../src/server/nodes/host-check';
import {
  committedOn,
  freeSlots,
  pairKey,
  pairsInUse,
  pickHost,
  type HostAddresses,
} from '../../src/server/nodes/placement';
import type { DaemonProfile } from '../../src/server/fleet/profiles';

const host = (id: number, patch: Partial<Host> = {}): Host => ({
  id,
  name: `h${id}`,
  engine: 'docker',
  url: 'unix:///x.sock',
  ipv4: `192.0.2.${id}`,
  ipv6: null,
  dedicated_slots: 2,
  cloud_slots: 4,
  state: 'active',
  last_error: null,
  created_at: 0,
  disk_free_bytes: null,
  disk_total_bytes: null,
  disk_checked_at: null,
  disk_low_at: null,
  memory_total_bytes: null,
  credentials: null,
  ...patch,
});
const simulated: DaemonProfile = { run: 'simulator', rpc: 'dash', sync_seconds: 1, time_scale: 1 };
const image: DaemonProfile = {
  run: 'binary',
  program: '/usr/bin/x',
  image: 'localhost/x:1',
  rpc: 'bitcoin',
  flavour: 'none',
  ports: ['rpc'],
  args: [],
};
const binaryOnly: DaemonProfile = { ...image, image: undefined };

describe('placement', () => {
  it('takes the active host with the most free slots of the plan', () => {
    const hosts = [host(1), host(2, { dedicated_slots: 5 }), host(3, { dedicated_slots: 9, state: 'draining' })];
    const usage = new Map([[2, { dedicated: 4, cloud: 0 }]]);
    expect(pickHost(hosts, usage, 'dedicated', image)?.host.id).toBe(1); // h1: 2 free, h2: 1 free, h3 draining
    expect(pickHost(hosts, usage, 'cloud', image)?.host.id).toBe(1); // equal free: the first
  });

  it('passes a host short of disk, however many free slots it has, and counts none of its slots', () => {
    const hosts = [
      host(1, { cloud_slots: 50, disk_free_bytes: 1e9, disk_low_at: 1 }),
      host(2, { disk_free_bytes: 90e9 }),
      host(3, { disk_free_bytes: null }),
    ];
    expect(pickHost(hosts, new Map(), 'cloud', image)?.host.id).toBe(2); // h1 roomiest but short; h2 and h3 equal: the first
    expect(freeSlots(hosts, new Map(), 'cloud', image)).toBe(8);
    expect(pickHost([hosts[0]], new Map(), 'cloud', image)).toBeNull();
    expect(freeSlots([hosts[0]], new Map(), 'cloud', image)).toBe(0);
    // Never measured (a remote Docker that does not say): not held back.
    expect(pickHost([hosts[2]], new Map(), 'cloud', image)?.host.id).toBe(3);
    // A simulated node keeps no chain on disk: the demo on a small disk still deploys.
    const local = host(4, { engine: 'local', cloud_slots: 50, disk_free_bytes: 1e9, disk_low_at: 1 });
    expect(pickHost([local], new Map(), 'cloud', simulated)?.host.id).toBe(4);
    expect(pickHost([local], new Map(), 'cloud', image)).toBeNull();
  });

  it('marks a host short once per crossing of the disk threshold, and clears it back above with a margin', () => {
    const min = 20e9;
    expect(diskTransition(null, 25e9, min)).toBe('same');
    expect(diskTransition(null, 19e9, min)).toBe('low');
    expect(diskTransition(5, 10e9, min)).toBe('same'); // still low: no second alert
    expect(diskTransition(5, 20.5e9, min)).toBe('same'); // just above the line: not yet recovered
    expect(diskTransition(5, min * RECOVER_MARGIN, min)).toBe('recovered');
    expect(diskTransition(null, 1, 0)).toBe('same'); // threshold off
    expect(diskTransition(5, 1, 0)).toBe('recovered');
  });

  it('answers null when every host is full, draining or gone', () => {
    const hosts = [host(1, { state: 'gone' }), host(2, { state: 'draining' }), host(3)];
    expect(pickHost(hosts, new Map([[3, { dedicated: 2, cloud: 0 }]]), 'dedicated', image)).toBeNull();
    expect(pickHost(hosts, new Map(), 'cloud', image)?.host.id).toBe(3);
    expect(pickHost([], new Map(), 'cloud', image)).toBeNull();
  });

  it('keeps simulated and image-less daemons on the local host', () => {
    const hosts = [host(1, { dedicated_slots: 50 }), host(2, { engine: 'local', url: null, dedicated_slots: 1 })];
    expect(pickHost(hosts, new Map(), 'dedicated', simulated)?.host.id).toBe(2);
    expect(pickHost(hosts, new Map(), 'dedicated', binaryOnly)?.host.id).toBe(2);
    expect(pickHost(hosts, new Map(), 'dedicated', image)?.host.id).toBe(1);
    expect(pickHost(hosts, new Map([[2, { dedicated: 1, cloud: 0 }]]), 'dedicated', simulated)).toBeNull();
  });

  describe('fixed public P2P ports', () => {
    const dashd: DaemonProfile = { ...image, p2p_port: 9999, ports: ['rpc', 'p2p'] };
    const firod: DaemonProfile = { ...image, p2p_port: 8168, ports: ['rpc', 'p2p'] };

    it("puts the coin's port on a free public address, IPv6 too where the host has one", () => {
      const hosts = [host(1, { ipv6: '2001:db8::1' })];
      expect(pickHost(hosts, new Map(), 'dedicated', dashd)).toMatchObject({
        host: { id: 1 },
        ipv4: '192.0.2.1',
        ipv6: '2001:db8::1',
        p2pPort: 9999,
      });
      // The simulator publishes nothing: no port, the host's address as before.
      expect(pickHost([host(2, { engine: 'local', url: null })], new Map(), 'dedicated', simulated)).toMatchObject({
        ipv4: '192.0.2.2',
        p2pPort: null,
      });
    });

    it('refuses a host whose every address has the port taken, whatever its free slots', () => {
      const hosts = [host(1, { dedicated_slots: 50 }), host(2, { dedicated_slots: 3 })];
      const inUse = pairsInUse([{ host_id: 1, server_ip: '192.0.2.1', server_ip6: null, p2p_port: 9999 }]);
      expect(pickHost(hosts, new Map(), 'dedicated', dashd, { inUse })?.host.id).toBe(2);
      // Another coin's port on the same address is free: the roomier host again.
      expect(pickHost(hosts, new Map(), 'dedicated', firod, { inUse })?.host.id).toBe(1);
      const full = pairsInUse([
        { host_id: 1, server_ip: '192.0.2.1', server_ip6: null, p2p_port: 9999 },
        { host_id: 2, server_ip: '192.0.2.2', server_ip6: null, p2p_port: 9999 },
      ]);
      expect(pickHost(hosts, new Map(), 'dedicated', dashd, { inUse: full })).toBeNull();
      // A free IPv6 alone does not make a masternode address: IPv4 is required.
      const v6 = [host(3, { ipv6: '2001:db8::3' })];
      expect(
        pickHost(v6, new Map(), 'dedicated', dashd, {
          inUse: pairsInUse([{ host_id: 3, server_ip: '192.0.2.3', server_ip6: null, p2p_port: 9999 }]),
        }),
      ).toBeNull();
      // A host without any public IPv4 cannot take a real masternode.
      expect(pickHost([host(4, { ipv4: '' })], new Map(), 'dedicated', dashd)).toBeNull();
    });

    it('counts address:port pairs when a host has several addresses', () => {
      const many: HostAddresses = {
        ipv4: ['198.51.100.1', '198.51.100.2', '198.51.100.3'],
        ipv6: ['2001:db8::a', '2001:db8::b'],
      };
      const hosts = [host(1, { dedicated_slots: 10 })];
      const placed: string[] = [];
      const rows: Array<{ host_id: number; server_ip: string | null; server_ip6: string | null; p2p_port: number }> =
        [];
      for (;;) {
        const p = pickHost(hosts, new Map(), 'dedicated', dashd, { inUse: pairsInUse(rows), addresses: () => many });
        if (!p) break;
        placed.push(`${p.ipv4} ${p.ipv6}`);
        rows.push({ host_id: p.host.id, server_ip: p.ipv4, server_ip6: p.ipv6, p2p_port: p.p2pPort! });
      }
      // Three IPv4 addresses: three Dash nodes, the first two with an IPv6 each.
      expect(placed).toEqual(['198.51.100.1 2001:db8::a', '198.51.100.2 2001:db8::b', '198.51.100.3 null']);
      expect(pairsInUse(rows).get(1)).toEqual(
        new Set([
          '198.51.100.1:9999',
          '[2001:db8::a]:9999',
          '198.51.100.2:9999',
          '[2001:db8::b]:9999',
          '198.51.100.3:9999',
        ]),
      );
      expect(pairKey('2001:db8::1', 1)).toBe('[2001:db8::1]:1');
    });
  });
});

describe('disk and memory a profile needs', () => {
  const GB = 1024 ** 3;
  const chain: DaemonProfile = {
    run: 'binary',
    program: '/usr/bin/x',
    image: 'localhost/x:1',
    rpc: 'bitcoin',
    flavour: 'dash',
    ports: ['rpc'],
    args: [],
    resources: { disk_gb: 60, memory_gb: 2 },
  };
  const profiles = { chain, simulated };
  const measured = (id: number, diskGb: number, memoryGb: number) =>
    host(id, { disk_total_bytes: diskGb * GB, disk_free_bytes: diskGb * GB, memory_total_bytes: memoryGb * GB });

  it('refuses a host that has not reported its disk and memory, for a daemon that names its needs', () => {
    expect(pickHost([host(1)], new Map(), 'dedicated', chain, { profiles })).toBeNull();
    expect(pickHost([host(1, { disk_total_bytes: 500 * GB })], new Map(), 'dedicated', chain, { profiles })).toBeNull();
    expect(pickHost([measured(1, 500, 16)], new Map(), 'dedicated', chain, { profiles })?.host.id).toBe(1);
    // The simulator needs neither.
    expect(pickHost([host(1, { engine: 'local' })], new Map(), 'dedicated', simulated, { profiles })?.host.id).toBe(1);
  });

  it('counts what the host’s nodes commit, this one included', () => {
    const use = new Map([[1, { dedicated: 1, cloud: 0, profiles: { chain: 1, simulated: 3 } }]]);
    expect(committedOn(use.get(1), profiles)).toEqual({ diskGb: 60, memoryGb: 2 });
    // 100 GB of disk: one chain (60) fits, two (120) do not.
    expect(pickHost([measured(1, 100, 16)], use, 'dedicated', chain, { profiles })).toBeNull();
    expect(pickHost([measured(1, 130, 16)], use, 'dedicated', chain, { profiles })?.host.id).toBe(1);
    // 3 GB of memory: 2 + 2 do not fit.
    expect(pickHost([measured(1, 500, 3)], use, 'dedicated', chain, { profiles })).toBeNull();
    expect(freeSlots([measured(1, 500, 3), measured(2, 500, 16)], use, 'dedicated', chain, profiles)).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import type { Host } from '../../src/server/db/schema';
import { pickHost } from '../../src/server/fleet/placement';
import type { DaemonProfile } from '../../src/server/fleet/profiles';

const host = (id: number, patch: Partial<Host> = {}): Host => ({ id, name: `h${id}`, engine: 'docker', url: 'unix:///x.sock', ipv4: `192.0.2.${id}`, ipv6: null, dedicated_slots: 2, cloud_slots: 4, state: 'active', last_error: null, created_at: 0, ...patch });
const simulated: DaemonProfile = { run: 'simulator', rpc: 'dash', sync_seconds: 1, time_scale: 1 };
const image: DaemonProfile = { run: 'binary', program: '/usr/bin/x', image: 'localhost/x:1', rpc: 'bitcoin', flavour: 'none', ports: ['rpc'], args: [] };
const binaryOnly: DaemonProfile = { ...image, image: undefined };

describe('placement', () => {
  it('takes the active host with the most free slots of the plan', () => {
    const hosts = [host(1), host(2, { dedicated_slots: 5 }), host(3, { dedicated_slots: 9, state: 'draining' })];
    const usage = new Map([[2, { dedicated: 4, cloud: 0 }]]);
    expect(pickHost(hosts, usage, 'dedicated', image)?.id).toBe(1); // h1: 2 free, h2: 1 free, h3 draining
    expect(pickHost(hosts, usage, 'cloud', image)?.id).toBe(1); // equal free: the first
  });

  it('answers null when every host is full, draining or gone', () => {
    const hosts = [host(1, { state: 'gone' }), host(2, { state: 'draining' }), host(3)];
    expect(pickHost(hosts, new Map([[3, { dedicated: 2, cloud: 0 }]]), 'dedicated', image)).toBeNull();
    expect(pickHost(hosts, new Map(), 'cloud', image)?.id).toBe(3);
    expect(pickHost([], new Map(), 'cloud', image)).toBeNull();
  });

  it('keeps simulated and image-less daemons on the local host', () => {
    const hosts = [host(1, { dedicated_slots: 50 }), host(2, { engine: 'local', url: null, dedicated_slots: 1 })];
    expect(pickHost(hosts, new Map(), 'dedicated', simulated)?.id).toBe(2);
    expect(pickHost(hosts, new Map(), 'dedicated', binaryOnly)?.id).toBe(2);
    expect(pickHost(hosts, new Map(), 'dedicated', image)?.id).toBe(1);
    expect(pickHost(hosts, new Map([[2, { dedicated: 1, cloud: 0 }]]), 'dedicated', simulated)).toBeNull();
  });
});

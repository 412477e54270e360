import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledCatalogPath } from '../../src/server/coins/import';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import { activityWay, fill, loadProfiles, productionProfile } from '../../src/server/fleet/profiles';
import { buildSpec } from '../../src/server/nodes/daemon-spec';
import { tempDataDir } from '../support/server';

const profiles = loadProfiles(bundledCatalogPath('daemons.json'));
const coins: Array<{ id: string; family: string }> = JSON.parse(
  fs.readFileSync(bundledCatalogPath('coins.json'), 'utf8'),
).coins;

describe('catalog/daemons.json production profiles', () => {
  it('names a real daemon with a fixed P2P port for every coin of the catalog', () => {
    expect(coins.length).toBeGreaterThan(30);
    for (const coin of coins) {
      const found = productionProfile(profiles, coin.id);
      expect(found, `coin ${coin.id} has no production profile`).not.toBeNull();
      const p = found!.profile;
      expect(p.p2p_port, coin.id).toBeGreaterThan(0);
      expect(p.ports, coin.id).toContain('p2p');
      expect(p.image, coin.id).toMatch(/^[a-z0-9./-]+:[\w.-]+$/);
      expect(p.version, coin.id).toBeTruthy();
      expect(p.source, coin.id).toBeTruthy();
      // Every placeholder of its arguments and config resolves.
      const values = {
        data: '/data',
        ports: Object.fromEntries(p.ports.map((n, i) => [n, 20_000 + i])),
        rpcUser: 'u',
        rpcPassword: 'p',
        publicIp: '192.0.2.7',
      };
      const text = [...p.args, p.config ?? ''].map((t) => fill(t, values)).join('\n');
      expect(text, coin.id).not.toMatch(/\{[a-z_:]+\}/);
    }
  });

  it("has the coins' well-known mainnet ports", () => {
    const port = (coin: string) => productionProfile(profiles, coin)!.profile.p2p_port;
    expect({
      dash: port('dash'),
      firo: port('firo'),
      sys: port('sys'),
      pivx: port('pivx'),
      zen: port('zen42'),
      nrg: port('nrg'),
      bdx: port('bdx'),
      oxen: port('oxen'),
      sin: port('sin'),
      defi: port('defi'),
      xsn: port('xsn'),
    }).toEqual({
      dash: 9999,
      firo: 8168,
      sys: 8369,
      pivx: 51472,
      zen: 9033,
      nrg: 39797,
      bdx: 19090,
      oxen: 22022,
      sin: 20970,
      defi: 8555,
      xsn: 62583,
    });
    // Dash-family daemons keep an address index: the collateral's activity is read from it.
    expect(productionProfile(profiles, 'dash')!.profile.config).toMatch(/^addressindex=1$/m);
    expect(productionProfile(profiles, 'dash')!.profile.config).toMatch(/^externalip=\{public_ip\}$/m);
  });

  it('says how each bitcoin-family daemon reads the collateral activity', () => {
    const way = (id: string) => activityWay(profiles[id]);
    // An address index where the daemon keeps one, a watch-only wallet where it does not.
    expect({
      dashd: way('dashd'),
      polisd: way('polisd'),
      pivxd: way('pivxd'),
      sind: way('sind'),
      litecoind: way('litecoind-regtest'),
      simDash: way('simulator-dash'),
      simClassic: way('simulator-classic'),
    }).toEqual({
      dashd: 'address_index',
      polisd: 'address_index',
      pivxd: 'watch_wallet',
      sind: 'watch_wallet',
      litecoind: 'watch_wallet',
      simDash: 'address_index',
      simClassic: 'address_index',
    });
    for (const [id, p] of Object.entries(profiles)) {
      if (p.rpc !== 'bitcoin' && p.rpc !== 'dash') expect(activityWay(p), id).toBe('none');
      if (p.run === 'binary' && p.rpc === 'bitcoin') expect(p.activity, `${id} names its way`).toBeDefined();
      if (p.run === 'binary' && p.activity === 'address_index') expect(p.config, id).toMatch(/^addressindex=1$/m);
    }
  });

  it('refuses an address-index reading from a daemon without the index, and activity from a non-bitcoin daemon', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'daemons.json');
    const shipped = JSON.parse(fs.readFileSync(bundledCatalogPath('daemons.json'), 'utf8'));
    shipped.profiles.pivxd.activity = 'address_index';
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/activity "address_index" needs addressindex=1/);
    shipped.profiles.pivxd.activity = 'watch_wallet';
    shipped.profiles.oxend.activity = 'watch_wallet';
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/only a bitcoin-family daemon can read wallet activity/);
    shipped.profiles.oxend.activity = 'sometimes';
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/oxend\.activity/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a profile whose fixed P2P port names no p2p port, and a missing public address', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'daemons.json');
    const shipped = JSON.parse(fs.readFileSync(bundledCatalogPath('daemons.json'), 'utf8'));
    shipped.profiles.dashd.ports = ['rpc'];
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/a profile with p2p_port must name a "p2p" port/);
    shipped.profiles.dashd.ports = ['rpc', 'p2p'];
    shipped.profiles.dashd.p2p_port = 70_000;
    fs.writeFileSync(file, JSON.stringify(shipped));
    expect(() => loadProfiles(file)).toThrow(/p2p_port/);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(() => fill('externalip={public_ip}', { data: '/d', ports: {}, rpcUser: 'u', rpcPassword: 'p' })).toThrow(
      /no public address/,
    );
  });

  it("builds a real node's spec: the coin's port, published on the node's public addresses, announced in its config", async () => {
    const dir = tempDataDir();
    // Only the columns buildSpec reads.
    const node = {
      mn_id: 'dash-abc',
      user_id: 7,
      package: 'dedicated',
      rpc_user: 'nk1',
      rpc_password: 'pw',
      server_ip: '203.0.113.7',
      server_ip6: '2001:db8::7',
    } as Masternode;
    const coin = { id: 'dash', label: 'Dash' } as CoinRecord;
    const host = { id: 1, engine: 'docker' } as Host;
    const { profile } = productionProfile(profiles, 'dash')!;
    const { spec } = await buildSpec(node, coin, profile, host, dir);
    expect(spec.program).toBe('dashpay/dashd:22.1.3');
    expect(spec.ports).toMatchObject({ p2p: 9999 });
    expect(spec.publish).toEqual([{ port: 'p2p', hostIps: ['203.0.113.7', '2001:db8::7'], hostPort: 9999 }]);
    // The config goes into the container as a file; the arguments only name it.
    expect(spec.args).toEqual(['-conf=/data/dash.conf', '-datadir=/data']);
    expect(spec.files).toHaveLength(1);
    expect(spec.files![0]).toMatchObject({ name: 'dash.conf', mode: 0o600 });
    expect(spec.files![0].content.split('\n')).toEqual(
      expect.arrayContaining(['port=9999', 'externalip=203.0.113.7', 'addressindex=1', 'rpcuser=nk1']),
    );
    await expect(buildSpec({ ...node, server_ip: null }, coin, profile, host, dir)).rejects.toThrow(
      /needs a public IPv4 for its P2P port 9999/,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

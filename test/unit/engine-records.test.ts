import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoinRecord, Host, Masternode } from '../../src/server/db/schema';
import type { BinaryProfile } from '../../src/server/fleet/profiles';
import { LocalEngine } from '../../src/server/fleet/engines/local';
import { buildSpec } from '../../src/server/nodes/daemon-spec';
import { plainFileName } from '../../src/server/fleet/engine';
import { tarOf } from '../../src/server/fleet/engines/tar';
import { loadProfiles } from '../../src/server/fleet/profiles';
import { bundledCatalogPath } from '../../src/server/coins/import';
import { memoryLogger } from '../../src/server/kernel/log';

// What the local engine keeps of a node: one set of ports however often its provision is tried.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodekeep-records-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const profile = {
  run: 'binary',
  program: '/usr/bin/litecoind',
  rpc: 'bitcoin',
  flavour: 'bitcoin',
  ports: ['rpc', 'zmq'],
  args: ['-conf={data}/litecoin.conf'],
  config_file: 'litecoin.conf',
  config: 'server=1\nrpcbind={rpc_bind}\nrpcport={port:rpc}\n',
} as unknown as BinaryProfile;
const coin = { id: 'ltc', label: 'Litecoin', details: '{}' } as unknown as CoinRecord;
const host = { engine: 'local' } as Host;
const nodeOf = (id: string) =>
  ({
    mn_id: id,
    user_id: 1,
    package: 'cloud',
    rpc_user: 'u',
    rpc_password: 'p',
    server_ip: null,
    server_ip6: null,
    output_text: null,
    ports: '{}',
  }) as unknown as Masternode;
const configPort = (id: string) =>
  Number(/rpcport=(\d+)/.exec(fs.readFileSync(path.join(dir, 'data', id, 'litecoin.conf'), 'utf8'))![1]);

describe('a retried provision on the local engine', () => {
  it('keeps the ports of the first try when the runtime asks the engine for them', async () => {
    const engine = new LocalEngine({ dir: path.join(dir, 'local'), log: memoryLogger(), simulatorCommand: ['true'] });
    const node = nodeOf('ltc-retry');
    const first = await buildSpec(node, coin, profile, host, dir);
    await engine.create(first.spec);
    // The second try, as Fleet.provision makes it: the ports the engine already has.
    const known = await engine.portsOf('ltc-retry');
    expect(known).toEqual(first.ports);
    const second = await buildSpec(node, coin, profile, host, dir, { ports: known! });
    await engine.create(second.spec);
    const { port } = await engine.rpcEndpoint('ltc-retry');
    expect(configPort('ltc-retry')).toBe(port);
    // What the runtime saves with the placement.
    expect(second.ports.rpc).toBe(port);
    await engine.close();
  });

  it('takes the new spec when created again with other ports while not running', async () => {
    const engine = new LocalEngine({ dir: path.join(dir, 'local'), log: memoryLogger(), simulatorCommand: ['true'] });
    const node = nodeOf('ltc-again');
    await engine.create((await buildSpec(node, coin, profile, host, dir, { ports: { rpc: 41001, zmq: 41002 } })).spec);
    const second = await buildSpec(node, coin, profile, host, dir, { ports: { rpc: 41003, zmq: 41004 } });
    await engine.create(second.spec);
    expect((await engine.rpcEndpoint('ltc-again')).port).toBe(41003);
    expect(configPort('ltc-again')).toBe(41003);
    expect(await engine.portsOf('ltc-again')).toEqual(second.ports);
    await engine.close();
  });
});

describe('the names of files the fleet places', () => {
  it('are plain names for tar, the local engine and a profile config_file alike', async () => {
    for (const bad of ['..', '.', '.hidden', 'a/b', '../x', '', 'x'.repeat(101)]) {
      expect(plainFileName(bad), bad).toBe(false);
      expect(() => tarOf([{ name: bad, content: 'x', mode: 0o600 }]), bad).toThrow(/not a plain file name/);
    }
    expect((await tarOf([{ name: 'dash.conf', content: 'x', mode: 0o600 }])).length).toBe(4 * 512);
    const engine = new LocalEngine({ dir: path.join(dir, 'local'), log: memoryLogger(), simulatorCommand: ['true'] });
    const spec = (await buildSpec(nodeOf('ltc-names'), coin, profile, host, dir)).spec;
    await expect(engine.create({ ...spec, files: [{ name: '..', content: 'x', mode: 0o600 }] })).rejects.toThrow(
      /not a plain file name/,
    );
    await engine.close();
    const file = path.join(dir, 'daemons.json');
    const shipped = JSON.parse(fs.readFileSync(bundledCatalogPath('daemons.json'), 'utf8'));
    expect(() => loadProfiles(bundledCatalogPath('daemons.json'))).not.toThrow();
    for (const bad of ['..', '.litecoin.conf']) {
      shipped.profiles['litecoind-regtest'].config_file = bad;
      fs.writeFileSync(file, JSON.stringify(shipped));
      expect(() => loadProfiles(file), bad).toThrow(/config_file must be a plain file name/);
    }
  });
});

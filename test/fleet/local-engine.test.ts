import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bitcoinCall, observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { observeMonero } from '../../src/server/fleet/daemons/monero';
import { LocalEngine, SIMULATOR_PROGRAM } from '../../src/server/fleet/engines/local';
import { simulatorCommand } from '../../src/server/fleet/engines/registry';
import { memoryLogger } from '../../src/server/log';
import * as v from 'valibot';
import { haveBinary, pidsMatching, realDaemonSpec, waitFor } from '../support/daemons';
import { tempDataDir } from '../support/server';

const root = tempDataDir('nodekeep-engine-');
const engines: LocalEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});
afterAll(() => {
  // Nothing this file started may outlive it.
  expect(pidsMatching(root)).toEqual([]);
  fs.rmSync(root, { recursive: true, force: true });
});

function engine(dir = path.join(root, 'local')) {
  const e = new LocalEngine({ dir, log: memoryLogger(), simulatorCommand: simulatorCommand(), backoffMs: 200 });
  engines.push(e);
  return e;
}

const simSpec = (nodeId: string) => ({
  nodeId,
  ownerId: 1,
  coinId: 'dash',
  plan: 'cloud' as const,
  program: SIMULATOR_PROGRAM,
  args: [],
  ports: {},
  rpcPort: 'rpc',
  dataDir: path.join(root, 'simdata', nodeId),
  limits: { memoryBytes: 0, cpus: 0 },
  simulated: { rpc: 'dash' as const, blockTimeS: 1, syncSeconds: 0 },
});

describe('local engine with the coin-daemon simulator', () => {
  it('serves many nodes from one simulator process, restarts it after a crash, and stops it on close', async () => {
    const e = engine(path.join(root, 'sim'));
    for (const id of ['s1', 's2', 's3']) {
      await e.create(simSpec(id));
      await e.start(id);
    }
    const pid = e.pidOf('s1')!;
    expect(e.pidOf('s2')).toBe(pid);
    const rpc = async (id: string) => observeBitcoin({ endpoint: await e.rpcEndpoint(id), timeoutMs: 2000 }, 'dash', true);
    expect((await rpc('s2')).networkStatus).toBe('WAITING_FOR_PROTX');

    process.kill(pid, 'SIGKILL');
    await waitFor(async () => (await e.inspect('s1')).state === 'restarting' || e.pidOf('s1') !== pid, 5000, 'the crash to be noticed');
    await waitFor(async () => e.pidOf('s1') !== null && e.pidOf('s1') !== pid && (await rpc('s1')), 10_000, 'the simulator to come back');
    expect((await e.inspect('s3')).restarts).toBeGreaterThanOrEqual(1);
    expect((await rpc('s3')).blocks).toBeGreaterThan(0); // its nodes came back with it

    await e.destroy('s2');
    expect((await e.inspect('s2')).state).toBe('missing');
    expect(await e.list()).toEqual(['s1', 's3']);
    const last = e.pidOf('s1')!;
    await e.close();
    engines.splice(engines.indexOf(e), 1);
    expect(pidsMatching(path.join(root, 'sim'))).toEqual([]);
    expect(last).toBeGreaterThan(0);
  });
});

const BlockCount = v.pipe(v.number(), v.integer());

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('local engine with a real litecoind (regtest)', () => {
  it('starts it, reads its RPC, restarts it after a crash and adopts it after an engine crash', async () => {
    const dir = path.join(root, 'ltc');
    const e = engine(dir);
    const { spec, auth } = await realDaemonSpec('litecoind-regtest', 'ltc1', path.join(root, 'ltcdata'));
    await e.create(spec);
    await e.start('ltc1');
    const rpc = async () => ({ endpoint: await e.rpcEndpoint('ltc1'), auth, timeoutMs: 3000 });
    const first = await waitFor(async () => observeBitcoin(await rpc(), 'none', false), 20_000, 'litecoind RPC');
    expect(first.wallet?.version).toMatch(/LitecoinCore/);
    expect(first.blocks).toBe(0);
    await bitcoinCall(await rpc(), 'createwallet', ['miner'], v.unknown());
    const addr = await bitcoinCall(await rpc(), 'getnewaddress', [], v.string());
    await bitcoinCall(await rpc(), 'generatetoaddress', [5, addr], v.array(v.string()));
    expect(await bitcoinCall(await rpc(), 'getblockcount', [], BlockCount)).toBe(5);

    // A crash: the engine restarts it. (Blocks not yet flushed to disk may be lost, as with any kill -9.)
    const pid = e.pidOf('ltc1')!;
    process.kill(pid, 'SIGKILL');
    await waitFor(async () => e.pidOf('ltc1') !== null && e.pidOf('ltc1') !== pid, 10_000, 'litecoind restart');
    try {
      expect(await waitFor(async () => (await bitcoinCall(await rpc(), 'getblockcount', [], BlockCount)) + 1, 30_000, 'RPC after restart')).toBeGreaterThan(0);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- daemon log ---\n${await e.logs('ltc1', 40)}`);
    }
    expect((await e.inspect('ltc1')).restarts).toBe(1);
    const height = await bitcoinCall(await rpc(), 'getblockcount', [], BlockCount);

    // The platform dies without stopping its children: a new engine adopts the daemon, no duplicate.
    const running = e.pidOf('ltc1')!;
    engines.splice(engines.indexOf(e), 1); // abandoned, as a crashed process would leave it
    const again = engine(dir);
    expect(await again.resume()).toEqual({ adopted: ['ltc1'], started: [] });
    expect(again.pidOf('ltc1')).toBe(running);
    expect(pidsMatching(path.join(root, 'ltcdata', 'ltc1')).length).toBe(1);
    expect(await bitcoinCall({ endpoint: await again.rpcEndpoint('ltc1'), auth, timeoutMs: 3000 }, 'getblockcount', [], BlockCount)).toBe(height);
    expect((await again.logs('ltc1', 20)).length).toBeGreaterThan(0);

    await again.stop('ltc1');
    expect((await again.inspect('ltc1')).state).toBe('created');
    expect(pidsMatching(path.join(root, 'ltcdata', 'ltc1'))).toEqual([]);
    await again.destroy('ltc1');
    expect(fs.existsSync(path.join(root, 'ltcdata', 'ltc1'))).toBe(false);
  }, 90_000);
});

describe.skipIf(!haveBinary('/usr/bin/monerod'))('local engine with a real monerod (regtest)', () => {
  it('starts it, reads get_info, and stops it', async () => {
    const e = engine(path.join(root, 'xmr'));
    const { spec } = await realDaemonSpec('monerod-regtest', 'xmr1', path.join(root, 'xmrdata'));
    await e.create(spec);
    await e.start('xmr1');
    const obs = await waitFor(async () => observeMonero(await e.rpcEndpoint('xmr1'), 3000, false), 60_000, 'monerod RPC');
    expect(obs.synced).toBe(true);
    expect(obs.blocks).toBeGreaterThanOrEqual(1);
    expect(obs.wallet?.version).toMatch(/^0\.18/);
    await e.close();
    engines.splice(engines.indexOf(e), 1);
    expect(pidsMatching(path.join(root, 'xmrdata', 'xmr1'))).toEqual([]);
  }, 90_000);
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { observeMonero } from '../../src/server/fleet/daemons/monero';
import { LocalEngine } from '../../src/server/fleet/engines/local';
import { simulatorCommand } from '../../src/server/fleet/engines/registry';
import { memoryLogger } from '../../src/server/kernel/log';
import * as v from 'valibot';
import {
  DAEMON_BUDGET_MS,
  ensureWallet,
  haveBinary,
  mineTo,
  pidsMatching,
  realDaemonSpec,
  rpc,
  waitFor,
} from '../support/daemons';
import { tempDataDir } from '../support/server';

// The local engine with real coin daemons in regtest. Every wait and RPC call has a
// budget sized for a loaded machine (DAEMON_BUDGET_MS) and reports the daemon's last error.
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

const BlockCount = v.pipe(v.number(), v.integer());

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))('local engine with a real litecoind (regtest)', () => {
  it('starts it, reads its RPC, restarts it after a crash and adopts it after an engine crash', async () => {
    const dir = path.join(root, 'ltc');
    const e = engine(dir);
    const { spec, auth } = await realDaemonSpec('litecoind-regtest', 'ltc1', path.join(root, 'ltcdata'));
    await e.create(spec);
    await e.start('ltc1');
    // The endpoint is asked anew for every call: it is the same after a restart, but need not be.
    const target = async () => ({ endpoint: await e.rpcEndpoint('ltc1'), auth });
    const first = await waitFor(
      async () => observeBitcoin({ ...(await target()), timeoutMs: 10_000 }, 'none', false),
      DAEMON_BUDGET_MS,
      'litecoind RPC',
    );
    expect(first.wallet?.version).toMatch(/LitecoinCore/);
    expect(first.blocks).toBe(0);
    await ensureWallet(target, 'miner');
    expect(await mineTo(target, 5)).toBe(5);
    expect(await rpc(target, 'getblockcount', [], BlockCount)).toBe(5);

    // A crash: the engine restarts it. (Blocks not yet flushed to disk may be lost, as with any kill -9.)
    const pid = e.pidOf('ltc1')!;
    process.kill(pid, 'SIGKILL');
    await waitFor(
      async () => e.pidOf('ltc1') !== null && e.pidOf('ltc1') !== pid,
      DAEMON_BUDGET_MS,
      'litecoind restart',
    );
    try {
      expect(await rpc(target, 'getblockcount', [], BlockCount)).toBeGreaterThanOrEqual(0);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- daemon log ---\n${await e.logs('ltc1', 40)}`);
    }
    expect((await e.inspect('ltc1')).restarts).toBe(1);
    const height = await rpc(target, 'getblockcount', [], BlockCount);

    // The platform dies without stopping its children: a new engine adopts the daemon, no duplicate.
    const running = e.pidOf('ltc1')!;
    engines.splice(engines.indexOf(e), 1); // abandoned, as a crashed process would leave it
    const again = engine(dir);
    expect(await again.resume()).toEqual({ adopted: ['ltc1'], started: [] });
    expect(again.pidOf('ltc1')).toBe(running);
    expect(pidsMatching(path.join(root, 'ltcdata', 'ltc1')).length).toBe(1);
    expect(
      await rpc(async () => ({ endpoint: await again.rpcEndpoint('ltc1'), auth }), 'getblockcount', [], BlockCount),
    ).toBe(height);
    expect((await again.logs('ltc1', 20)).length).toBeGreaterThan(0);

    await again.stop('ltc1');
    expect((await again.inspect('ltc1')).state).toBe('created');
    expect(pidsMatching(path.join(root, 'ltcdata', 'ltc1'))).toEqual([]);
    await again.destroy('ltc1');
    expect(fs.existsSync(path.join(root, 'ltcdata', 'ltc1'))).toBe(false);
  });
});

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))(
  'a stop that keeps the daemons (SIGTERM), and fleet stop-local after it',
  () => {
    it('leaves litecoind running for the next engine, starts nothing once stopping, and stops what was left', async () => {
      const dir = path.join(root, 'keep');
      const e = engine(dir);
      const { spec } = await realDaemonSpec('litecoind-regtest', 'ltc-keep', path.join(root, 'keepdata'));
      await e.create(spec);
      await e.start('ltc-keep');
      const pid = e.pidOf('ltc-keep')!;
      expect(pid).toBeGreaterThan(0);

      await e.close({ keepDaemons: true });
      expect(pidsMatching(path.join(root, 'keepdata', 'ltc-keep'))).toEqual([pid]);

      // An engine that is stopping starts nothing (it would be left behind): here not even
      // the duplicate a start without resume would launch.
      const stopping = engine(dir);
      stopping.stopRestarting();
      await expect(stopping.start('ltc-keep')).rejects.toThrow(/not started: the server is stopping/);
      expect(pidsMatching(path.join(root, 'keepdata', 'ltc-keep'))).toEqual([pid]);

      // The operator's fleet stop-local, with no server: the daemon is stopped and waited for.
      expect(await new LocalEngine({ dir, log: memoryLogger(), simulatorCommand: [] }).stopLeftRunning()).toEqual([
        'ltc-keep',
      ]);
      expect(pidsMatching(path.join(root, 'keepdata', 'ltc-keep'))).toEqual([]);
      expect(await new LocalEngine({ dir, log: memoryLogger(), simulatorCommand: [] }).stopLeftRunning()).toEqual([]);
    });
  },
);

describe.skipIf(!haveBinary('/usr/lib/litecoin/litecoind'))(
  'a createwallet slower than its deadline (as on a loaded machine)',
  () => {
    it('is retried until the wallet is loaded, and mining then works', async () => {
      const e = engine(path.join(root, 'ltc-slow'));
      const { spec, auth } = await realDaemonSpec('litecoind-regtest', 'ltc2', path.join(root, 'ltcdata'));
      await e.create(spec);
      await e.start('ltc2');
      let tries = 0;
      const target = async () => {
        tries += 1;
        return { endpoint: await e.rpcEndpoint('ltc2'), auth };
      };
      await rpc(target, 'getblockcount', [], BlockCount);
      // Filling the key pool takes litecoind far longer than 100 ms: the first try times out
      // here while the daemon goes on. Before, this surfaced later as "No wallet is loaded".
      tries = 0;
      await ensureWallet(target, 'miner', { attemptMs: 100 });
      expect(tries).toBeGreaterThan(1);
      expect(await rpc(target, 'listwallets', [], v.array(v.string()))).toEqual(['miner']);
      expect(await mineTo(target, 2)).toBe(2);
      await e.close();
      engines.splice(engines.indexOf(e), 1);
      expect(pidsMatching(path.join(root, 'ltcdata', 'ltc2'))).toEqual([]);
    });
  },
);

describe.skipIf(!haveBinary('/usr/bin/monerod'))('local engine with a real monerod (regtest)', () => {
  it('starts it, reads get_info, and stops it', async () => {
    const e = engine(path.join(root, 'xmr'));
    const { spec } = await realDaemonSpec('monerod-regtest', 'xmr1', path.join(root, 'xmrdata'));
    await e.create(spec);
    await e.start('xmr1');
    const obs = await waitFor(
      async () => observeMonero(await e.rpcEndpoint('xmr1'), 10_000, false),
      DAEMON_BUDGET_MS,
      'monerod RPC',
    );
    expect(obs.synced).toBe(true);
    expect(obs.blocks).toBeGreaterThanOrEqual(1);
    expect(obs.wallet?.version).toMatch(/^0\.18/);
    await e.close();
    engines.splice(engines.indexOf(e), 1);
    expect(pidsMatching(path.join(root, 'xmrdata', 'xmr1'))).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { checkBurn } from '../../src/server/fleet/daemons/burn';
import { LocalEngine, SIMULATOR_PROGRAM } from '../../src/server/fleet/engines/local';
import { simulatorCommand } from '../../src/server/fleet/engines/registry';
import { memoryLogger } from '../../src/server/kernel/log';
import { pidsMatching, waitFor } from '../support/daemons';
import { tempDataDir } from '../support/server';

// The local engine with our own coin-daemon simulator (a child process on loopback);
// the same engine with real daemons is in local-engine.test.ts (the peers tier).
const root = tempDataDir('nodekeep-engine-sim-');
const engines: LocalEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});
afterAll(() => {
  // Nothing this file started may outlive it.
  expect(pidsMatching(root)).toEqual([]);
  fs.rmSync(root, { recursive: true, force: true });
});

function engine(dir: string) {
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
    const rpc = async (id: string) =>
      observeBitcoin({ endpoint: await e.rpcEndpoint(id), timeoutMs: 10_000 }, 'dash', true);
    expect((await rpc('s2')).networkStatus).toBe('WAITING_FOR_PROTX');

    process.kill(pid, 'SIGKILL');
    await waitFor(
      async () => (await e.inspect('s1')).state === 'restarting' || e.pidOf('s1') !== pid,
      20_000,
      'the crash to be noticed',
    );
    await waitFor(
      async () => e.pidOf('s1') !== null && e.pidOf('s1') !== pid && (await rpc('s1')),
      30_000,
      'the simulator to come back',
    );
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

  it("takes a quick-setup node's operator key, after which the node runs", async () => {
    const e = engine(path.join(root, 'quick'));
    await e.create(simSpec('qs1'));
    await e.start('qs1');
    const rpc = async () => observeBitcoin({ endpoint: await e.rpcEndpoint('qs1'), timeoutMs: 10_000 }, 'dash', true);
    expect((await rpc()).startRequired).toBe(true);
    await expect(e.simulatorOperatorKey('qs1', 'not-a-key')).rejects.toThrow(/simulator refused/);
    await e.simulatorOperatorKey('qs1', 'ab'.repeat(32));
    await waitFor(async () => (await rpc()).networkStatus === 'ENABLED', 20_000, 'the node to run with its owner key');
    await expect(e.simulatorOperatorKey('nobody', 'ab'.repeat(32))).rejects.toThrow(/has no node nobody/);
    // SIN's burn check asks the simulated chain itself, no node needed.
    const sin = await e.simulatorCoinEndpoint('sin');
    expect(await checkBurn({ endpoint: sin, timeoutMs: 10_000 }, `b0b0${'1'.repeat(60)}`)).toMatchObject({
      ok: true,
      output_id: `b0b0${'1'.repeat(60)}-0`,
    });
    await expect(e.simulatorCoinEndpoint('../x')).rejects.toThrow(/cannot name a simulated chain/);
  });
});

describe("a simulated validator's secrets on this machine", () => {
  it('keeps its Keymanager token out of the 0600 node record, in 0600 files only, and still serves it after a restart', async () => {
    const dir = path.join(root, 'secrets');
    const e = engine(dir);
    const pubkey = `0x${'ab'.repeat(48)}`;
    const token = 'kmTOKEN_' + 'x'.repeat(32);
    const spec = {
      ...simSpec('v1'),
      coinId: 'eth',
      simulated: {
        rpc: 'evm' as const,
        blockTimeS: 12,
        syncSeconds: 0,
        validators: [{ pubkey, feeRecipient: `0x${'11'.repeat(20)}` }],
        keymanagerToken: token,
      },
    };
    await e.create(spec);
    await e.start('v1');
    const record = path.join(dir, 'v1', 'node.json');
    expect(fs.statSync(record).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(record, 'utf8')).not.toContain(token);
    const state = path.join(dir, '_simulator', 'state.json');
    await waitFor(async () => fs.readFileSync(state, 'utf8').includes(token), 10_000, 'the simulator to save the node');
    expect(fs.statSync(state).mode & 0o777).toBe(0o600);
    for (const f of fs.readdirSync(path.join(dir, 'v1')))
      if (fs.readFileSync(path.join(dir, 'v1', f), 'utf8').includes(token))
        expect(fs.statSync(path.join(dir, 'v1', f)).mode & 0o777).toBe(0o600);
    const keystores = async (eng: LocalEngine) => {
      const ep = await eng.rpcEndpoint('v1');
      return fetch(`http://${ep.host}:${ep.port}${ep.path}/eth/v1/keystores`, {
        headers: { authorization: `Bearer ${token}` },
      });
    };
    expect((await keystores(e)).status).toBe(200);
    // A restart from the record alone (another engine, as after the platform restarted) still gives the simulator the token.
    await e.close();
    engines.splice(engines.indexOf(e), 1);
    const again = engine(dir);
    await again.stop('v1');
    await again.start('v1');
    expect((await keystores(again)).status).toBe(200);
    expect(fs.readFileSync(record, 'utf8')).not.toContain(token);
  });
});

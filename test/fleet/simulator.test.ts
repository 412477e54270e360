import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeBeacon } from '../../src/server/fleet/daemons/beacon';
import { observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { observeMonero } from '../../src/server/fleet/daemons/monero';
import { startSimulator, type SimulatorServer } from '../../src/server/fleet/simulator/server';
import { tempDataDir } from '../support/server';
import { waitFor } from '../support/wait';

let sim: SimulatorServer;
const dir = tempDataDir();
const stateFile = path.join(dir, 'sim.json');
const ep = (id: string) => ({ host: '127.0.0.1', port: sim.port, path: `/n/${id}` });
const admin = (method: string, p: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${sim.port}/admin${p}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

beforeAll(async () => {
  sim = await startSimulator({ stateFile, log: () => {} });
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('coin-daemon simulator', () => {
  it('serves a Dash-like node through its life: syncing, waiting for ProTx, enabled, banned', async () => {
    expect(
      (await admin('POST', '/nodes', { nodeId: 'd1', coin: 'dash', rpc: 'dash', blockTimeS: 0.1, syncSeconds: 0.3 }))
        .status,
    ).toBe(200);
    const rpc = { endpoint: ep('d1'), timeoutMs: 2000 };
    const first = await observeBitcoin(rpc, 'dash', true);
    expect(first.wallet?.version).toMatch(/Simulator/);
    // Each state is awaited by asking the node until it says so (a loaded machine may be slow).
    const synced = await waitFor(
      async () => {
        const o = await observeBitcoin(rpc, 'dash', true);
        return o.synced && o;
      },
      10_000,
      'the node to sync',
    );
    expect(synced).toMatchObject({ synced: true, startRequired: true, networkStatus: 'WAITING_FOR_PROTX' });
    await admin('POST', '/nodes/d1/register');
    // Two blocks pre-enabled, then enabled and paid.
    const enabled = await waitFor(
      async () => {
        const o = await observeBitcoin(rpc, 'dash', true);
        return o.networkStatus === 'ENABLED' && o.lastPaidHeight !== null && o;
      },
      10_000,
      'the node to be enabled and paid',
    );
    expect(enabled).toMatchObject({ startRequired: false, networkStatus: 'ENABLED' });
    expect(enabled.lastPaidHeight).toBeGreaterThan(0);
    expect(enabled.rewardFrequencyS).toBeCloseTo(0.1, 5); // one enabled node: paid every block
    await admin('POST', '/nodes/d1/force', { status: 'POSE_BANNED' });
    expect((await observeBitcoin(rpc, 'dash', true)).networkStatus).toBe('POSE_BANNED');
    await admin('POST', '/nodes/d1/force', { status: null });
  });

  it('answers bls generate and protx like dashd', async () => {
    const call = (method: string, params: unknown[]) =>
      fetch(`http://127.0.0.1:${sim.port}/n/d1/`, {
        method: 'POST',
        body: JSON.stringify({ id: 1, method, params }),
      }).then((r) => r.json());
    const bls = await call('bls', ['generate']);
    expect(bls.result.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(bls.result.public).toMatch(/^[0-9a-f]{96}$/);
    const list = await call('protx', ['list']);
    expect(list.result).toHaveLength(1);
    expect((await call('protx', ['info', list.result[0]])).result.proTxHash).toBe(list.result[0]);
    expect((await call('nonsense', [])).error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('pays enabled nodes of a coin in turn', async () => {
    for (const id of ['p1', 'p2', 'p3'])
      await admin('POST', '/nodes', {
        nodeId: id,
        coin: 'pivx',
        rpc: 'bitcoin',
        blockTimeS: 0.05,
        syncSeconds: 0,
        registered: true,
      });
    // Past the two pre-enabled blocks of the last one, and a full round of payments (3 blocks):
    // asked until every node has been paid.
    const seen = await waitFor(
      async () => {
        const all = await Promise.all(
          ['p1', 'p2', 'p3'].map((id) => observeBitcoin({ endpoint: ep(id), timeoutMs: 2000 }, 'classic', true)),
        );
        return (
          all.every(
            (o) => o.networkStatus === 'Masternode successfully started ENABLED' && o.lastPaidHeight !== null,
          ) && all
        );
      },
      10_000,
      'every node enabled and paid',
    );
    for (const o of seen) {
      expect(o.networkStatus).toBe('Masternode successfully started ENABLED');
      expect(o.rewardFrequencyS).toBeCloseTo(0.15, 5);
    }
    const heights = seen.map((o) => o.lastPaidHeight!);
    expect(new Set(heights.map((h) => h % 3)).size).toBe(3);
  });

  it('serves monero-type service nodes and EVM validators', async () => {
    await admin('POST', '/nodes', {
      nodeId: 'b1',
      coin: 'bdx',
      rpc: 'monero',
      blockTimeS: 1,
      syncSeconds: 0,
      registered: true,
    });
    const m = await observeMonero(ep('b1'), 2000, true);
    expect(m).toMatchObject({ synced: true, networkStatus: 'ACTIVE', startRequired: false });
    await admin('POST', '/nodes', { nodeId: 'e1', coin: 'eth', rpc: 'evm', blockTimeS: 12, syncSeconds: 0 });
    const e = await observeBeacon(ep('e1'), 2000, null);
    expect(e).toMatchObject({
      synced: true,
      wallet: { version: expect.stringMatching(/Simulator/), protocol_version: '', connections: 64 },
    });
  });

  it('refuses bad admin input and unknown nodes, and survives a restart with its nodes', async () => {
    expect(
      (await admin('POST', '/nodes', { nodeId: 'x', coin: 'dash', rpc: 'cobol', blockTimeS: 1, syncSeconds: 0 }))
        .status,
    ).toBe(400);
    expect(
      (await admin('POST', '/nodes', { nodeId: '../etc', coin: 'dash', rpc: 'dash', blockTimeS: 1, syncSeconds: 0 }))
        .status,
    ).toBe(400);
    expect((await fetch(`http://127.0.0.1:${sim.port}/n/nobody/`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${sim.port}/n/d1/`, { method: 'POST', body: '{oops' })).status).toBe(400);
    await sim.close();
    sim = await startSimulator({ stateFile, log: () => {} });
    expect((await admin('GET', '/nodes')).body.nodes.sort()).toEqual(['b1', 'd1', 'e1', 'p1', 'p2', 'p3']);
    expect((await admin('DELETE', '/nodes/p3')).status).toBe(200);
    expect((await admin('DELETE', '/nodes/p3')).status).toBe(404);
  });
});

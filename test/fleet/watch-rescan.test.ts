import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Masternode } from '../../src/server/db/schema';
import type { Observation } from '../../src/server/fleet/daemons/observation';
import { OwnerViews } from '../../src/server/nodes/owner-view';
import type { DaemonProfile } from '../../src/server/fleet/profiles';
import { memoryLogger } from '../../src/server/kernel/log';
import { waitFor } from '../support/daemons';

// The watch-only wallet's import on a scripted litecoind-like daemon: imported without a
// rescan, then rescanned from the collateral's block outside the status check.
const ADDRESS = 'rltc1qcollateral0000000000000000000000000';
const TXID = 'ab'.repeat(32);
const BLOCKS = 150;
const CONFIRMATIONS = 40;
let watched = false;
let rescanned = false;
let releaseRescan: () => void = () => {};
const calls: Array<{ method: string; params: unknown[]; path: string }> = [];

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
    calls.push({ method, params, path: req.url ?? '' });
    const answer = (result: unknown, error: { code: number; message: string } | null = null) =>
      res.end(JSON.stringify({ result, error, id: 'nodekeep' }));
    switch (method) {
      case 'gettxout':
        return answer({ confirmations: CONFIRMATIONS, value: 100, scriptPubKey: { address: ADDRESS } });
      case 'getblockcount':
        return answer(BLOCKS);
      case 'listwallets':
        return answer(['nodekeep-watch']);
      case 'getaddressinfo':
        return answer({ address: params[0], ismine: false, iswatchonly: watched });
      case 'importaddress':
        watched = true;
        if (params[2] === true) rescanned = true;
        return answer(null);
      case 'rescanblockchain':
        // Takes as long as the test says (a long chain).
        return void new Promise<void>((r) => (releaseRescan = r)).then(() => {
          rescanned = true;
          answer({ start_height: params[0], stop_height: BLOCKS });
        });
      case 'listunspent':
        return answer(rescanned ? [{ address: ADDRESS, amount: 100 }] : []);
      case 'listtransactions':
        return answer(
          rescanned
            ? [
                {
                  address: ADDRESS,
                  category: 'receive',
                  amount: 100,
                  txid: TXID,
                  blockheight: BLOCKS - CONFIRMATIONS + 1,
                  blocktime: 1_700_000_000,
                },
              ]
            : [],
        );
      default:
        return answer(null, { code: -32601, message: 'Method not found' });
    }
  });
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      releaseRescan();
      server.closeAllConnections();
      server.close(() => r());
    }),
);

describe("a watch-only collateral address's import", () => {
  it('imports without a rescan and rescans from the collateral block in the background; the next check reads it', async () => {
    // A long RPC timeout: a read that waited for the rescan would take that long, not fail fast.
    const views = new OwnerViews(memoryLogger(), 30_000);
    const node = {
      mn_id: 'ltc-rescan',
      rpc_user: 'u',
      rpc_password: 'p',
      entry: `${TXID}-0`,
      output_text: null,
      activity: null,
    } as unknown as Masternode;
    const profile = {
      run: 'binary',
      rpc: 'bitcoin',
      flavour: 'none',
      activity: 'watch_wallet',
    } as unknown as DaemonProfile;
    const obs = { posePenalty: null, collateralAddress: null } as unknown as Observation;
    const endpoint = { host: '127.0.0.1', port };

    // The status check answers at once, though the rescan is still going.
    const t0 = Date.now();
    expect(await views.read(node, profile, endpoint, obs)).toEqual({});
    expect(Date.now() - t0).toBeLessThan(10_000);
    const imports = calls.filter((c) => c.method === 'importaddress');
    expect(imports.map((c) => c.params)).toEqual([[ADDRESS, 'collateral', false]]);
    await waitFor(async () => calls.some((c) => c.method === 'rescanblockchain'), 15_000, 'the rescan');
    const rescan = calls.find((c) => c.method === 'rescanblockchain')!;
    expect(rescan).toEqual({
      method: 'rescanblockchain',
      params: [BLOCKS - CONFIRMATIONS + 1],
      path: '/wallet/nodekeep-watch',
    });
    // While it runs, checks read nothing new (the last activity stays) and start no second one.
    expect(await views.read(node, profile, endpoint, obs)).toEqual({});
    expect(calls.filter((c) => c.method === 'rescanblockchain' || c.method === 'importaddress')).toHaveLength(2);

    releaseRescan();
    const after = await waitFor(
      async () => (await views.read(node, profile, endpoint, obs)).activity ?? null,
      15_000,
      'the reading after the rescan',
    );
    expect(JSON.parse(after)).toMatchObject({ address: ADDRESS, balance: 100, sent: 0 });
    expect(calls.filter((c) => c.method === 'rescanblockchain' || c.method === 'importaddress')).toHaveLength(2);
  });
});

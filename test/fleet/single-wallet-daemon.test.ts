import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchAddress, watchedActivity } from '../../src/server/fleet/daemons/activity';
import { coinsToSat } from '../../src/server/fleet/daemons/amounts';

// A daemon of an older fork, as its RPC behaves: one wallet, no multi-wallet calls
// (`listwallets` unknown), no `getaddressinfo` (`validateaddress` says what is watched),
// no `/wallet/<name>` paths. The watch-only reading must use its only wallet.
const ADDRESS = 'DAddressOfTheCollateral0000000000';
const TX = (n: number) => String(n).repeat(64).slice(0, 64);
let watched = false;
const calls: string[] = [];

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const answer = (result: unknown, error: { code: number; message: string } | null = null) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result, error, id: 'nodekeep' }));
    };
    if (req.url !== '/') {
      res.writeHead(404);
      return res.end();
    }
    const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
    calls.push(method);
    switch (method) {
      case 'validateaddress':
        return answer({
          isvalid: true,
          address: params[0],
          ismine: false,
          iswatchonly: watched && params[0] === ADDRESS,
        });
      case 'importaddress':
        watched = true;
        return answer(null);
      case 'listunspent':
        return answer(watched ? [{ address: ADDRESS, amount: 1000.5 }] : []);
      case 'listtransactions':
        return answer(
          watched
            ? [
                {
                  address: ADDRESS,
                  category: 'receive',
                  amount: 1000,
                  txid: TX(1),
                  blockheight: 10,
                  blocktime: 1_700_000_000,
                },
                {
                  address: ADDRESS,
                  category: 'receive',
                  amount: 2.5,
                  txid: TX(2),
                  blockheight: 12,
                  blocktime: 1_700_000_120,
                },
                {
                  address: 'DElsewhere',
                  category: 'send',
                  amount: -2,
                  txid: TX(3),
                  blockheight: 13,
                  blocktime: 1_700_000_180,
                },
              ]
            : [],
        );
      default:
        return answer(null, { code: -32601, message: 'Method not found' });
    }
  });
});
let rpc: { endpoint: { host: string; port: number }; timeoutMs: number };

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rpc = { endpoint: { host: '127.0.0.1', port: (server.address() as AddressInfo).port }, timeoutMs: 2_000 };
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

describe('watch-only reading on a daemon with a single wallet', () => {
  it('imports into its only wallet once and reads it there', async () => {
    expect(await watchAddress(rpc, ADDRESS, { rescan: true })).toEqual({ wallet: null, imported: true });
    expect(calls).toEqual(['listwallets', 'getaddressinfo', 'validateaddress', 'importaddress']);
    // Already watched: no second import (no second rescan).
    expect(await watchAddress(rpc, ADDRESS, { rescan: true })).toEqual({ wallet: null, imported: false });
    expect(calls.filter((c) => c === 'importaddress')).toHaveLength(1);
    const a = await watchedActivity(rpc, ADDRESS, { wallet: null });
    expect(a).toMatchObject({
      address: ADDRESS,
      balanceSat: coinsToSat('1000.5'),
      receivedSat: coinsToSat('1002.5'),
      sentSat: coinsToSat('2'),
    });
    expect(a.transactions.map((t) => [t.txid, t.block, t.time])).toEqual([
      [TX(3), 13, 1_700_000_180],
      [TX(2), 12, 1_700_000_120],
      [TX(1), 10, 1_700_000_000],
    ]);
  });
});

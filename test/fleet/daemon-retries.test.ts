import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureWallet, mineTo, rpc } from '../support/daemons';

// The retrying RPC helpers the real-daemon tests use, against a scripted bitcoin-style
// daemon on loopback: slow answers, warm-up errors and non-idempotent calls that time
// out here but finish in the daemon, as litecoind's createwallet did on a loaded machine.

type Reply = { result?: unknown; error?: { code: number; message: string }; delayMs?: number };
let handle: (method: string, params: unknown[]) => Reply;
const calls: string[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req
    .on('data', (c) => (body += c))
    .on('end', () => {
      const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
      calls.push(method);
      const reply = handle(method, params);
      setTimeout(() => {
        if (!res.destroyed)
          res.end(JSON.stringify({ id: 1, result: reply.result ?? null, error: reply.error ?? null }));
      }, reply.delayMs ?? 0);
    });
});
let target: { endpoint: { host: string; port: number } };

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  target = { endpoint: { host: '127.0.0.1', port: (server.address() as AddressInfo).port } };
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);
beforeEach(() => {
  calls.length = 0;
});

const fast = { budgetMs: 5_000, attemptMs: 300 };
const noWallet = {
  error: {
    code: -18,
    message: 'No wallet is loaded. Load a wallet using loadwallet or create a new one with createwallet.',
  },
};

describe('RPC calls to real daemons retry within a budget', () => {
  it('retry while the daemon warms up, then answer', async () => {
    let n = 0;
    handle = () => (++n < 3 ? { error: { code: -28, message: 'Loading block index…' } } : { result: 7 });
    expect(await rpc(target, 'getblockcount', [], v.number(), fast)).toBe(7);
    expect(calls).toEqual(['getblockcount', 'getblockcount', 'getblockcount']);
  });

  it('report the last error when the budget runs out, never a later symptom', async () => {
    handle = () => ({ result: 1, delayMs: 2_000 });
    const t0 = Date.now();
    const err = await rpc(target, 'getblockcount', [], v.number(), { budgetMs: 1_000, attemptMs: 300 }).catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(
      /^getblockcount \[\] still failing after \d+ ms and [2-9] tries; last error: no answer within 300 ms$/,
    );
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('fail at once on an answer that retrying cannot change', async () => {
    handle = () => ({ error: { code: -32601, message: 'Method not found' } });
    await expect(rpc(target, 'frobnicate', [], v.unknown(), fast)).rejects.toThrow(
      'frobnicate [] failed: frobnicate: Method not found (-32601)',
    );
    expect(calls).toEqual(['frobnicate']);
  });
});

describe('ensureWallet', () => {
  it('survives a createwallet that timed out here but finished in the daemon', async () => {
    const loaded: string[] = [];
    handle = (method, params) => {
      if (method === 'listwallets') return { result: [...loaded] };
      if (method === 'createwallet') {
        if (loaded.includes(String(params[0])))
          return { error: { code: -4, message: 'Wallet file verification failed. Database already exists.' } };
        loaded.push(String(params[0])); // done in the daemon; the answer comes too late
        return { result: { name: params[0] }, delayMs: 1_000 };
      }
      if (method === 'getnewaddress') return loaded.length ? { result: 'rltc1qexample' } : noWallet;
      return { error: { code: -32601, message: 'Method not found' } };
    };
    await ensureWallet(target, 'miner', fast);
    expect(calls).toEqual(['listwallets', 'createwallet', 'listwallets']);
    expect(await rpc(target, 'getnewaddress', [], v.string(), fast)).toBe('rltc1qexample');
  });

  it('loads a wallet that exists on disk but is not loaded', async () => {
    let isLoaded = false;
    handle = (method) => {
      if (method === 'listwallets') return { result: isLoaded ? ['miner'] : [] };
      if (method === 'createwallet')
        return {
          error: {
            code: -4,
            message:
              "Wallet file verification failed. Failed to create database path '/data/regtest/wallets/miner'. Database already exists.",
          },
        };
      if (method === 'loadwallet') {
        isLoaded = true;
        return { result: { name: 'miner', warning: '' } };
      }
      return { error: { code: -32601, message: 'Method not found' } };
    };
    await ensureWallet(target, 'miner', fast);
    expect(calls).toEqual(['listwallets', 'createwallet', 'loadwallet']);
    expect(isLoaded).toBe(true);
  });

  it('waits while an earlier try is still loading the wallet', async () => {
    let n = 0;
    handle = (method) => {
      if (method === 'listwallets') return { result: ++n >= 3 ? ['miner'] : [] };
      return { error: { code: -4, message: 'Wallet already being loading.' } };
    };
    await ensureWallet(target, 'miner', fast);
    expect(calls).toEqual(['listwallets', 'createwallet', 'listwallets', 'createwallet', 'listwallets']);
  });

  it('passes on a real refusal in its own words', async () => {
    handle = (method) =>
      method === 'listwallets'
        ? { result: [] }
        : { error: { code: -8, message: 'Invalid parameter, wallet name is invalid' } };
    await expect(ensureWallet(target, 'miner', fast)).rejects.toThrow(
      'createwallet miner failed: createwallet: Invalid parameter, wallet name is invalid (-8)',
    );
    expect(calls).toEqual(['listwallets', 'createwallet']);
  });
});

describe('mineTo', () => {
  it('reaches the height exactly when a generate call times out after mining part of its blocks', async () => {
    let height = 0;
    let slowOnce = true;
    handle = (method, params) => {
      if (method === 'getnewaddress') return { result: 'rltc1qexample' };
      if (method === 'getblockcount') return { result: height };
      if (method === 'generatetoaddress') {
        height += Math.min(Number(params[0]), 2); // mines two of the three asked, then answers late
        const delayMs = slowOnce ? 1_000 : 0;
        slowOnce = false;
        return { result: ['00'.repeat(32)], delayMs };
      }
      return { error: { code: -32601, message: 'Method not found' } };
    };
    expect(await mineTo(target, 3, fast)).toBe(3);
    expect(height).toBe(3);
    expect(calls).toEqual([
      'getnewaddress',
      'getblockcount',
      'generatetoaddress',
      'getblockcount',
      'generatetoaddress',
      'getblockcount',
    ]);
  });
});

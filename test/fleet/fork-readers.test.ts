import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lookUpBurn } from '../../src/server/fleet/burn-check';
import { watchAddress, watchedActivity } from '../../src/server/fleet/daemons/activity';
import { classicStatus, observeBitcoin } from '../../src/server/fleet/daemons/bitcoin';
import { governanceProposals } from '../../src/server/fleet/daemons/dash';
import type { BitcoinRpc, CallNames } from '../../src/server/fleet/daemons/jsonrpc';
import { missingCalls, platformCalls } from '../../src/server/fleet/platform-calls';
import { loadProfiles, type BinaryProfile } from '../../src/server/fleet/profiles';

// The readers against the old forks' replies as their sources document them: every reply
// here is a facts file's example (catalog/daemon-facts), answered by a fake daemon that
// has only the calls that fork has.
const root = path.resolve(import.meta.dirname, '../..');
const factsOf = (profile: string) =>
  JSON.parse(fs.readFileSync(path.join(root, 'catalog/daemon-facts', `${profile}.json`), 'utf8')) as {
    rpc_methods: Record<string, { reply: unknown }>;
  };
const profiles = loadProfiles(path.join(root, 'catalog/daemons.json'));

/** What the fake daemon answers: method (with its first param for sub-commands) → reply, or an error. */
type Answer = unknown | { error: { code: number; message: string } };
let answers: Record<string, Answer> = {};
const asked: Array<{ method: string; params: unknown[]; path: string }> = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
    asked.push({ method, params, path: req.url ?? '/' });
    const key =
      typeof params[0] === 'string' && `${method} ${params[0]}` in answers ? `${method} ${params[0]}` : method;
    const a = answers[key];
    const error =
      a === undefined
        ? { code: -32601, message: 'Method not found' }
        : a && typeof a === 'object' && 'error' in a
          ? (a as { error: { code: number; message: string } }).error
          : null;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ result: error ? null : a, error, id: 'nodekeep' }));
  });
});
let rpc: BitcoinRpc;
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
beforeEach(() => {
  asked.length = 0;
});
/** A fork whose calls are exactly its facts file's rpc_methods, under the names the daemon uses. */
function daemonOf(profile: string, extra: Record<string, Answer> = {}) {
  const f = factsOf(profile);
  answers = {};
  for (const [call, m] of Object.entries(f.rpc_methods)) answers[call] = m.reply;
  Object.assign(answers, extra);
}
const binary = (id: string) => profiles[id] as BinaryProfile;
const withCalls = (id: string): BitcoinRpc => ({ ...rpc, calls: binary(id).calls as CallNames | undefined });

describe('classic status replies', () => {
  it("maps activemasternode's numeric states and keeps text replies as they were", () => {
    expect(classicStatus({ status: 4, message: 'Masternode successfully started' })).toEqual({
      word: 'ENABLED',
      startRequired: false,
    });
    expect(
      classicStatus({ status: 3, message: 'Not capable masternode: Hot node, waiting for remote activation.' }),
    ).toEqual({ word: 'NOT_CAPABLE', startRequired: true });
    expect(classicStatus({ status: 3, message: 'Not capable masternode: Invalid port' })).toEqual({
      word: 'NOT_CAPABLE',
      startRequired: false,
    });
    expect(classicStatus({ status: 1 })).toEqual({ word: 'SYNC_IN_PROCESS', startRequired: false });
    expect(classicStatus({ status: 'Masternode successfully started' }).startRequired).toBe(false);
    expect(classicStatus({ status: 'Masternode not found NEW_START_REQUIRED' }).startRequired).toBe(true);
  });

  it.each(['vitaed', 'monetaryunitd', 'bulwarkd', 'phored', 'dogecashd'])(
    '%s: its own status call, read from its documented reply',
    async (id) => {
      daemonOf(id);
      const obs = await observeBitcoin(withCalls(id), 'classic', false);
      expect(obs).toMatchObject({ synced: true, networkStatus: 'ENABLED', startRequired: false });
      expect(asked.map((a) => a.method)).toContain(
        binary(id).calls?.['masternode status']?.split(' ')[0] ?? 'masternode',
      );
    },
  );

  it('a node not in the list yet (the error some forks answer) waits for its start', async () => {
    daemonOf('monetaryunitd', {
      'masternode status': {
        error: { code: -1, message: 'Masternode not found in the list of available masternodes. Current status: 3' },
      },
    });
    const obs = await observeBitcoin(withCalls('monetaryunitd'), 'classic', false);
    expect(obs).toMatchObject({ networkStatus: null, startRequired: true });
  });
});

describe('dash-family forks under their own call names', () => {
  it.each(['raptoreumd', 'neoxad', 'firod'])('%s: the status and protx calls it has', async (id) => {
    daemonOf(id);
    const obs = await observeBitcoin(withCalls(id), 'dash', false);
    expect(obs.synced).toBe(true);
    const statusCall = binary(id).calls!['masternode status']!;
    expect(asked.some((a) => `${a.method} ${String(a.params[0])}` === statusCall)).toBe(true);
  });

  it('Firo has no governance objects: its proposals are none, and nothing is asked', async () => {
    daemonOf('firod');
    expect(await governanceProposals(withCalls('firod'))).toEqual([]);
    expect(asked).toEqual([]);
    expect(Object.keys(platformCalls(binary('firod')).replies)).not.toContain('gobject list');
  });
});

describe('the watch wallet on old forks', () => {
  const ADDRESS = 'VT3k8DqfAZbh1X2eYwGzUdWhBcxz3fTxRn';

  it('Vitae (no multi-wallet calls, 3-parameter listunspent, no blockheight): its one wallet, heights from confirmations', async () => {
    daemonOf('vitaed', { importaddress: null, getblockcount: 1234567 });
    expect(await watchAddress(rpc, ADDRESS, { rescan: false })).toEqual({ wallet: null, imported: false });
    const a = await watchedActivity(rpc, ADDRESS, { wallet: null });
    expect(asked.find((c) => c.method === 'listunspent')?.params).toHaveLength(3);
    expect(a.balanceSat).toBe(1000 * 1e8);
    // 1,520 confirmations at tip 1,234,567: mined at 1,233,048.
    expect(a.transactions).toEqual([
      {
        block: 1_234_567 - 1520 + 1,
        txid: 'c241d2485fe87abca491f6e13633be176c56b97dd05012ff90b0cba09bc518be',
        time: 1_700_000_000,
        amountSat: 1000 * 1e8,
      },
    ]);
  });

  it('PIVX (listwallets, but no loadwallet or createwallet): the default wallet, not an error', async () => {
    daemonOf('pivxd', { importaddress: null });
    const r = await watchAddress(rpc, 'DLabsktzGMnsK5K9uRTMCF6NoYNY6ET4Bb', { rescan: false });
    expect(r).toEqual({ wallet: null, imported: false });
    expect(asked.map((c) => c.method)).toEqual(['listwallets', 'loadwallet', 'getaddressinfo']);
  });

  it('a daemon with loadwallet answering "not found" creates the wallet with two parameters (SIN takes no more)', async () => {
    daemonOf('sind', {
      listwallets: [''],
      loadwallet: { error: { code: -18, message: 'Wallet file not found' } },
      createwallet: { name: 'nodekeep-watch', warning: '' },
      getaddressinfo: { ismine: false, iswatchonly: false },
      importaddress: null,
    });
    expect(await watchAddress(rpc, 'SXNaGCtQk1iVd6P2c8bPKaPujWzJ8YHUZH', { rescan: false })).toEqual({
      wallet: 'nodekeep-watch',
      imported: true,
    });
    expect(asked.find((c) => c.method === 'createwallet')?.params).toEqual(['nodekeep-watch', true]);
  });

  it('asks listwallets only where the daemon has it, and getaddressinfo or validateaddress', () => {
    const calls = platformCalls(binary('vitaed'));
    const has = (c: string) => c in factsOf('vitaed').rpc_methods;
    expect(missingCalls(calls, has)).toEqual([]);
    expect(missingCalls(calls, (c) => has(c) && c !== 'validateaddress')).toEqual(['getaddressinfo | validateaddress']);
  });
});

describe("SIN's burns", () => {
  it('a burn_and_data output paying the burn address is the burn', async () => {
    daemonOf('sind');
    const reply = factsOf('sind').rpc_methods.getrawtransaction.reply as { txid: string; blocktime: number };
    const now = Date.now;
    Date.now = () => (reply.blocktime + 86_400) * 1000;
    try {
      expect(await lookUpBurn(rpc, reply.txid)).toEqual({ ok: true, output_id: 0 });
    } finally {
      Date.now = now;
    }
  });
});

describe('operator key lines', () => {
  it('are counted among the options a profile writes', async () => {
    const { optionsWritten } = await import('../../src/server/fleet/daemon-facts');
    expect(optionsWritten({ config: 'a=1\n', args: [], operator_key_lines: ['masternode=1'] })).toEqual([
      'a',
      'masternode',
    ]);
    expect(v.is(v.array(v.string()), optionsWritten({ args: ['-b=2'] }))).toBe(true);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forDisplay, watchAddress, watchedActivity, WATCH_WALLET } from '../../src/server/fleet/daemons/activity';
import { coinsToSat } from '../../src/server/fleet/daemons/amounts';
import { bitcoinCall } from '../../src/server/fleet/daemons/jsonrpc';
import {
  DAEMON_BUDGET_MS,
  ensureWallet,
  haveBinary,
  pidsMatching,
  realDaemonSpec,
  rpc,
  withinBudget,
} from '../support/daemons';
import { tempDataDir } from '../support/server';

// The watch-only reading of a collateral address on a real litecoind 0.21 (regtest): it
// has no address index, so the platform watches the address in a key-less wallet.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const dataRoot = tempDataDir('nodekeep-watch-');
let child: ChildProcess | null = null;
let target: { endpoint: { host: string; port: number }; auth: { user: string; password: string } };

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  const { spec, auth } = await realDaemonSpec('litecoind-regtest', 'watch1', dataRoot);
  child = spawn(spec.program, spec.args, { stdio: 'ignore' });
  target = { endpoint: { host: '127.0.0.1', port: spec.ports[spec.rpcPort] }, auth };
  await rpc(target, 'getblockcount', [], v.number());
}, DAEMON_BUDGET_MS);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  expect(pidsMatching(dataRoot)).toEqual([]);
  fs.rmSync(dataRoot, { recursive: true, force: true });
}, 60_000);

const inWallet = (wallet: string) => ({ ...target, endpoint: { ...target.endpoint, path: undefined }, wallet });
const call = <T>(wallet: string, method: string, params: unknown[], schema: v.GenericSchema<unknown, T>) =>
  withinBudget(`${wallet} ${method}`, (timeoutMs) =>
    bitcoinCall({ ...inWallet(wallet), timeoutMs }, method, params, schema),
  );

describe.skipIf(!haveBinary(LITECOIND))('collateral activity from a watch-only wallet on litecoind', () => {
  it('sees what the address received and sent, with blocks and times', async () => {
    // Two wallets of the customer's side: a miner with coins, the owner of the collateral.
    await ensureWallet(target, 'miner');
    await ensureWallet(target, 'owner');
    // generatetoaddress pays the miner wallet's address; after 110 blocks ten 50 LTC rewards are mature.
    const minerAddr = await call('miner', 'getnewaddress', [], v.string());
    const mine = () => call('miner', 'generatetoaddress', [1, minerAddr], v.array(v.string()));
    await call('miner', 'generatetoaddress', [110, minerAddr], v.array(v.string()));
    const collateral = await call('owner', 'getnewaddress', [], v.string());

    const t = { ...target, timeoutMs: 20_000 };
    await watchAddress(t, collateral, { rescan: true });
    await watchAddress(t, collateral, { rescan: false }); // again: nothing changes
    expect(await watchedActivity(t, collateral)).toMatchObject({
      address: collateral,
      balanceSat: 0,
      receivedSat: 0,
      sentSat: 0,
      transactions: [],
    });

    const paid = await call('miner', 'sendtoaddress', [collateral, 100], v.string());
    const reward = await call('miner', 'sendtoaddress', [collateral, 2.5], v.string());
    await mine();
    // The owner moves some coins out: the watched address sent them.
    const other = await call('miner', 'getnewaddress', [], v.string());
    const out = await call('owner', 'sendtoaddress', [other, 1.25], v.string());
    await mine();

    const a = await watchedActivity(t, collateral);
    const byTx = new Map(a.transactions.map((x) => [x.txid, x]));
    expect(byTx.get(paid)).toMatchObject({ block: 111, amountSat: coinsToSat('100') });
    expect(byTx.get(reward)).toMatchObject({ block: 111, amountSat: coinsToSat('2.5') });
    expect(a.receivedSat).toBe(coinsToSat('102.5'));
    // What left: 1.25 plus the fee; the change went to another address of the owner's wallet.
    const spent = byTx.get(out)!;
    expect(spent.block).toBe(112);
    expect(spent.amountSat).toBeLessThanOrEqual(-coinsToSat('1.25'));
    expect(a.transactions[0].txid).toBe(out); // newest first
    // The balance is what is left on the address itself; sent is the rest.
    const unspent = await call(
      WATCH_WALLET,
      'listunspent',
      [0, 9_999_999, [collateral], true],
      v.array(v.object({ amount: v.number() })),
    );
    expect(a.balanceSat).toBe(unspent.reduce((s, u) => s + Math.round(u.amount * 1e8), 0));
    expect(a.sentSat).toBe(a.receivedSat - a.balanceSat);
    expect(a.sentSat).toBeGreaterThan(0);
    for (const x of a.transactions) expect(x.time).toBeGreaterThan(1_600_000_000);
    expect(forDisplay(a).transactions.find((x) => x.txid === reward)!.amount).toBe(2.5);
    // The watch-only wallet holds no key: it could never spend the collateral.
    const info = await call(WATCH_WALLET, 'getwalletinfo', [], v.looseObject({ private_keys_enabled: v.boolean() }));
    expect(info.private_keys_enabled).toBe(false);
  }, 120_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalance, ledgerMismatches, userAccount } from '../../src/server/billing/ledger';
import { moneroWalletCall } from '../../src/server/billing/crypto/sources';
import { watchCurrency } from '../../src/server/billing/crypto/watcher';
import { runCli } from '../../src/server/cli/main';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { upsertQuote } from '../../src/server/market/queries';
import { haveBinary, pidsMatching, waitFor } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';

// Monero deposits on a real monerod in regtest. Two wallet RPCs: the payer's (it also
// makes the operator's keys once, as the operator would offline), and the platform's
// view-only wallet made from the operator's address and private view key (no spend key
// anywhere near the server). Each user gets a subaddress; get_transfers shows the
// payment in the pool, then its confirmations; it is credited at the currency's threshold.
const MONEROD = '/usr/bin/monerod';
const WALLET_RPC = '/usr/bin/monero-wallet-rpc';
const root = tempDataDir('nodekeep-deposits-xmr-');
const dataDir = path.join(root, 'platform');
const CONFIRMATIONS = 3;
const PRICE = 150;
const AMOUNT = 1_500_000_000_000; // 1.5 XMR in piconero

const procs: ChildProcess[] = [];
let daemonPort = 0;
let payerPort = 0;
let viewPort = 0;
let s: TestServer;
let payerAddress = '';

const call = <T>(
  port: number,
  method: string,
  params: unknown,
  schema: v.GenericSchema<unknown, T>,
  timeoutMs = 120_000,
) => moneroWalletCall({ endpoint: { host: '127.0.0.1', port }, timeoutMs }, method, params, schema);
const mine = (n: number, to = payerAddress) =>
  call(
    daemonPort,
    'generateblocks',
    { amount_of_blocks: n, wallet_address: to },
    v.looseObject({ height: v.number() }),
    300_000,
  );
const start = (program: string, args: string[]) => {
  const p = spawn(program, args, { stdio: 'ignore' });
  procs.push(p);
  return p;
};
const answers = (port: number, method: string) => () =>
  call(port, method, {}, v.unknown(), 5_000).then(
    () => true,
    () => false,
  );
const cli = async (...args: string[]) => {
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { code: await runCli(args, { DATA_DIR: dataDir }, { out: () => {} }), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
};
const pendingOf = async (u: FreshUser) => {
  const r = await fetch(`${s.url}/api/get_transactions`, { headers: { authorization: `Bearer ${u.token}` } });
  return ((await r.json()) as any).pending;
};

const have = haveBinary(MONEROD) && haveBinary(WALLET_RPC);

beforeAll(async () => {
  if (!have) return;
  [daemonPort, payerPort, viewPort] = [await freePort(), await freePort(), await freePort()];
  const p2p = await freePort();
  for (const d of ['chain', 'payer', 'view']) fs.mkdirSync(path.join(root, d), { recursive: true });
  start(MONEROD, [
    '--regtest',
    '--offline',
    '--fixed-difficulty',
    '1',
    '--keep-fakechain',
    '--rpc-ssl',
    'disabled',
    '--no-zmq',
    '--non-interactive',
    '--data-dir',
    path.join(root, 'chain'),
    '--rpc-bind-ip',
    '127.0.0.1',
    '--rpc-bind-port',
    String(daemonPort),
    '--p2p-bind-ip',
    '127.0.0.1',
    '--p2p-bind-port',
    String(p2p),
    '--log-level',
    '0',
  ]);
  await waitFor(answers(daemonPort, 'get_info'), 60_000, 'monerod answers');
  for (const [port, dir] of [
    [payerPort, 'payer'],
    [viewPort, 'view'],
  ] as const) {
    start(WALLET_RPC, [
      '--daemon-address',
      `127.0.0.1:${daemonPort}`,
      '--trusted-daemon',
      '--rpc-bind-ip',
      '127.0.0.1',
      '--rpc-bind-port',
      String(port),
      '--wallet-dir',
      path.join(root, dir),
      '--disable-rpc-login',
      '--non-interactive',
      '--log-level',
      '0',
      '--log-file',
      path.join(root, `${dir}.log`),
    ]);
    await waitFor(answers(port, 'get_version'), 60_000, `wallet RPC ${dir} answers`);
  }
  s = await startTestServer({ DEPOSIT_POLL_SECONDS: '3600' }, { dataDir });
  await upsertQuote(
    s.deps.db,
    'monero',
    'test-quotes',
    { market_id: 'monero', price_usd: PRICE, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
    Date.now(),
  );
}, 180_000);

afterAll(async () => {
  await stopTestServer(s, { keepData: true });
  for (const p of procs.reverse()) {
    p.kill('SIGTERM');
    await waitFor(async () => p.exitCode !== null || p.signalCode !== null, 60_000, 'a monero process stops');
  }
  expect(pidsMatching(root)).toEqual([]);
  fs.rmSync(root, { recursive: true, force: true });
}, 120_000);

describe.skipIf(!have)('Monero deposits on monerod + monero-wallet-rpc (regtest)', () => {
  it('a transfer to a user’s subaddress is seen by the view-only wallet and credited at its confirmations', async () => {
    // The operator's keys (made once, outside the platform): its address and private view key.
    const Address = v.object({ address: v.string() });
    await call(payerPort, 'create_wallet', { filename: 'operator', language: 'English' }, v.unknown());
    const operator = (await call(payerPort, 'get_address', { account_index: 0 }, Address)).address;
    const viewKey = (await call(payerPort, 'query_key', { key_type: 'view_key' }, v.object({ key: v.string() }))).key;
    await call(payerPort, 'create_wallet', { filename: 'payer', language: 'English' }, v.unknown());
    payerAddress = (await call(payerPort, 'get_address', { account_index: 0 }, Address)).address;
    // Coinbase outputs unlock after 60 blocks.
    await mine(75);

    const added = await cli(
      'deposits',
      'add',
      'xmr',
      '--label',
      'Monero',
      '--ticker',
      'XMR',
      '--confirmations',
      String(CONFIRMATIONS),
      '--price-coin',
      'monero',
      '--monero-wallet-rpc',
      `http://127.0.0.1:${viewPort}`,
      '--wallet',
      'deposits',
      '--wallet-password',
      'view-pw',
      '--view-key',
      viewKey,
      '--monero-address',
      operator,
    );
    expect(added.code, added.err).toBe(0);
    const row = await s.deps.db
      .selectFrom('deposit_currencies')
      .selectAll()
      .where('id', '=', 'xmr')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(viewKey);

    const user = await freshUser(s.deps, { prefix: 'xmruser' });
    const other = await freshUser(s.deps, { prefix: 'xmrother' });
    const gen = async (u: FreshUser) => {
      const r = await fetch(`${s.url}/api/generate_wallet`, {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currency: 'xmr' }),
      });
      const body = (await r.json()) as any;
      expect(r.status, JSON.stringify(body)).toBe(200);
      return body.address as string;
    };
    const address = await gen(user);
    expect(address).not.toBe(operator);
    expect(await gen(user)).toBe(address);
    expect(await gen(other)).not.toBe(address);

    await call(payerPort, 'refresh', {}, v.unknown());
    await call(
      payerPort,
      'transfer',
      { destinations: [{ amount: AMOUNT, address }] },
      v.looseObject({ tx_hash: v.string() }),
    );
    await watchCurrency(s.deps, 'xmr');
    expect(await pendingOf(user)).toEqual([
      {
        currency_label: 'Monero',
        confirmations: 0,
        max_confirmations: CONFIRMATIONS,
        amount: 1.5,
        date: expect.any(String),
      },
    ]);
    expect(await pendingOf(other)).toEqual([]);
    for (let c = 1; c < CONFIRMATIONS; c++) {
      await mine(1, operator);
      await watchCurrency(s.deps, 'xmr');
      expect((await pendingOf(user))[0]?.confirmations).toBe(c);
      expect(await accountBalance(s.deps.db, userAccount(user.id))).toBe(0);
    }
    await mine(1, operator);
    await watchCurrency(s.deps, 'xmr');
    await watchCurrency(s.deps, 'xmr');
    expect(await pendingOf(user)).toEqual([]);
    expect(await accountBalance(s.deps.db, userAccount(user.id))).toBe(1.5 * PRICE * 1_000_000);
    const transfers = await s.deps.db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('idempotency_key', 'like', 'crypto:xmr:%')
      .execute();
    expect(transfers).toHaveLength(1);
    expect(JSON.parse(transfers[0].meta!)).toMatchObject({
      price_usd: PRICE,
      price_source: 'test-quotes',
      amount: '1.5',
    });
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});

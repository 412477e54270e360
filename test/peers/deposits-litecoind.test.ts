import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HDKey } from '@scure/bip32';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountBalance, ledgerMismatches, userAccount } from '../../src/server/billing/ledger';
import { QUOTE_MAX_AGE_MS, watchCurrency } from '../../src/server/billing/crypto/watcher';
import { runCli } from '../../src/server/cli/main';
import { bitcoinCall } from '../../src/server/fleet/daemons/jsonrpc';
import { freePort } from '../../src/server/nodes/daemon-spec';
import { upsertQuote } from '../../src/server/market/queries';
import { ensureWallet, haveBinary, pidsMatching, rpc, waitFor, withinBudget } from '../support/daemons';
import { startTestServer, stopTestServer, tempDataDir, type TestServer } from '../support/server';
import { freshUser, type FreshUser } from '../support/users';
import { liveClient } from '../support/live';

// Crypto deposits on a real litecoind in regtest: the operator's watch-only wallet (no
// private key anywhere near the server) imports the receive chain of a tpub; each user's
// address is derived from it at a stored index; the watcher reads listsinceblock.
const LITECOIND = '/usr/lib/litecoin/litecoind';
const root = tempDataDir('nodekeep-deposits-ltc-');
const chainDir = path.join(root, 'chain');
const dataDir = path.join(root, 'platform');
const auth = { user: 'dep', password: randomBytes(12).toString('hex') };
const CONFIRMATIONS = 3;
const PRICE = 80; // USD per LTC in the quotes table

let daemon: ChildProcess | undefined;
let rpcPort = 0;
let s: TestServer;
// The operator's account key: the test holds the seed, the platform only the tpub.
const account = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
);
const tpub = account.publicExtendedKey;

const target = () => ({ endpoint: { host: '127.0.0.1', port: rpcPort }, auth });
const miner = <T>(method: string, params: unknown[], schema: v.GenericSchema<unknown, T>) =>
  withinBudget(`miner ${method}`, (timeoutMs) =>
    bitcoinCall({ ...target(), timeoutMs, wallet: 'miner' }, method, params, schema),
  );
const node = <T>(method: string, params: unknown[], schema: v.GenericSchema<unknown, T>) =>
  rpc(target(), method, params, schema);
let minerAddress = '';
// Wallets hear of new transactions and blocks through the daemon's notification queue,
// asynchronously: the watch-only wallet may not list a payment the miner's wallet has just
// made. Draining the queue makes "paid" mean "visible to the watcher" (a busy CI machine
// showed the gap).
const settled = async <T>(result: T) => (await node('syncwithvalidationinterfacequeue', [], v.null()), result);
const mine = async (n: number) => settled(await miner('generatetoaddress', [n, minerAddress], v.array(v.string())));
const pay = async (address: string, ltc: number, replaceable = false) =>
  settled(await miner('sendtoaddress', [address, ltc, '', '', false, replaceable], v.string()));

const cli = async (...args: string[]) => {
  const lines: string[] = [];
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await runCli(args, { DATA_DIR: dataDir }, { out: (l) => lines.push(l) });
    return { code, out: lines.join('\n'), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
};
const api = async (user: FreshUser, method: 'GET' | 'POST', p: string, body?: unknown) => {
  const r = await fetch(`${s.url}${p}`, {
    method,
    headers: { authorization: `Bearer ${user.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as any };
};
const watch = () => watchCurrency(s.deps, 'ltc');
const deposits = () => s.deps.db.selectFrom('deposits').selectAll().orderBy('id').execute();
const balance = (u: FreshUser) => accountBalance(s.deps.db, userAccount(u.id));
const pendingOf = async (u: FreshUser) => (await api(u, 'GET', '/api/get_transactions')).body.pending;
const transfersFor = (txid: string) =>
  s.deps.db
    .selectFrom('ledger_transfers')
    .selectAll()
    .where('idempotency_key', 'like', `crypto:ltc:${txid}:%`)
    .execute();
const kinds = async (u: FreshUser) =>
  (await s.deps.db.selectFrom('notifications').select('kind').where('user_id', '=', u.id).orderBy('id').execute()).map(
    (r) => r.kind,
  );
const generate = async (u: FreshUser) => {
  const r = await api(u, 'POST', '/api/generate_wallet', { currency: 'ltc' });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.address as string;
};

beforeAll(async () => {
  if (!haveBinary(LITECOIND)) return;
  fs.mkdirSync(chainDir, { recursive: true });
  rpcPort = await freePort();
  const [p2p, onion] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(chainDir, 'litecoin.conf'),
    `regtest=1\nserver=1\nlisten=1\ndiscover=0\ndnsseed=0\nupnp=0\nrpcuser=${auth.user}\nrpcpassword=${auth.password}\nfallbackfee=0.0001\n[regtest]\nrpcport=${rpcPort}\nrpcbind=127.0.0.1\nrpcallowip=127.0.0.1\nport=${p2p}\nbind=127.0.0.1:${p2p}\nbind=127.0.0.1:${onion}=onion\nvbparams=mweb:4000000000:9223372036854775807\n`,
  );
  daemon = spawn(LITECOIND, [`-conf=${chainDir}/litecoin.conf`, `-datadir=${chainDir}`], { stdio: 'ignore' });
  await waitFor(
    async () =>
      node('getblockcount', [], v.number())
        .then(() => true)
        .catch(() => false),
    60_000,
    'litecoind answers',
  );
  await ensureWallet(async () => target(), 'miner');
  minerAddress = await miner('getnewaddress', [], v.string());
  await mine(110);

  s = await startTestServer({ DEPOSIT_POLL_SECONDS: '3600' }, { dataDir });
  await upsertQuote(
    s.deps.db,
    'litecoin',
    'test-quotes',
    { market_id: 'litecoin', price_usd: PRICE, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
    Date.now(),
  );
}, 120_000);

afterAll(async () => {
  await stopTestServer(s, { keepData: true });
  if (daemon?.pid) {
    daemon.kill('SIGTERM');
    await waitFor(async () => daemon!.exitCode !== null || daemon!.signalCode !== null, 60_000, 'litecoind stops');
  }
  expect(pidsMatching(chainDir)).toEqual([]);
  fs.rmSync(root, { recursive: true, force: true });
}, 90_000);

describe.skipIf(!haveBinary(LITECOIND))('crypto deposits on litecoind (regtest)', () => {
  let alice: FreshUser;

  it('the operator adds the currency from the CLI; bad flags are refused with nothing written', async () => {
    const base = [
      'deposits',
      'add',
      'ltc',
      '--label',
      'Litecoin',
      '--ticker',
      'ltc',
      '--confirmations',
      String(CONFIRMATIONS),
      '--minimum',
      '1',
      '--price-coin',
      'litecoin',
      '--rpc-url',
      `http://127.0.0.1:${rpcPort}`,
      '--rpc-user',
      auth.user,
      '--rpc-password',
      auth.password,
    ];
    const xprv = account.privateExtendedKey;
    const bad = [
      [...base, '--xpub', 'tpubGARBAGE', '--address', 'wpkh:rltc'],
      [...base, '--xpub', xprv, '--address', 'wpkh:rltc'],
      [...base, '--xpub', tpub, '--address', 'p2sh:5'],
      [...base.map((a) => (a === String(CONFIRMATIONS) ? '0' : a)), '--xpub', tpub, '--address', 'wpkh:rltc'],
      [...base.map((a) => (a === '1' ? '0.001' : a)), '--xpub', tpub, '--address', 'wpkh:rltc'],
      [...base, '--address', 'wpkh:rltc'],
    ];
    for (const args of bad) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^error: /);
    }
    expect((await cli(...base, '--xpub', tpub, '--address', 'wpkh:rltc', '--rpc-url', 'ftp://x')).err).toMatch(
      /unknown option|RPC URL|http/,
    );
    expect(await s.deps.db.selectFrom('deposit_currencies').selectAll().execute()).toEqual([]);

    const ok = await cli(...base, '--xpub', tpub, '--address', 'wpkh:rltc');
    expect(ok.code, ok.err).toBe(0);
    const row = await s.deps.db
      .selectFrom('deposit_currencies')
      .selectAll()
      .where('id', '=', 'ltc')
      .executeTakeFirstOrThrow();
    // The RPC password is sealed, not stored as given.
    expect(row.rpc_password).toMatch(/^v1:/);
    expect(row.rpc_password).not.toContain(auth.password);
    expect((await cli('deposits', 'list')).out).toContain('ltc\tLitecoin (LTC)');
    const log = await s.deps.db
      .selectFrom('operator_log')
      .select('action')
      .where('action', '=', 'deposits add')
      .execute();
    expect(log).toHaveLength(1);
  });

  it('gives each user an address derived from the tpub, the daemon deriving the same; the same address on every later call', async () => {
    alice = await freshUser(s.deps, { prefix: 'depalice' });
    const bob = await freshUser(s.deps, { prefix: 'depbob' });
    const a = await generate(alice);
    const b = await generate(bob);
    expect(a).not.toBe(b);
    expect(await generate(alice)).toBe(a);
    const rows = await s.deps.db.selectFrom('deposit_addresses').selectAll().orderBy('idx').execute();
    expect(rows.map((r) => [r.user_id, r.idx])).toEqual([
      [alice.id, 0],
      [bob.id, 1],
    ]);
    const info = await node('getdescriptorinfo', [`wpkh(${tpub}/0/*)`], v.object({ checksum: v.string() }));
    const derived = await node('deriveaddresses', [`wpkh(${tpub}/0/*)#${info.checksum}`, [0, 1]], v.array(v.string()));
    expect(derived).toEqual([a, b]);
    const before = await s.deps.db.selectFrom('deposit_addresses').selectAll().execute();
    const unknown = await api(alice, 'POST', '/api/generate_wallet', { currency: 'nope' });
    expect(unknown).toEqual({
      status: 404,
      body: expect.objectContaining({ success: false, message: 'This currency is not accepted for deposits.' }),
    });
    expect((await api(alice, 'POST', '/api/generate_wallet', { currency: 'ltc', extra: 1 })).status).toBe(400);
    expect(await s.deps.db.selectFrom('deposit_addresses').selectAll().execute()).toEqual(before);
    const list = await api(alice, 'GET', '/api/get_alt_payments');
    expect(list.body.currencies).toEqual([
      { id: 'ltc', label: 'Litecoin', ticker: 'LTC', address: a, max_confirmations: CONFIRMATIONS },
    ]);
  });

  it('shows a deposit pending with confirmations rising block by block and credits it once, exactly at the threshold', async () => {
    const address = await generate(alice);
    await watch(); // imports the range
    const live = liveClient(s.url, alice.token);
    await waitFor(async () => live.types().includes('sync'), 10_000, 'live subscription');
    const refreshes = () => live.types().filter((t) => t === 'refresh_transactions').length;
    const txid = await pay(address, 0.5);
    await watch();
    await waitFor(async () => refreshes() >= 1, 10_000, 'the owner hears of the pending deposit live');
    expect(await pendingOf(alice)).toEqual([
      {
        currency_label: 'Litecoin',
        confirmations: 0,
        max_confirmations: CONFIRMATIONS,
        amount: 0.5,
        date: expect.any(String),
      },
    ]);
    expect(await kinds(alice)).toContain('deposit_pending');
    for (let c = 1; c < CONFIRMATIONS; c++) {
      await mine(1);
      await watch();
      expect((await pendingOf(alice))[0].confirmations).toBe(c);
      expect(await balance(alice)).toBe(0);
      await waitFor(async () => refreshes() >= c + 1, 10_000, `the owner hears of confirmation ${c} live`);
    }
    const refreshRows = await s.deps.db
      .selectFrom('events')
      .select('id')
      .where('user_id', '=', alice.id)
      .where('type', '=', 'refresh_transactions')
      .execute();
    expect(refreshRows.length).toBeGreaterThanOrEqual(CONFIRMATIONS);
    await mine(1);
    await watch();
    expect(await balance(alice)).toBe(0.5 * PRICE * 1_000_000);
    expect(await pendingOf(alice)).toEqual([]);
    await waitFor(
      async () => live.received.some((e) => e.type === 'update_balance' && e.payload.balance === 0.5 * PRICE),
      10_000,
      'the new balance live',
    );
    expect(live.errors).toEqual([]);
    await live.close();
    const t = await transfersFor(txid);
    expect(t).toHaveLength(1);
    expect(JSON.parse(t[0].meta!)).toMatchObject({
      price_usd: PRICE,
      price_source: 'test-quotes',
      txid,
      confirmations: CONFIRMATIONS,
      amount: '0.5',
    });
    expect(await kinds(alice)).toContain('deposit_credited');
    // Reruns, more blocks, a restart of the listing from scratch: never credited again.
    for (let i = 0; i < 3; i++) await watch();
    await mine(2);
    await s.deps.db.updateTable('deposit_currencies').set({ cursor: null }).execute();
    await watch();
    expect(await balance(alice)).toBe(0.5 * PRICE * 1_000_000);
    expect(await transfersFor(txid)).toHaveLength(1);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });

  it('records a deposit below the minimum without crediting it', async () => {
    const small = await freshUser(s.deps, { prefix: 'depsmall' });
    const txid = await pay(await generate(small), 0.01); // $0.80 < $1
    await watch();
    await mine(CONFIRMATIONS);
    await watch();
    expect(await balance(small)).toBe(0);
    expect(await transfersFor(txid)).toEqual([]);
    const d = (await deposits()).find((r) => r.txid === txid)!;
    expect(d).toMatchObject({ state: 'below_minimum', usd_micros: 800_000 });
    expect(await pendingOf(small)).toEqual([]);
  });

  it('a deposit at its threshold waits for a fresh price, pending across more blocks, then is credited at the price of that time', async () => {
    const quote = (price: number, at: number, provider = 'test-quotes') =>
      upsertQuote(
        s.deps.db,
        'litecoin',
        provider,
        { market_id: 'litecoin', price_usd: price, volume_24h_usd: 1, market_cap_usd: 1, change_24h_pct: null },
        at,
      );
    await quote(PRICE, Date.now() - QUOTE_MAX_AGE_MS - 60_000); // too old: not used
    const dave = await freshUser(s.deps, { prefix: 'depdave' });
    const txid = await pay(await generate(dave), 0.2);
    await watch();
    for (let i = 0; i < CONFIRMATIONS + 3; i++) {
      await mine(1);
      await watch();
    }
    expect(await pendingOf(dave)).toEqual([
      expect.objectContaining({ confirmations: CONFIRMATIONS, max_confirmations: CONFIRMATIONS, amount: 0.2 }),
    ]);
    expect(await balance(dave)).toBe(0);
    // Fresh but made up (the demo provider of an install without a price API): not used either.
    await quote(1000, Date.now(), 'demo');
    await watch();
    expect(await balance(dave)).toBe(0);
    await quote(90, Date.now());
    await watch();
    expect(await balance(dave)).toBe(0.2 * 90 * 1_000_000);
    expect(JSON.parse((await transfersFor(txid))[0].meta!)).toMatchObject({ price_usd: 90 });
    await quote(PRICE, Date.now());
  });

  it('a reorg by invalidateblock before the threshold drops the confirmations; once the payment is double-spent it leaves pending and is never credited', async () => {
    const carol = await freshUser(s.deps, { prefix: 'depcarol' });
    const address = await generate(carol);
    await watch();
    const txid = await pay(address, 0.25, true);
    const [block] = await mine(1);
    await mine(1);
    await watch();
    expect((await pendingOf(carol))[0].confirmations).toBe(2);
    // The block leaves the main chain: the transaction is back in the mempool, unconfirmed.
    await node('invalidateblock', [block], v.null());
    await watch();
    expect(await pendingOf(carol)).toEqual([expect.objectContaining({ confirmations: 0, amount: 0.25 })]);
    // The payer double-spends its inputs back to itself with a higher fee: the reorged-away
    // payment will never confirm, and the deposit leaves the pending list.
    const raw = await node(
      'getrawtransaction',
      [txid, true],
      v.looseObject({
        vin: v.array(v.looseObject({ txid: v.string(), vout: v.number() })),
        vout: v.array(v.looseObject({ value: v.number() })),
      }),
    );
    const total = raw.vout.reduce((sum, o) => sum + Math.round(o.value * 1e8), 0);
    const back = await miner('getnewaddress', [], v.string());
    const hex = await node(
      'createrawtransaction',
      [raw.vin.map((i) => ({ txid: i.txid, vout: i.vout })), [{ [back]: (total - 100_000) / 1e8 }]],
      v.string(),
    );
    const signed = await miner(
      'signrawtransactionwithwallet',
      [hex],
      v.object({ hex: v.string(), complete: v.literal(true) }),
    );
    // litecoind relays no replacements: the double-spend goes straight into a block of the new chain.
    await node('generateblock', [back, [signed.hex]], v.object({ hash: v.string() }));
    const conflict = (await node('decoderawtransaction', [signed.hex], v.object({ txid: v.string() }))).txid;
    await node('syncwithvalidationinterfacequeue', [], v.null());
    await watch();
    const rows = (await deposits()).filter((r) => r.user_id === carol.id);
    expect(rows.map((r) => [r.txid, r.state])).toEqual([[txid, 'removed']]);
    expect(await pendingOf(carol)).toEqual([]);
    await mine(CONFIRMATIONS);
    await watch();
    expect(
      (await miner('gettransaction', [conflict], v.looseObject({ confirmations: v.number() }))).confirmations,
    ).toBe(CONFIRMATIONS + 1);
    expect(await balance(carol)).toBe(0);
    expect(await transfersFor(txid)).toEqual([]);
    expect(await pendingOf(carol)).toEqual([]);
    expect((await deposits()).filter((r) => r.user_id === carol.id).map((r) => r.state)).toEqual(['removed']);
  });

  it('picks up a payment to an address beyond the imported range once the range grows', async () => {
    const before = await s.deps.db
      .selectFrom('deposit_currencies')
      .select(['next_index', 'imported_to'])
      .executeTakeFirstOrThrow();
    // More users take addresses than the daemon watches ahead, before the watcher runs again.
    const users: FreshUser[] = [];
    while (users.length < before.imported_to - before.next_index + 2)
      users.push(await freshUser(s.deps, { prefix: `deprange${users.length}` }));
    const addresses: string[] = [];
    for (const u of users) addresses.push(await generate(u));
    const last = users.at(-1)!;
    const idx = (
      await s.deps.db
        .selectFrom('deposit_addresses')
        .select('idx')
        .where('user_id', '=', last.id)
        .executeTakeFirstOrThrow()
    ).idx;
    expect(idx).toBeGreaterThanOrEqual(before.imported_to);
    const txid = await pay(addresses.at(-1)!, 0.1);
    await mine(CONFIRMATIONS);
    // The daemon's wallet does not watch it yet.
    const info = await miner(
      'getaddressinfo',
      [addresses.at(-1)],
      v.looseObject({ ismine: v.boolean(), iswatchonly: v.boolean() }),
    );
    expect(info.ismine).toBe(false);
    const watchOnly = (m: string, p: unknown[]) =>
      withinBudget(m, (timeoutMs) =>
        bitcoinCall(
          { ...target(), timeoutMs, wallet: 'nodekeep-ltc' },
          m,
          p,
          v.looseObject({ iswatchonly: v.boolean() }),
        ),
      );
    expect((await watchOnly('getaddressinfo', [addresses.at(-1)])).iswatchonly).toBe(false);
    await watch();
    expect((await watchOnly('getaddressinfo', [addresses.at(-1)])).iswatchonly).toBe(true);
    const after = await s.deps.db
      .selectFrom('deposit_currencies')
      .select(['next_index', 'imported_to'])
      .executeTakeFirstOrThrow();
    expect(after.imported_to).toBe(after.next_index + 20);
    expect(await balance(last)).toBe(Math.round(0.1 * PRICE * 1_000_000));
    expect(await transfersFor(txid)).toHaveLength(1);
    expect(await ledgerMismatches(s.deps.db)).toEqual([]);
  });
});

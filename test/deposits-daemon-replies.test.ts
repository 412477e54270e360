import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWallet } from '../src/server/billing/crypto/service';
import { watchCurrency } from '../src/server/billing/crypto/watcher';
import { insertCurrency } from '../src/server/billing/crypto/queries';
import { makeDeps, type Deps } from './support/caller';
import { freshUser, type FreshUser } from './support/users';

// Daemons that answer garbage, as a real HTTP server on loopback: a FAKE of the
// bitcoin-family JSON-RPC and of monero-wallet-rpc, whose replies each test sets. The
// watcher and generate_wallet must refuse every malformed reply and write nothing.
let d: Deps;
let u: FreshUser;
let fake: http.Server;
let port = 0;
let reply: (method: string, params: unknown) => unknown = () => null;
const calls: string[] = [];
const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;

const snapshot = async () => ({
  currencies: await d.db.selectFrom('deposit_currencies').selectAll().execute(),
  deposits: await d.db.selectFrom('deposits').selectAll().execute(),
  addresses: await d.db.selectFrom('deposit_addresses').selectAll().execute(),
  transfers: await d.db.selectFrom('ledger_transfers').selectAll().execute(),
});

beforeAll(async () => {
  d = await makeDeps();
  u = await freshUser(d.deps, { prefix: 'depfake' });
  fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const { method, params, id } = JSON.parse(body);
      calls.push(method);
      const r = reply(method, params);
      if (typeof r === 'string') res.end(r);
      else {
        await new Promise((ok) => setTimeout(ok, 5));
        res.end(JSON.stringify({ id, jsonrpc: '2.0', error: null, ...(r as object) }));
      }
    });
  });
  await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
  port = (fake.address() as AddressInfo).port;
  const now = Date.now();
  const base = {
    confirmations: 2,
    minimum: 10_000,
    watch_from: now,
    created_at: now,
    rpc_url: `http://127.0.0.1:${port}`,
  };
  await insertCurrency(d.db, {
    ...base,
    id: 'ltc',
    label: 'Litecoin',
    ticker: 'LTC',
    kind: 'bitcoin',
    price_coin: 'ltc',
    decimals: 8,
    xpub: tpub,
    address_type: 'wpkh:rltc',
  });
  await insertCurrency(d.db, {
    ...base,
    id: 'xmr',
    label: 'Monero',
    ticker: 'XMR',
    kind: 'monero',
    price_coin: 'xmr',
    decimals: 12,
  });
  await generateWallet(d.deps, u.id, 'ltc');
});
afterAll(async () => {
  await new Promise((ok) => fake.close(ok));
  await d.close();
});

const ok = (result: unknown) => ({ result });
const hex = (c: string) => c.repeat(64);

describe('garbage from a deposit daemon', () => {
  it('bitcoin family: every malformed reply is refused and nothing is written', async () => {
    const good: Record<string, unknown> = {
      listwallets: ok(['nodekeep-ltc']),
      getdescriptorinfo: ok({ descriptor: 'x', checksum: 'abcdefgh' }),
      importmulti: ok([{ success: true }]),
    };
    const addr = (await d.db.selectFrom('deposit_addresses').select('address').executeTakeFirstOrThrow()).address;
    const entry = { category: 'receive', txid: hex('a'), vout: 0, address: addr, amount: 1, confirmations: 5 };
    const garbage: unknown[] = [
      'not json at all',
      JSON.stringify({ nothing: 'here' }),
      ok(null),
      ok({ transactions: 'many', lastblock: hex('b') }),
      ok({ transactions: [{ ...entry, txid: 'short' }], lastblock: hex('b') }),
      ok({ transactions: [{ ...entry, amount: '1' }], lastblock: hex('b') }),
      ok({ transactions: [{ ...entry, confirmations: 1.5 }], lastblock: hex('b') }),
      ok({ transactions: [{ ...entry, vout: -1 }], lastblock: hex('b') }),
      ok({ transactions: [entry], lastblock: 'nope' }),
      { result: null, error: { code: -1, message: 'boom' } },
    ];
    // A first pass imports the range (nothing else is written by a failing listing).
    reply = (m) => good[m] ?? ok({ transactions: [], removed: [], lastblock: hex('c') });
    await watchCurrency(d.deps, 'ltc');
    const before = await snapshot();
    for (const g of garbage) {
      reply = (m) => good[m] ?? g;
      await expect(watchCurrency(d.deps, 'ltc'), JSON.stringify(g)).rejects.toThrow(/listsinceblock|reply is not JSON/);
      expect(await snapshot()).toEqual(before);
    }
    // importmulti that reports a failure is not taken for success.
    await d.db.updateTable('deposit_addresses').set({ idx: 0 }).execute();
    await d.db.updateTable('deposit_currencies').set({ next_index: 40 }).where('id', '=', 'ltc').execute();
    const grown = await snapshot();
    reply = (m) =>
      m === 'importmulti'
        ? ok([{ success: false, error: { message: 'Rescan failed' } }])
        : (good[m] ?? ok({ transactions: [], lastblock: hex('c') }));
    await expect(watchCurrency(d.deps, 'ltc')).rejects.toThrow(/Rescan failed/);
    expect(await snapshot()).toEqual(grown);
  });

  it('monero family: malformed transfers are refused; a bad subaddress reply gives a clear error and no address', async () => {
    const t = {
      txid: hex('d'),
      amount: 1_000_000_000_000,
      confirmations: 3,
      address: '5'.repeat(95),
      subaddr_index: { major: 0, minor: 1 },
    };
    const before = await snapshot();
    for (const g of [
      '<html>',
      ok({ in: [{ ...t, amount: -1 }] }),
      ok({ in: [{ ...t, amount: 2 ** 60 }] }),
      ok({ in: [{ ...t, subaddr_index: null }] }),
      ok({ in: 'x' }),
    ]) {
      reply = (m) => (m === 'refresh' ? ok({ blocks_fetched: 0 }) : g);
      await expect(watchCurrency(d.deps, 'xmr')).rejects.toThrow(/get_transfers|reply is not JSON/);
      expect(await snapshot()).toEqual(before);
    }
    for (const g of [
      ok({ address: 'short', address_index: 1 }),
      ok({ address: '8'.repeat(95), address_index: 0 }),
      { error: { code: -1, message: 'busy' } },
      'garbage',
    ]) {
      reply = () => g;
      await expect(generateWallet(d.deps, u.id, 'xmr')).rejects.toThrow(
        'A deposit address could not be made right now. Please try again in a little while.',
      );
      expect(await snapshot()).toEqual(before);
    }
  });

  it('monero family: 100 requests of one user at once make one subaddress', async () => {
    calls.length = 0;
    let next = 1;
    reply = (m) =>
      m === 'create_address' ? ok({ address: `8${String(next).padStart(94, 'x')}`, address_index: next++ }) : null;
    const all = await Promise.all(Array.from({ length: 100 }, () => generateWallet(d.deps, u.id, 'xmr')));
    expect(new Set(all).size).toBe(1);
    expect(calls.filter((c) => c === 'create_address')).toHaveLength(1);
    expect(await generateWallet(d.deps, u.id, 'xmr')).toBe(all[0]);
    expect(calls.filter((c) => c === 'create_address')).toHaveLength(1);
  });
});

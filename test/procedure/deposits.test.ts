import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atomicToMicros } from '../../src/server/billing/crypto/amounts';
import { formatCoins as formatAtomic, jsonCoinsToAtomic as toAtomic } from '../../src/shared/coin-amount';
import { deriveAddress } from '../../src/server/billing/crypto/derive';
import { runCli } from '../../src/server/cli/main';
import { makeDeps, rejection, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

let d: Deps;
let u: FreshUser;
const tpub = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf }).derive(
  "m/84'/1'/0'",
).publicExtendedKey;

const cli = async (...args: string[]) => {
  const err: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const out: string[] = [];
    return {
      code: await runCli(args, { DATA_DIR: d.deps.config.dataDir }, { out: (l) => out.push(l) }),
      err: err.join(''),
      out: out.join('\n'),
    };
  } finally {
    process.stderr.write = write;
  }
};
const add = (id: string, label: string, more: string[] = []) =>
  cli(
    'deposits',
    'add',
    id,
    '--label',
    label,
    '--ticker',
    id.slice(0, 5),
    '--confirmations',
    '2',
    '--xpub',
    tpub,
    '--address',
    'wpkh:rltc',
    '--rpc-url',
    'http://127.0.0.1:1',
    ...more,
  );
const snapshot = async () => ({
  currencies: await d.db.selectFrom('deposit_currencies').selectAll().execute(),
  addresses: await d.db.selectFrom('deposit_addresses').selectAll().execute(),
  log: await d.db.selectFrom('operator_log').selectAll().execute(),
});

beforeAll(async () => {
  d = await makeDeps();
  u = await freshUser(d.deps, { prefix: 'depproc' });
});
afterAll(() => d.close());

describe('deposit currencies and addresses', () => {
  it('refuses bad operator input clearly, writing nothing', async () => {
    const before = await snapshot();
    const cases: Array<[string[], RegExp]> = [
      [
        [
          'deposits',
          'add',
          'Bad Id',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
        ],
        /id is 1-32 lowercase/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub.slice(0, -3) + 'abc',
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
        ],
        /not a valid extended public key/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
        ],
        /extended public key/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          'two',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
        ],
        /confirmations must be a whole number/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--minimum',
          '0.001',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
        ],
        /at least \$0\.01/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://u:p@127.0.0.1:1',
        ],
        /not in the URL/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
          '--monero-wallet-rpc',
          'http://127.0.0.1:2',
        ],
        /either --xpub/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
          '--rpc-user',
          'u',
        ],
        /together/,
      ],
      [
        [
          'deposits',
          'add',
          'x',
          '--label',
          'X',
          '--ticker',
          'X',
          '--confirmations',
          '2',
          '--xpub',
          tpub,
          '--address',
          'wpkh:rltc',
          '--rpc-url',
          'http://127.0.0.1:1',
          '--bogus',
          '1',
        ],
        /unknown option --bogus/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    // Not a mistake in the command line: the message alone, exit 1.
    const missing = await cli('deposits', 'disable', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('error: no deposit currency "nope"\n');
    expect(await snapshot()).toEqual(before);
  });

  it('lists the spec’s preferred coins first, then the rest by label; a disabled currency is not offered', async () => {
    for (const [id, label] of [
      ['zzz', 'Zcoin Other'],
      ['neox', 'Neoxa'],
      ['ltc', 'Litecoin'],
      ['aaa', 'Alpha'],
      ['btc', 'Bitcoin'],
      ['dash', 'Dash'],
      ['off', 'Offline'],
    ])
      expect((await add(id, label)).code).toBe(0);
    expect((await cli('deposits', 'disable', 'off')).code).toBe(0);
    const r = await d.caller(u.token).billing.get_alt_payments();
    expect(r.currencies.map((c) => c.label)).toEqual(['Bitcoin', 'Litecoin', 'Dash', 'Neoxa', 'Alpha', 'Zcoin Other']);
    expect(r.currencies.every((c) => c.address === '' && c.max_confirmations === 2)).toBe(true);
  });

  it('refuses an unknown or disabled currency with a clear message, writing nothing', async () => {
    const before = await snapshot();
    for (const currency of ['nope', 'off']) {
      const err = await rejection(d.caller(u.token).billing.generate_wallet({ currency }));
      expect(err.message).toBe('This currency is not accepted for deposits.');
    }
    await rejection(d.caller(u.token).billing.generate_wallet({ currency: '' }));
    expect(await snapshot()).toEqual(before);
  });

  it('100 requests of one user at once give one address, one index taken', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, () => d.caller(u.token).billing.generate_wallet({ currency: 'ltc' })),
    );
    expect(new Set(results.map((r) => r.address)).size).toBe(1);
    expect(results[0].address).toBe(deriveAddress(tpub, { kind: 'wpkh', hrp: 'rltc' }, 0));
    const rows = await d.db.selectFrom('deposit_addresses').selectAll().where('currency_id', '=', 'ltc').execute();
    expect(rows.map((r) => [r.user_id, r.idx])).toEqual([[u.id, 0]]);
    expect(
      (
        await d.db
          .selectFrom('deposit_currencies')
          .select('next_index')
          .where('id', '=', 'ltc')
          .executeTakeFirstOrThrow()
      ).next_index,
    ).toBe(1);
    expect((await d.caller(u.token).billing.get_alt_payments()).currencies.find((c) => c.id === 'ltc')!.address).toBe(
      results[0].address,
    );
  });

  it('many users at once each get their own index, none shared', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, (_, i) => freshUser(d.deps, { prefix: `deprace${i}` })));
    const results = await Promise.all(
      users.flatMap((x) =>
        Array.from({ length: 8 }, () => d.caller(x.token).billing.generate_wallet({ currency: 'btc' })),
      ),
    );
    const byUser = new Map<number, Set<string>>();
    users.forEach((x, i) => byUser.set(x.id, new Set(results.slice(i * 8, i * 8 + 8).map((r) => r.address))));
    expect([...byUser.values()].every((s) => s.size === 1)).toBe(true);
    const rows = await d.db
      .selectFrom('deposit_addresses')
      .selectAll()
      .where('currency_id', '=', 'btc')
      .orderBy('idx')
      .execute();
    expect(rows.map((r) => r.idx)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    for (const r of rows) expect(r.address).toBe(deriveAddress(tpub, { kind: 'wpkh', hrp: 'rltc' }, r.idx));
  });

  it('converts amounts exactly', () => {
    expect(toAtomic(0.1, 8)).toBe(10_000_000n);
    expect(toAtomic(21_000_000.12345678, 8)).toBe(2_100_000_012_345_678n);
    expect(formatAtomic(50_000_000n, 8)).toBe('0.5');
    expect(formatAtomic(1_000_000_000_000n, 12)).toBe('1');
    expect(atomicToMicros(50_000_000n, 8, 80)).toBe(40_000_000);
    expect(atomicToMicros(1n, 12, 150)).toBe(0); // rounded down, never up
    expect(atomicToMicros(123_456_789n, 8, 0.00012345)).toBe(152);
    expect(() => atomicToMicros(1n, 8, 0)).toThrow();
  });
});

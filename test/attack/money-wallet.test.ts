import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADDRESS_UNAVAILABLE, generateWallet } from '../../src/server/billing/crypto/service';
import type { Sources } from '../../src/server/billing/crypto/currencies';
import { AppError } from '../../src/server/kernel/errors';
import { runCli } from '../../src/server/cli/main';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser } from '../support/users';

// Monero deposit addresses come from the operator's view-only wallet RPC. A wallet made
// again from the view key (after a loss, or a new wallet file) counts its subaddresses from
// 1 again, handing out addresses already given to other users. Here the wallet RPC is a
// stand-in object (the real one is exercised in test/peers/deposits-monero.test.ts).

let d: Deps;
beforeAll(async () => {
  d = await makeDeps();
  const out: string[] = [];
  expect(
    await runCli(
      [
        'deposits',
        'add',
        'xmr',
        '--label',
        'Monero',
        '--ticker',
        'XMR',
        '--confirmations',
        '2',
        '--monero-wallet-rpc',
        'http://127.0.0.1:1',
      ],
      { DATA_DIR: d.deps.config.dataDir },
      { out: (l) => out.push(l) },
    ),
  ).toBe(0);
});
afterAll(() => d.close());

/** A wallet whose `create_address` counts from `from`, one index per call. */
function wallet(from: number) {
  let next = from;
  const calls: number[] = [];
  const sources = {
    bitcoin: () => {
      throw new Error('not a bitcoin currency');
    },
    monero: () => ({
      createAddress: async () => {
        const index = next++;
        calls.push(index);
        return { address: `4subaddress${String(index).padStart(4, '0')}`, index };
      },
      incoming: async () => [],
    }),
  } as unknown as Sources;
  return { sources, calls };
}

const stored = () =>
  d.db
    .selectFrom('deposit_addresses')
    .select(['user_id', 'address', 'idx'])
    .where('currency_id', '=', 'xmr')
    .orderBy('idx')
    .execute();

it('a wallet made again hands out taken subaddresses: they are passed over, each user still gets one of their own', async () => {
  const first = wallet(1);
  const early = await Promise.all(Array.from({ length: 3 }, (_, i) => freshUser(d.deps, { prefix: `xmrearly${i}` })));
  for (const u of early) await generateWallet(d.deps, u.id, 'xmr', first.sources);
  expect((await stored()).map((r) => r.idx)).toEqual([1, 2, 3]);

  // The wallet is made again: it starts over at 1.
  const again = wallet(1);
  const late = await Promise.all(Array.from({ length: 2 }, (_, i) => freshUser(d.deps, { prefix: `xmrlate${i}` })));
  // Each late user asks 10 times at once.
  const answers = await Promise.all(
    late.flatMap((u) => Array.from({ length: 10 }, () => generateWallet(d.deps, u.id, 'xmr', again.sources))),
  );
  const rows = await stored();
  expect(rows.map((r) => r.idx)).toEqual([1, 2, 3, 4, 5]);
  for (const [i, u] of late.entries()) {
    const own = rows.find((r) => r.user_id === u.id)!;
    expect(new Set(answers.slice(i * 10, i * 10 + 10))).toEqual(new Set([own.address]));
  }
  // The early users keep theirs.
  for (const [i, u] of early.entries()) expect(rows.find((r) => r.user_id === u.id)!.idx).toBe(i + 1);
});

it('a wallet that only hands out taken subaddresses gets a clear refusal, and nothing is stored', async () => {
  const stuck = {
    bitcoin: () => {
      throw new Error('not a bitcoin currency');
    },
    monero: () => ({ createAddress: async () => ({ address: '4subaddress0001', index: 1 }), incoming: async () => [] }),
  } as unknown as Sources;
  const u = await freshUser(d.deps, { prefix: 'xmrstuck' });
  const before = await stored();
  const err = await generateWallet(d.deps, u.id, 'xmr', stuck).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: ADDRESS_UNAVAILABLE });
  expect(await stored()).toEqual(before);
});

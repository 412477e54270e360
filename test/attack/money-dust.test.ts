import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sources } from '../../src/server/billing/crypto/currencies';
import { insertAddress, insertCurrency } from '../../src/server/billing/crypto/queries';
import { getTransactions } from '../../src/server/billing/service';
import { watchCurrency } from '../../src/server/billing/crypto/watcher';
import { ledgerMismatches } from '../../src/server/billing/ledger';
import { upsertQuote } from '../../src/server/market/queries';
import type { ChainPayment } from '../../src/server/billing/crypto/sources';
import { makeDeps, type Deps } from '../support/caller';
import { freshUser, type FreshUser } from '../support/users';

// Dusting: anyone who knows a user's deposit address can pay it a thousand tiny outputs
// in one transaction for cents. Each output is a deposit the watcher sees; none may turn
// into a mail (or an alert) of its own, and the pending list stays a page. The daemon is a
// stand-in object returning what a wallet RPC would (the real daemons are in test/peers).

let d: Deps;
let victim: FreshUser;
const ADDRESS = '4victimsubaddress';
let payments: ChainPayment[] = [];
const sources = {
  bitcoin: () => {
    throw new Error('not a bitcoin currency');
  },
  monero: () => ({ createAddress: async () => ({ address: ADDRESS, index: 1 }), incoming: async () => payments }),
} as unknown as Sources;

beforeAll(async () => {
  d = await makeDeps();
  victim = await freshUser(d.deps, { prefix: 'dusted' });
  const now = Date.now();
  // Minimum $1; XMR at $150: 1 XMR = 1e12 atomic units.
  await insertCurrency(d.db, {
    id: 'xmr',
    label: 'Monero',
    ticker: 'XMR',
    kind: 'monero',
    price_coin: 'xmr',
    decimals: 12,
    confirmations: 10,
    minimum: 1_000_000,
    watch_from: now,
    created_at: now,
    rpc_url: 'http://127.0.0.1:1',
  });
  await upsertQuote(
    d.db,
    'xmr',
    'test',
    { market_id: 'monero', price_usd: 150, volume_24h_usd: 0, market_cap_usd: 0, change_24h_pct: null },
    now,
  );
  await insertAddress(d.db, { currency_id: 'xmr', user_id: victim.id, address: ADDRESS, idx: 1 });
});
afterAll(() => d.close());

const count = async (table: 'notifications' | 'jobs', where: (q: any) => any) =>
  (await where(d.db.selectFrom(table as any).select('id' as any)).execute()).length;
const pendingNotices = () =>
  count('notifications', (q) => q.where('user_id', '=', victim.id).where('kind', '=', 'deposit_pending'));
const mailJobs = () => count('jobs', (q) => q.where('name', '=', 'notify.mail'));
const tx = (i: number) => i.toString(16).padStart(64, '0');

it('1,000 dust outputs and one real payment in one pass: one notice, for the real payment; the pending list is a page', async () => {
  const [noticesBefore, mailsBefore] = [await pendingNotices(), await mailJobs()];
  // 1,000 outputs of 1e6 atomic units ($0.00015 each) in one transaction, and 0.1 XMR ($15).
  payments = [
    ...Array.from({ length: 1000 }, (_, i) => ({
      txid: tx(1),
      vout: i + 2,
      address: ADDRESS,
      amount: 1_000_000n,
      confirmations: 0,
    })),
    { txid: tx(2), vout: 1, address: ADDRESS, amount: 100_000_000_000n, confirmations: 0 },
  ];
  await watchCurrency(d.deps, 'xmr', sources);
  expect(await d.db.selectFrom('deposits').select('id').where('user_id', '=', victim.id).execute()).toHaveLength(1001);
  expect((await pendingNotices()) - noticesBefore).toBe(1);
  const notice = await d.db
    .selectFrom('notifications')
    .select('message')
    .where('user_id', '=', victim.id)
    .where('kind', '=', 'deposit_pending')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(notice.message).toBe('We see your deposit of 0.1 XMR; it is credited once confirmed.');
  expect((await mailJobs()) - mailsBefore).toBeLessThanOrEqual(1);
  const page = await getTransactions(d.deps, victim.id, { page: 1, per_page: 5 });
  expect(page.pending).toHaveLength(50);
  expect(page.pending.find((p) => p.amount === 0.1)).toBeDefined();

  // Confirmed: the real payment is credited, the dust is set aside; still no notice per output.
  payments = payments.map((p) => ({ ...p, confirmations: 10 }));
  await watchCurrency(d.deps, 'xmr', sources);
  expect((await pendingNotices()) - noticesBefore).toBe(1);
  const states = await d.db.selectFrom('deposits').select(['state']).where('user_id', '=', victim.id).execute();
  expect(states.filter((s) => s.state === 'credited')).toHaveLength(1);
  expect(states.filter((s) => s.state === 'below_minimum')).toHaveLength(1000);
  expect((await getTransactions(d.deps, victim.id, { page: 1, per_page: 5 })).transactions[0]).toMatchObject({
    amount: 15,
  });
  expect(await ledgerMismatches(d.db)).toEqual([]);
});

it('without a usable price, many payments in one pass make one notice of their sum', async () => {
  await d.db.deleteFrom('market_quotes').where('coin_id', '=', 'xmr').execute();
  const before = await pendingNotices();
  payments = Array.from({ length: 200 }, (_, i) => ({
    txid: tx(3),
    vout: i,
    address: ADDRESS,
    amount: 5_000_000_000n,
    confirmations: 1,
  }));
  await watchCurrency(d.deps, 'xmr', sources);
  expect((await pendingNotices()) - before).toBe(1);
  const notice = await d.db
    .selectFrom('notifications')
    .select('message')
    .where('user_id', '=', victim.id)
    .where('kind', '=', 'deposit_pending')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(notice.message).toBe('We see your deposit of 1 XMR; it is credited once confirmed.');
});

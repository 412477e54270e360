import * as v from 'valibot';
import { jsonCoinsToSat, satToCoins } from './amounts';
import { bitcoinCall, RpcError, type BitcoinRpc } from './jsonrpc';

/**
 * The collateral address's wallet activity, read from the node's daemon: what it holds,
 * what it sent, its latest transactions. Amounts are integer satoshis; `forDisplay`
 * turns them into the numbers the node page's schema carries.
 */
export type ActivityTx = { block: number | null; txid: string; /** Unix seconds of its block; null while unconfirmed. */ time: number | null; amountSat: number };
export type WalletActivity = { address: string; balanceSat: number; receivedSat: number; sentSat: number; transactions: ActivityTx[] };

const Sat = v.pipe(v.number(), v.safeInteger());
const Txid = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
const Height = v.pipe(v.number(), v.integer(), v.minValue(0));

// --- Address index (dashd and forks with addressindex=1) ------------------------------

const AddressBalance = v.object({ balance: Sat, received: Sat });
const Deltas = v.array(v.object({ satoshis: Sat, txid: Txid, index: v.number(), height: Height, address: v.string() }));
const Header = v.object({ time: v.pipe(v.number(), v.integer()) });

/**
 * Through the address index: `getaddressbalance` for the totals, `getaddressdeltas` for
 * the history (the deltas of one transaction add up to its amount), the newest `limit`
 * transactions with their block times (`getblockhash` + `getblockheader`).
 * `sinceHeight` bounds the history scan on long-lived addresses.
 */
export async function addressIndexActivity(rpc: BitcoinRpc, address: string, opts: { limit?: number; sinceHeight?: number } = {}): Promise<WalletActivity> {
  const limit = opts.limit ?? 20;
  const query = { addresses: [address], ...(opts.sinceHeight ? { start: opts.sinceHeight, end: 0x7fffffff } : {}) };
  const [totals, deltas] = await Promise.all([bitcoinCall(rpc, 'getaddressbalance', [{ addresses: [address] }], AddressBalance), bitcoinCall(rpc, 'getaddressdeltas', [query], Deltas)]);
  const byTx = new Map<string, { height: number; amountSat: number }>();
  for (const d of deltas) {
    if (d.address !== address) continue;
    const t = byTx.get(d.txid) ?? { height: d.height, amountSat: 0 };
    t.amountSat += d.satoshis;
    byTx.set(d.txid, t);
  }
  const newest = [...byTx.entries()].sort((a, b) => b[1].height - a[1].height || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  const heights = [...new Set(newest.map(([, t]) => t.height))];
  const times = new Map<number, number>();
  await Promise.all(
    heights.map(async (h) => {
      const hash = await bitcoinCall(rpc, 'getblockhash', [h], Txid);
      times.set(h, (await bitcoinCall(rpc, 'getblockheader', [hash], Header)).time);
    }),
  );
  return {
    address,
    balanceSat: totals.balance,
    receivedSat: totals.received,
    sentSat: totals.received - totals.balance,
    transactions: newest.map(([txid, t]) => ({ block: t.height, txid, time: times.get(t.height) ?? null, amountSat: t.amountSat })),
  };
}

// --- Watch-only wallet (litecoind and daemons without an address index) ------------------

const Listed = v.array(
  v.object({
    address: v.optional(v.string()),
    category: v.string(),
    amount: v.number(),
    txid: Txid,
    blockheight: v.optional(Height),
    blocktime: v.optional(v.number()),
    involvesWatchonly: v.optional(v.boolean()),
  }),
);
const Unspent = v.array(v.object({ address: v.optional(v.string()), amount: v.number() }));

/** The platform's watch-only wallet on the node's daemon, addressed as `/wallet/<name>`. */
export const WATCH_WALLET = 'nodekeep-watch';

/**
 * Makes the daemon watch `address`: a blank legacy wallet without private keys, loaded
 * or created once, then `importaddress` (with a rescan when the address may already have
 * history: slow on a long chain, so done once per node). Idempotent.
 */
export async function watchAddress(rpc: BitcoinRpc, address: string, opts: { rescan: boolean; wallet?: string }): Promise<void> {
  const wallet = opts.wallet ?? WATCH_WALLET;
  const loaded = await bitcoinCall(rpc, 'listwallets', [], v.array(v.string()));
  if (!loaded.includes(wallet)) {
    try {
      await bitcoinCall(rpc, 'loadwallet', [wallet], v.unknown());
    } catch (err) {
      // -18: no such wallet yet. createwallet name disable_private_keys blank.
      if (!(err instanceof RpcError) || err.code !== -18) throw err;
      await bitcoinCall(rpc, 'createwallet', [wallet, true, true], v.unknown());
    }
  }
  await bitcoinCall({ ...rpc, wallet }, 'importaddress', [address, 'collateral', opts.rescan], v.unknown());
}

/**
 * Activity of a watched address from the watch-only wallet: balance from `listunspent`
 * (every confirmation count, watch-only included), history from `listtransactions`
 * (receives and sends that involve the address; a send's amount is negative).
 */
export async function watchedActivity(rpc: BitcoinRpc, address: string, opts: { limit?: number; wallet?: string } = {}): Promise<WalletActivity> {
  const w = { ...rpc, wallet: opts.wallet ?? WATCH_WALLET };
  const [unspent, listed] = await Promise.all([
    bitcoinCall(w, 'listunspent', [0, 9_999_999, [address], true], Unspent),
    // label "*", the newest 1,000 entries, include_watchonly
    bitcoinCall(w, 'listtransactions', ['*', 1000, 0, true], Listed),
  ]);
  const balanceSat = unspent.filter((u) => u.address === address).reduce((s, u) => s + jsonCoinsToSat(u.amount), 0);
  const byTx = new Map<string, ActivityTx>();
  let receivedSat = 0;
  for (const t of listed) {
    if (t.category !== 'receive' && t.category !== 'send' && t.category !== 'generate') continue;
    const sat = jsonCoinsToSat(t.amount);
    if (t.category !== 'send' && t.address !== address) continue;
    if (t.category !== 'send') receivedSat += sat;
    const row = byTx.get(t.txid) ?? { block: t.blockheight ?? null, txid: t.txid, time: t.blocktime ?? null, amountSat: 0 };
    row.amountSat += sat;
    byTx.set(t.txid, row);
  }
  const transactions = [...byTx.values()].sort((a, b) => (b.block ?? Infinity) - (a.block ?? Infinity) || (a.txid < b.txid ? -1 : 1)).slice(0, opts.limit ?? 20);
  return { address, balanceSat, receivedSat, sentSat: receivedSat - balanceSat, transactions };
}

// --- The display edge -----------------------------------------------------------------

/** "2026-11-23 12:13:54" (UTC), as the node page shows it. */
const humanTime = (s: number | null) => (s === null ? 'unconfirmed' : new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' '));

/**
 * The node page's `activity` shape: its schema holds plain numbers, so satoshis become
 * coins here, at the edge, and nowhere before (exact below 2^53 satoshis).
 */
export function forDisplay(a: WalletActivity): { sent: number; balance: number; address: string; transactions: Array<{ block: number | null; txid: string; human_time: string; amount: number }> } {
  return {
    sent: Number(satToCoins(a.sentSat)),
    balance: Number(satToCoins(a.balanceSat)),
    address: a.address,
    transactions: a.transactions.map((t) => ({ block: t.block, txid: t.txid, human_time: humanTime(t.time), amount: Number(satToCoins(t.amountSat)) })),
  };
}

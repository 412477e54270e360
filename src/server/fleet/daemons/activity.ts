import * as v from 'valibot';
import { jsonCoinsToSat, satToCoins } from './amounts';
import { bitcoinCall, RpcError, type BitcoinRpc } from './jsonrpc';

/**
 * The collateral address's wallet activity, read from the node's daemon: what it holds,
 * what it sent, its latest transactions. Amounts are integer satoshis; `forDisplay`
 * turns them into the numbers the node page's schema carries.
 */
export type ActivityTx = {
  block: number | null;
  txid: string;
  /** Unix seconds of its block; null while unconfirmed. */ time: number | null;
  amountSat: number;
};
export type WalletActivity = {
  address: string;
  balanceSat: number;
  receivedSat: number;
  sentSat: number;
  transactions: ActivityTx[];
};

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
export async function addressIndexActivity(
  rpc: BitcoinRpc,
  address: string,
  opts: { limit?: number; sinceHeight?: number } = {},
): Promise<WalletActivity> {
  const limit = opts.limit ?? 20;
  const query = { addresses: [address], ...(opts.sinceHeight ? { start: opts.sinceHeight, end: 0x7fffffff } : {}) };
  const [totals, deltas] = await Promise.all([
    bitcoinCall(rpc, 'getaddressbalance', [{ addresses: [address] }], AddressBalance),
    bitcoinCall(rpc, 'getaddressdeltas', [query], Deltas),
  ]);
  const byTx = new Map<string, { height: number; amountSat: number }>();
  for (const d of deltas) {
    if (d.address !== address) continue;
    const t = byTx.get(d.txid) ?? { height: d.height, amountSat: 0 };
    t.amountSat += d.satoshis;
    byTx.set(d.txid, t);
  }
  const newest = [...byTx.entries()]
    .sort((a, b) => b[1].height - a[1].height || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit);
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
    transactions: newest.map(([txid, t]) => ({
      block: t.height,
      txid,
      time: times.get(t.height) ?? null,
      amountSat: t.amountSat,
    })),
  };
}

// --- Watch-only wallet (litecoind and daemons without an address index) ------------------

const Listed = v.array(
  v.object({
    address: v.optional(v.string()),
    category: v.string(),
    amount: v.number(),
    txid: Txid,
    /** Only ION's fork among the old ones says it; the others give confirmations (height = tip − confirmations + 1). */
    blockheight: v.optional(Height),
    confirmations: v.optional(v.number()),
    blocktime: v.optional(v.number()),
    /** The transaction's time (its block's, or when the wallet saw it): where the daemon gives no blocktime. */
    time: v.optional(v.number()),
    involvesWatchonly: v.optional(v.boolean()),
  }),
);
const Unspent = v.array(v.object({ address: v.optional(v.string()), amount: v.number() }));

/** The platform's watch-only wallet on the node's daemon, addressed as `/wallet/<name>`. */
export const WATCH_WALLET = 'nodekeep-watch';
/** The label the watched collateral address carries in that wallet. */
export const WATCH_LABEL = 'collateral';

/** Where watched addresses live: a named wallet, or (null) the only wallet of a daemon without multi-wallet calls. */
export type WatchWallet = string | null;

/** -32601: the daemon has no such call (an older fork). */
const noSuchMethod = (err: unknown) => err instanceof RpcError && err.code === -32601;
/** -18: the named wallet is not loaded (the daemon restarted) or does not exist. */
export const walletNotLoaded = (err: unknown) => err instanceof RpcError && err.code === -18;

const AddressInfo = v.looseObject({ iswatchonly: v.optional(v.boolean()), ismine: v.optional(v.boolean()) });

/**
 * The watch-only wallet, loaded, or created key-less the first time; null (the default
 * wallet) on a daemon without multi-wallet calls, or with `listwallets` but without
 * `loadwallet`/`createwallet` (PIVX, ION).
 */
async function openWatchWallet(rpc: BitcoinRpc, wallet: string): Promise<WatchWallet> {
  let loaded: string[];
  try {
    loaded = await bitcoinCall(rpc, 'listwallets', [], v.array(v.string()));
  } catch (err) {
    if (noSuchMethod(err)) return null;
    throw err;
  }
  if (loaded.includes(wallet)) return wallet;
  try {
    await bitcoinCall(rpc, 'loadwallet', [wallet], v.unknown());
  } catch (err) {
    if (noSuchMethod(err)) return null;
    if (!walletNotLoaded(err)) throw err;
    // -18: no such wallet yet. createwallet name disable_private_keys: a wallet without
    // private keys has no seed either (no `blank` needed, which SIN's 2-parameter createwallet lacks).
    try {
      await bitcoinCall(rpc, 'createwallet', [wallet, true], v.unknown());
    } catch (e) {
      if (noSuchMethod(e)) return null;
      throw e;
    }
  }
  return wallet;
}

/** Does the wallet already watch `address`? (`validateaddress` answered it before `getaddressinfo` existed.) */
async function watches(rpc: BitcoinRpc, address: string): Promise<boolean> {
  let info: v.InferOutput<typeof AddressInfo>;
  try {
    info = await bitcoinCall(rpc, 'getaddressinfo', [address], AddressInfo);
  } catch (err) {
    if (!noSuchMethod(err)) throw err;
    info = await bitcoinCall(rpc, 'validateaddress', [address], AddressInfo);
  }
  return info.iswatchonly === true || info.ismine === true;
}

/**
 * Makes the daemon watch `address`: a blank legacy wallet without private keys, loaded
 * or created once, then `importaddress` unless the wallet already watches it. Only that
 * first import rescans the chain (when `rescan`: slow on a long chain), so the wallet
 * itself remembers that it was done: a wallet lost with its data folder is rescanned
 * again, as it must be. Idempotent. Answers the wallet the reads must go to.
 */
export async function watchAddress(
  rpc: BitcoinRpc,
  address: string,
  opts: { rescan: boolean; wallet?: string },
): Promise<{ wallet: WatchWallet; imported: boolean }> {
  const wallet = await openWatchWallet(rpc, opts.wallet ?? WATCH_WALLET);
  const w = { ...rpc, wallet: wallet ?? undefined };
  if (await watches(w, address)) return { wallet, imported: false };
  await bitcoinCall(w, 'importaddress', [address, WATCH_LABEL, opts.rescan], v.unknown());
  return { wallet, imported: true };
}

const Confirmed = v.nullable(v.looseObject({ confirmations: v.pipe(v.number(), v.integer(), v.minValue(0)) }));
const Mined = v.looseObject({ blockhash: v.optional(v.string()) });
const BlockHeight = v.looseObject({ height: Height });

/**
 * The height of the block that mined an output (where a rescan for its address can
 * start): from `gettxout` while it is unspent (height = blocks − confirmations + 1), else
 * from its transaction's block (`getrawtransaction`, which needs txindex=1 for a mined
 * one). Null when the daemon cannot say.
 */
export async function outputHeight(rpc: BitcoinRpc, txid: string, index: number): Promise<number | null> {
  const out = await bitcoinCall(rpc, 'gettxout', [txid, index, true], Confirmed);
  if (out) {
    const blocks = await bitcoinCall(rpc, 'getblockcount', [], Height);
    // Unconfirmed (in the mempool): nothing mined to rescan yet; the tip is the cheapest start.
    return Math.max(0, Math.min(blocks, blocks - out.confirmations + 1));
  }
  try {
    const tx = await bitcoinCall(rpc, 'getrawtransaction', [txid, 1], Mined);
    return tx.blockhash ? (await bitcoinCall(rpc, 'getblockheader', [tx.blockhash], BlockHeight)).height : null;
  } catch (err) {
    if (err instanceof RpcError && err.code === -5) return null;
    throw err;
  }
}

/**
 * Rescans the watch wallet for an address imported without a rescan: `rescanblockchain`
 * from `fromHeight` (the whole chain when null). A daemon without that call re-imports
 * the address with its full rescan. Slow on a long chain: never inside a status check.
 */
export async function rescanWatched(
  rpc: BitcoinRpc,
  address: string,
  wallet: WatchWallet,
  fromHeight: number | null,
): Promise<void> {
  const w = { ...rpc, wallet: wallet ?? undefined };
  try {
    await bitcoinCall(w, 'rescanblockchain', fromHeight === null ? [] : [fromHeight], v.unknown());
  } catch (err) {
    if (!noSuchMethod(err)) throw err;
    await bitcoinCall(w, 'importaddress', [address, WATCH_LABEL, true], v.unknown());
  }
}

const ScriptPubKey = v.looseObject({ address: v.optional(v.string()), addresses: v.optional(v.array(v.string())) });
const TxOut = v.nullable(v.looseObject({ scriptPubKey: ScriptPubKey }));
const RawTx = v.looseObject({ vout: v.array(v.looseObject({ n: v.number(), scriptPubKey: ScriptPubKey })) });
const addressOf = (s: v.InferOutput<typeof ScriptPubKey>) => s.address ?? s.addresses?.[0] ?? null;

/**
 * The address a collateral output pays (the node's entry: txid and output index), on a
 * daemon that cannot name it itself (no `masternode status`): `gettxout` while the
 * output is unspent, else `getrawtransaction` (which needs txindex=1 for a mined
 * transaction). Null when the daemon does not know the output.
 */
export async function outputAddress(rpc: BitcoinRpc, txid: string, index: number): Promise<string | null> {
  const out = await bitcoinCall(rpc, 'gettxout', [txid, index, true], TxOut);
  if (out) return addressOf(out.scriptPubKey);
  try {
    const tx = await bitcoinCall(rpc, 'getrawtransaction', [txid, 1], RawTx);
    const vout = tx.vout.find((o) => o.n === index);
    return vout ? addressOf(vout.scriptPubKey) : null;
  } catch (err) {
    // -5: no such transaction (spent and not indexed, or never mined here).
    if (err instanceof RpcError && err.code === -5) return null;
    throw err;
  }
}

/**
 * `listtransactions` (label "*", the newest 1,000 entries, include_watchonly). Where its
 * rows carry confirmations but no blockheight (every old fork but ION), also the tip they
 * count from: listed again between two `getblockcount`s until no block came between
 * (three tries; after that at most one block off).
 */
async function listedAtTip(w: BitcoinRpc): Promise<{ listed: v.InferOutput<typeof Listed>; tip: number | null }> {
  const list = () => bitcoinCall(w, 'listtransactions', ['*', 1000, 0, true], Listed);
  const count = () => bitcoinCall(w, 'getblockcount', [], Height);
  let listed = await list();
  if (listed.every((t) => t.blockheight !== undefined || !t.confirmations)) return { listed, tip: null };
  let tip = await count();
  for (let tries = 1; ; tries++) {
    listed = await list();
    const after = await count();
    if (after === tip || tries === 3) return { listed, tip: after };
    tip = after;
  }
}

/** A listed row's block: its blockheight, or the tip less its confirmations; null while unconfirmed. */
const rowHeight = (t: v.InferOutput<typeof Listed>[number], tip: number | null): number | null =>
  t.blockheight ??
  (tip !== null && t.confirmations && t.confirmations > 0 ? Math.max(0, tip - t.confirmations + 1) : null);

/**
 * Activity of a watched address from the watch-only wallet: balance from `listunspent`
 * (every confirmation count, watch-only included), history from `listtransactions`
 * (receives and sends that involve the address; a send's amount is negative).
 */
export async function watchedActivity(
  rpc: BitcoinRpc,
  address: string,
  opts: { limit?: number; wallet?: WatchWallet } = {},
): Promise<WalletActivity> {
  const wallet = opts.wallet === undefined ? WATCH_WALLET : opts.wallet;
  const w = { ...rpc, wallet: wallet ?? undefined };
  const [unspent, { listed, tip }] = await Promise.all([
    // minconf maxconf addresses: three parameters every fork takes (Vitae, Crown, Bulwark
    // take no more; PIVX's 4th is a number). Bitcoin's 4th, include_unsafe, defaults to true.
    bitcoinCall(w, 'listunspent', [0, 9_999_999, [address]], Unspent),
    listedAtTip(w),
  ]);
  const balanceSat = unspent.filter((u) => u.address === address).reduce((s, u) => s + jsonCoinsToSat(u.amount), 0);
  const byTx = new Map<string, ActivityTx>();
  let receivedSat = 0;
  for (const t of listed) {
    if (t.category !== 'receive' && t.category !== 'send' && t.category !== 'generate') continue;
    const sat = jsonCoinsToSat(t.amount);
    if (t.category !== 'send' && t.address !== address) continue;
    if (t.category !== 'send') receivedSat += sat;
    const block = rowHeight(t, tip);
    const row = byTx.get(t.txid) ?? {
      block,
      txid: t.txid,
      time: t.blocktime ?? (block === null ? null : (t.time ?? null)),
      amountSat: 0,
    };
    row.amountSat += sat;
    byTx.set(t.txid, row);
  }
  const transactions = [...byTx.values()]
    .sort((a, b) => (b.block ?? Infinity) - (a.block ?? Infinity) || (a.txid < b.txid ? -1 : 1))
    .slice(0, opts.limit ?? 20);
  return { address, balanceSat, receivedSat, sentSat: receivedSat - balanceSat, transactions };
}

// --- The display edge -----------------------------------------------------------------

export type ShownActivity = {
  sent: number;
  balance: number;
  address: string;
  transactions: Array<{ block: number; txid: string; human_time: string; amount: number }>;
};

/** "2026-11-23 12:13:54" (UTC), as the node page shows it. */
const humanTime = (s: number | null) =>
  s === null ? 'unconfirmed' : new Date(s * 1000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The node page's `activity` shape: its schema holds plain numbers, so satoshis become
 * coins here, at the edge, and nowhere before (exact below 2^53 satoshis).
 */
export function forDisplay(a: WalletActivity): {
  sent: number;
  balance: number;
  address: string;
  transactions: Array<{ block: number | null; txid: string; human_time: string; amount: number }>;
} {
  return {
    sent: Number(satToCoins(a.sentSat)),
    balance: Number(satToCoins(a.balanceSat)),
    address: a.address,
    transactions: a.transactions.map((t) => ({
      block: t.block,
      txid: t.txid,
      human_time: humanTime(t.time),
      amount: Number(satToCoins(t.amountSat)),
    })),
  };
}

/** What the node page keeps: the display shape with only mined transactions (its schema dates every one by its block). */
export function forNodePage(a: WalletActivity): ShownActivity {
  const shown = forDisplay(a);
  return {
    ...shown,
    transactions: shown.transactions.flatMap((t) => (t.block === null ? [] : [{ ...t, block: t.block }])),
  };
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const ADDRESS_INDEX_REPLIES = {
  getaddressbalance: AddressBalance,
  getaddressdeltas: Deltas,
  getblockhash: Txid,
  getblockheader: Header,
};
export const WATCH_WALLET_REPLIES = {
  listwallets: v.array(v.string()),
  getaddressinfo: AddressInfo,
  validateaddress: AddressInfo,
  listunspent: Unspent,
  listtransactions: Listed,
  gettxout: Confirmed,
  getblockcount: Height,
  getrawtransaction: Mined,
};
/** Done without on -32601: a daemon without multi-wallet calls keeps its one wallet. */
export const WATCH_WALLET_OPTIONAL = ['listwallets'];
/** The reader needs one of each group, tried in order (`validateaddress` said what is watched before 0.17). */
export const WATCH_WALLET_ALTERNATIVES = [['getaddressinfo', 'validateaddress']] as const;

import fs from 'node:fs';
import * as v from 'valibot';
import { jsonCoinsToAtomic } from '../../../shared/coin-amount';
import type { RpcEndpoint } from '../../fleet/engine';
import { DaemonError, type Auth } from '../../fleet/daemons/http';
import { bitcoinCall, RpcError } from '../../fleet/daemons/jsonrpc';
import { moneroJsonRpc } from '../../fleet/daemons/monero';

/*
 * Typed adapters to the watch-only daemons the operator runs. Every reply is checked
 * (valibot) before anything reads it: a garbage reply is a DaemonError, never a deposit.
 */

/** A payment to one of our addresses as the chain shows it now. `key`: txid and output (Monero: subaddress index). */
export type ChainPayment = {
  txid: string;
  vout: number;
  address: string;
  /** atomic units */ amount: bigint;
  confirmations: number;
};

export type BitcoinSnapshot = {
  payments: ChainPayment[];
  /** txid:vout of receives in blocks that left the main chain (listsinceblock `removed`). */
  removed: Set<string>;
  /** The block to list from next time. */
  cursor: string;
};

/** A Bitcoin-family daemon's watch-only wallet. */
export interface BitcoinWatchSource {
  /** Creates (or loads) the blank watch-only wallet. */
  ensureWallet(): Promise<void>;
  /** Imports the descriptor's range [0, end) with a rescan from `fromUnix`. */
  importRange(descriptor: string, end: number, fromUnix: number): Promise<void>;
  /** Receives since `cursor` (all when null), keeping those under `targetConfirmations` in the window. */
  listSince(cursor: string | null, targetConfirmations: number): Promise<BitcoinSnapshot>;
}

/** A Monero-family view-only wallet RPC. */
export interface MoneroWatchSource {
  createAddress(label: string): Promise<{ address: string; index: number }>;
  /** Incoming transfers of account 0, confirmed and in the pool. */
  incoming(): Promise<ChainPayment[]>;
}

export type RpcTarget = { endpoint: RpcEndpoint; auth?: () => Auth | undefined; timeoutMs: number };

/** `http://host:port[/prefix]` → where to send calls; throws for anything else. */
export function parseRpcUrl(url: string): RpcEndpoint {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`not a URL: ${url}`);
  }
  if (u.protocol !== 'http:')
    throw new Error('the RPC URL must be http://host:port (keep the daemon on loopback or a private network)');
  if (u.username || u.password)
    throw new Error('give the RPC credentials with --rpc-user/--rpc-password or --rpc-cookie, not in the URL');
  const port = Number(u.port || 80);
  const path = u.pathname.replace(/\/+$/, '');
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port, ...(path ? { path } : {}) };
}

/** A bitcoind-style `.cookie` file (`__cookie__:<password>`), read at each call: the daemon rewrites it at each start. */
export function cookieAuth(file: string): () => Auth {
  return () => {
    const text = fs.readFileSync(file, 'utf8').trim();
    const i = text.indexOf(':');
    if (i < 1) throw new DaemonError(`cookie file ${file} is not user:password`, 'unreachable');
    return { user: text.slice(0, i), password: text.slice(i + 1) };
  };
}

const Hex64 = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));
const Conf = v.pipe(v.number(), v.integer());
const Coins = v.pipe(v.number(), v.finite());
const ImportResult = v.array(v.object({ success: v.boolean(), error: v.optional(v.object({ message: v.string() })) }));
const SinceEntry = v.looseObject({
  category: v.string(),
  txid: Hex64,
  vout: v.pipe(v.number(), v.integer(), v.minValue(0)),
  address: v.optional(v.string()),
  amount: Coins,
  confirmations: Conf,
});
const Since = v.object({
  transactions: v.array(SinceEntry),
  removed: v.optional(v.array(SinceEntry)),
  lastblock: Hex64,
});
const DescriptorInfo = v.object({ descriptor: v.string(), checksum: v.pipe(v.string(), v.regex(/^[a-z0-9]{8}$/)) });

export function bitcoinSource(target: RpcTarget, wallet: string): BitcoinWatchSource {
  const call = <T>(method: string, params: unknown[], schema: v.GenericSchema<unknown, T>, inWallet = true) =>
    bitcoinCall(
      {
        endpoint: target.endpoint,
        auth: target.auth?.(),
        timeoutMs: target.timeoutMs,
        wallet: inWallet ? wallet : undefined,
      },
      method,
      params,
      schema,
    );
  return {
    async ensureWallet() {
      if ((await call('listwallets', [], v.array(v.string()), false)).includes(wallet)) return;
      try {
        await call('loadwallet', [wallet], v.unknown(), false);
      } catch (err) {
        // -18: no such wallet on disk yet. createwallet name disable_private_keys=true blank=true.
        if (!(err instanceof RpcError) || err.code !== -18) throw err;
        await call('createwallet', [wallet, true, true], v.unknown(), false);
      }
    },
    async importRange(descriptor, end, fromUnix) {
      const info = await call('getdescriptorinfo', [descriptor], DescriptorInfo, false);
      const result = await call(
        'importmulti',
        [
          [
            {
              desc: `${descriptor}#${info.checksum}`,
              range: [0, end - 1],
              timestamp: fromUnix,
              watchonly: true,
              label: 'nodekeep-deposit',
            },
          ],
        ],
        ImportResult,
      );
      if (result.length !== 1 || !result[0].success)
        throw new DaemonError(`importmulti: ${result[0]?.error?.message ?? 'not imported'}`, 'rpc-error');
    },
    async listSince(cursor, targetConfirmations) {
      const r = await call('listsinceblock', [cursor ?? '', targetConfirmations, true, true], Since);
      const payments: ChainPayment[] = [];
      for (const t of r.transactions) {
        if (t.category !== 'receive' || !t.address) continue;
        payments.push({
          txid: t.txid,
          vout: t.vout,
          address: t.address,
          amount: jsonCoinsToAtomic(t.amount, 8),
          confirmations: t.confirmations,
        });
      }
      // A watch-only wallet does not own the inputs, so it never learns that an unconfirmed
      // payment was replaced or dropped: it keeps listing it at 0 confirmations. The node's
      // mempool is the truth for those; one not in it is not pending.
      const unconfirmed = [...new Set(payments.filter((p) => p.confirmations === 0).map((p) => p.txid))];
      const gone = new Set<string>();
      for (const txid of unconfirmed) {
        try {
          await call('getmempoolentry', [txid], v.looseObject({}), false);
        } catch (err) {
          // -5: not in the mempool.
          if (err instanceof RpcError && err.code === -5) gone.add(txid);
          else throw err;
        }
      }
      const removed = new Set(
        (r.removed ?? []).filter((t) => t.category === 'receive').map((t) => `${t.txid}:${t.vout}`),
      );
      for (const p of payments) if (gone.has(p.txid)) removed.add(`${p.txid}:${p.vout}`);
      return { payments: payments.filter((p) => !gone.has(p.txid)), removed, cursor: r.lastblock };
    },
  };
}

// monero-wallet-rpc: JSON-RPC 2.0 at /json_rpc.
const Atomic = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const MTransfer = v.looseObject({
  txid: Hex64,
  amount: Atomic,
  confirmations: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  address: v.string(),
  subaddr_index: v.object({
    major: v.pipe(v.number(), v.integer()),
    minor: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  double_spend_seen: v.optional(v.boolean()),
});
const MTransfers = v.object({ in: v.optional(v.array(MTransfer)), pool: v.optional(v.array(MTransfer)) });
const MAddress = v.object({
  address: v.pipe(v.string(), v.minLength(90), v.maxLength(110)),
  address_index: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export class MoneroRpcError extends DaemonError {
  constructor(
    method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${message} (${code})`, 'rpc-error');
  }
}

export function moneroWalletCall<T>(
  target: RpcTarget,
  method: string,
  params: unknown,
  schema: v.GenericSchema<unknown, T>,
): Promise<T> {
  return moneroJsonRpc(
    target.endpoint,
    { auth: target.auth?.(), timeoutMs: target.timeoutMs },
    method,
    params,
    schema,
    (m, e) => new MoneroRpcError(m, e.code, e.message),
  );
}

/** `wallet`: the view-only wallet file the RPC opens when it has none open (after a restart). */
export function moneroSource(target: RpcTarget, wallet: { file: string; password: string } | null): MoneroWatchSource {
  const call = async <T>(method: string, params: unknown, schema: v.GenericSchema<unknown, T>): Promise<T> => {
    try {
      return await moneroWalletCall(target, method, params, schema);
    } catch (err) {
      // -13: no wallet open (the RPC restarted without --wallet-file).
      if (!(err instanceof MoneroRpcError) || err.code !== -13 || !wallet) throw err;
      await moneroWalletCall(target, 'open_wallet', { filename: wallet.file, password: wallet.password }, v.unknown());
      return moneroWalletCall(target, method, params, schema);
    }
  };
  return {
    async createAddress(label) {
      const r = await call('create_address', { account_index: 0, label }, MAddress);
      return { address: r.address, index: r.address_index };
    },
    async incoming() {
      // The wallet RPC scans new blocks and the pool on its own only every 20 s or so: scan now.
      await call('refresh', {}, v.looseObject({ blocks_fetched: v.number() }));
      const r = await call('get_transfers', { in: true, pool: true, account_index: 0 }, MTransfers);
      return [...(r.in ?? []), ...(r.pool ?? [])]
        .filter((t) => t.subaddr_index.major === 0 && !t.double_spend_seen)
        .map((t) => ({
          txid: t.txid,
          vout: t.subaddr_index.minor,
          address: t.address,
          amount: BigInt(t.amount),
          confirmations: t.confirmations ?? 0,
        }));
    },
  };
}

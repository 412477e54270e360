import * as v from 'valibot';
import type { DB } from '../../db/open';
import type { DepositCurrency } from '../../db/schema';
import type { SecretBox } from '../../secrets/box';
import { DaemonError } from '../../fleet/daemons/http';
import { bitcoinCall } from '../../fleet/daemons/jsonrpc';
import { currencyTarget } from './currencies';
import { listCurrencies } from './queries';
import { MoneroRpcError, moneroWalletCall, type RpcTarget } from './sources';

/** One deposit currency's daemon as `nodekeep doctor` found it; `advice` says what to do when it failed. */
export type DepositDaemonCheck = { currency: string; ok: boolean; detail: string; advice?: string };

const ChainInfo = v.looseObject({
  chain: v.string(),
  blocks: v.pipe(v.number(), v.integer()),
  initialblockdownload: v.optional(v.boolean()),
});
const Names = v.array(v.string());
const WalletDir = v.looseObject({ wallets: v.array(v.looseObject({ name: v.string() })) });
const Height = v.looseObject({ height: v.pipe(v.number(), v.integer()) });

/**
 * Every deposit currency's daemon (disabled ones too: they are still watched): its RPC
 * answers with these credentials, and the wallet the watcher reads is there. Reads only:
 * a missing wallet is reported, never created or loaded here.
 */
export async function checkDepositDaemons(
  db: DB,
  box: Pick<SecretBox, 'open'>,
  timeoutMs = 10_000,
): Promise<DepositDaemonCheck[]> {
  const currencies = await listCurrencies(db, { enabledOnly: false });
  return Promise.all(currencies.map((c) => checkOne(box, c, timeoutMs)));
}

async function checkOne(box: Pick<SecretBox, 'open'>, c: DepositCurrency, timeoutMs: number) {
  const currency = `${c.label} (${c.id})`;
  let target: RpcTarget;
  try {
    target = { ...currencyTarget(box, c), timeoutMs };
    target.auth?.();
  } catch (err) {
    return {
      currency,
      ok: false,
      detail: `cannot read its RPC credentials: ${(err as Error).message}`,
      advice: c.rpc_cookie
        ? `let this user read the cookie file ${c.rpc_cookie} (the daemon rewrites it at each start)`
        : 'set SECRETS_KEY (or the data folder) to the one the currency was added with',
    };
  }
  try {
    return { currency, ...(await (c.kind === 'monero' ? monero(target, c) : bitcoin(target, c))) };
  } catch (err) {
    const message = (err as Error).message;
    const refused = /refused the RPC user and password/.test(message);
    return {
      currency,
      ok: false,
      detail: `${c.rpc_url}: ${message}`,
      advice: refused
        ? 'give the daemon the RPC user and password the currency was added with (rpcuser/rpcpassword or rpcauth in its .conf)'
        : err instanceof DaemonError && (err.kind === 'unreachable' || err.kind === 'timeout')
          ? `start the ${c.kind === 'monero' ? 'monero-wallet-rpc' : 'daemon'} that serves ${c.rpc_url} (check its rpcbind and rpcport)`
          : `check that ${c.rpc_url} is the currency's ${c.kind === 'monero' ? 'monero-wallet-rpc' : 'daemon RPC'}`,
    };
  }
}

async function bitcoin(target: RpcTarget, c: DepositCurrency): Promise<Omit<DepositDaemonCheck, 'currency'>> {
  const rpc = { endpoint: target.endpoint, auth: target.auth?.(), timeoutMs: target.timeoutMs };
  const chain = await bitcoinCall(rpc, 'getblockchaininfo', [], ChainInfo);
  const at = `${chain.chain} chain at block ${chain.blocks}${chain.initialblockdownload ? ', still syncing' : ''}`;
  const wallet = c.wallet ?? `nodekeep-${c.id}`;
  if ((await bitcoinCall(rpc, 'listwallets', [], Names)).includes(wallet))
    return { ok: true, detail: `${at}; watch-only wallet ${wallet} loaded` };
  const onDisk = (await bitcoinCall(rpc, 'listwalletdir', [], WalletDir)).wallets.some((w) => w.name === wallet);
  if (onDisk) return { ok: true, detail: `${at}; wallet ${wallet} is on disk, the watcher loads it` };
  // Addresses were handed out and imported into that wallet: a new blank one would not
  // watch them, and payments to them would never be credited.
  if (c.imported_to > 0)
    return {
      ok: false,
      detail: `${at}; wallet ${wallet} is gone, with ${c.next_index} address${c.next_index === 1 ? '' : 'es'} handed out`,
      advice: `restore the wallet ${wallet} into the daemon's wallets folder (or point the currency at the daemon that has it)`,
    };
  return { ok: true, detail: `${at}; the watcher creates wallet ${wallet} at its first pass` };
}

async function monero(target: RpcTarget, c: DepositCurrency): Promise<Omit<DepositDaemonCheck, 'currency'>> {
  try {
    const { height } = await moneroWalletCall(target, 'get_height', {}, Height);
    return { ok: true, detail: `wallet RPC answers, wallet at height ${height}` };
  } catch (err) {
    // -13: no wallet open; the watcher opens the currency's wallet file when it has one.
    if (!(err instanceof MoneroRpcError) || err.code !== -13) throw err;
    if (c.wallet) return { ok: true, detail: `no wallet open: the watcher opens ${c.wallet}` };
    return {
      ok: false,
      detail: 'monero-wallet-rpc has no wallet open',
      advice: 'start monero-wallet-rpc with --wallet-file <the view-only wallet>',
    };
  }
}

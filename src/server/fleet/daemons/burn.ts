import * as v from 'valibot';
import { jsonCoinsToSat } from './amounts';
import { DaemonError } from './http';
import { bitcoinCall, RpcError, type BitcoinRpc } from './jsonrpc';

// `getrawtransaction <txid> true` (a daemon with txindex=1): only what the check reads.
const RawTx = v.object({
  txid: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  vout: v.array(
    v.object({
      value: v.number(),
      n: v.pipe(v.number(), v.integer(), v.minValue(0)),
      scriptPubKey: v.object({
        type: v.string(),
        addresses: v.optional(v.array(v.string())),
        address: v.optional(v.string()),
      }),
    }),
  ),
  blocktime: v.optional(v.number()),
  confirmations: v.optional(v.number()),
});

/** A burn transaction ID is good for one year after its block (spec section 9). */
export const BURN_VALID_S = 365 * 86_400;

export const BURN_MESSAGES = {
  invalid: 'Invalid transaction ID.',
  notFound: 'Burn transaction not found. Check the transaction ID and try again.',
  unconfirmed: 'The burn transaction is not confirmed yet. Please try again in a few minutes.',
  notBurn: 'This transaction does not burn any coins.',
  tooSmall: 'This transaction burns less than required.',
  tooOld: 'This burn transaction is more than 1 year old and can no longer be used.',
  unavailable: 'The burn transaction cannot be checked right now. Please try again later.',
  ok: 'Burn transaction verified.',
} as const;

export type BurnCheck = { ok: boolean; output_id: string | null; message: string };

/**
 * Looks a burn transaction up on the coin's daemon. A burn output is an OP_RETURN
 * (`nulldata`) output carrying value, SIN's `burn_and_data` (a payment to its burn address
 * with data, src/script/standard.cpp), or a payment to one of `burnAddresses` (a coin
 * whose burns go to an unspendable address). The answer's output_id is "<txid>-<n>",
 * the deploy's burn_output_id. The daemon's failures are reported, never thrown.
 */
export async function checkBurn(
  rpc: BitcoinRpc,
  txid: string,
  opts: { burnAddresses?: string[]; minSat?: number; nowS?: number } = {},
): Promise<BurnCheck> {
  const id = txid.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) return { ok: false, output_id: null, message: BURN_MESSAGES.invalid };
  let tx: v.InferOutput<typeof RawTx>;
  try {
    tx = await bitcoinCall(rpc, 'getrawtransaction', [id, true], RawTx);
  } catch (err) {
    // -5: no such transaction (or, without txindex, not in the mempool or a wallet).
    if (err instanceof RpcError && err.code === -5)
      return { ok: false, output_id: null, message: BURN_MESSAGES.notFound };
    if (err instanceof DaemonError) return { ok: false, output_id: null, message: BURN_MESSAGES.unavailable };
    throw err;
  }
  const burnTo = new Set(opts.burnAddresses ?? []);
  const burns = tx.vout.filter((o) => {
    if (o.value <= 0) return false;
    if (o.scriptPubKey.type === 'nulldata' || o.scriptPubKey.type === 'burn_and_data') return true;
    const to = [...(o.scriptPubKey.addresses ?? []), ...(o.scriptPubKey.address ? [o.scriptPubKey.address] : [])];
    return to.some((a) => burnTo.has(a));
  });
  if (burns.length === 0) return { ok: false, output_id: null, message: BURN_MESSAGES.notBurn };
  const burn = burns.reduce((a, b) => (jsonCoinsToSat(b.value) > jsonCoinsToSat(a.value) ? b : a));
  if (opts.minSat !== undefined && jsonCoinsToSat(burn.value) < opts.minSat)
    return { ok: false, output_id: null, message: BURN_MESSAGES.tooSmall };
  if (tx.blocktime === undefined || !tx.confirmations)
    return { ok: false, output_id: null, message: BURN_MESSAGES.unconfirmed };
  const now = opts.nowS ?? Date.now() / 1000;
  if (now - tx.blocktime > BURN_VALID_S) return { ok: false, output_id: null, message: BURN_MESSAGES.tooOld };
  return { ok: true, output_id: `${tx.txid}-${burn.n}`, message: BURN_MESSAGES.ok };
}

/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const BURN_REPLIES = { getrawtransaction: RawTx };

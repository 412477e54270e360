import * as v from 'valibot';
import type { BurnResult } from './access';
import { bitcoinCall, type BitcoinRpc } from './daemons/bitcoin';
import { DaemonError } from './daemons/http';

/**
 * SIN's burn check on the coin's daemon (`getrawtransaction <txid> true`): the burn is the
 * transaction's OP_RETURN (`nulldata`) output carrying value, confirmed, and at most one
 * year old (spec section 9). Its output index is the deploy's `burn_output_id`.
 * The daemon's failures are answered, never thrown.
 */
export const BURN_MESSAGES = {
  invalid: 'Invalid transaction ID.',
  notFound: 'Burn transaction not found. Check the transaction ID and try again.',
  unconfirmed: 'The burn transaction is not confirmed yet. Please try again in a few minutes.',
  notBurn: 'This transaction does not burn any coins.',
  tooOld: 'This burn transaction is more than 1 year old and can no longer be used.',
  unavailable: 'The burn transaction cannot be checked right now. Please try again later.',
} as const;

const BURN_VALID_S = 365 * 86_400;

const RawTx = v.object({
  vout: v.array(v.object({ value: v.number(), n: v.pipe(v.number(), v.integer(), v.minValue(0)), scriptPubKey: v.object({ type: v.string() }) })),
  blocktime: v.optional(v.number()),
  confirmations: v.optional(v.number()),
});

export async function lookUpBurn(rpc: BitcoinRpc, txid: string, nowS = Date.now() / 1000): Promise<BurnResult> {
  const id = txid.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) return { ok: false, message: BURN_MESSAGES.invalid };
  let tx: v.InferOutput<typeof RawTx>;
  try {
    tx = await bitcoinCall(rpc, 'getrawtransaction', [id, true], RawTx);
  } catch (err) {
    if (err instanceof DaemonError && err.kind === 'rpc-error' && /\(-5\)$/.test(err.message)) return { ok: false, message: BURN_MESSAGES.notFound };
    return { ok: false, message: BURN_MESSAGES.unavailable };
  }
  const burns = tx.vout.filter((o) => o.value > 0 && o.scriptPubKey.type === 'nulldata');
  if (burns.length === 0) return { ok: false, message: BURN_MESSAGES.notBurn };
  const burn = burns.reduce((a, b) => (b.value > a.value ? b : a));
  if (tx.blocktime === undefined || !tx.confirmations) return { ok: false, message: BURN_MESSAGES.unconfirmed };
  if (nowS - tx.blocktime > BURN_VALID_S) return { ok: false, message: BURN_MESSAGES.tooOld };
  return { ok: true, output_id: burn.n };
}

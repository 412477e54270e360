import type { Micros } from '../../../shared/money';

/**
 * What `atomic` units are worth at `priceUsd` per coin, in micro-dollars, rounded down
 * (a deposit is never credited a fraction of a micro-dollar it did not bring). The price
 * is taken to 1e-10 USD, so coins priced below a cent keep their precision.
 */
export function atomicToMicros(atomic: bigint, decimals: number, priceUsd: number): Micros {
  if (!Number.isFinite(priceUsd) || priceUsd <= 0) throw new RangeError(`no usable price: ${priceUsd}`);
  const price = BigInt(Math.round(priceUsd * 1e10));
  const micros = (atomic * price * 1_000_000n) / (10n ** BigInt(decimals) * 10_000_000_000n);
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('deposit value out of range');
  return Number(micros);
}

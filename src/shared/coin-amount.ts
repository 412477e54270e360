/**
 * The one converter between coin amounts and integer atomic units (satoshis for 8
 * decimals), exact in bigint: deposits (billing/crypto) and daemon replies
 * (fleet/daemons) both go through it.
 */

/** Decimal text ("1000", "-12.5", "0.00000001") → atomic units; more than `decimals` places or a non-decimal is refused. */
export function parseCoins(text: string, decimals: number): bigint {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[3] ?? '').length > decimals) throw new Error(`not a coin amount: ${JSON.stringify(text)}`);
  const atomic = BigInt(m[2]) * 10n ** BigInt(decimals) + BigInt((m[3] ?? '').padEnd(decimals, '0') || '0');
  return m[1] ? -atomic : atomic;
}

/**
 * A JSON number of coins → atomic units. The number is the double nearest to an amount
 * with at most `decimals` places; toFixed recovers that amount exactly while it has at
 * most 15 significant digits.
 */
export function jsonCoinsToAtomic(value: number, decimals: number): bigint {
  if (!Number.isFinite(value)) throw new Error(`not a coin amount: ${value}`);
  return parseCoins(value.toFixed(decimals), decimals);
}

/** Atomic units → exact decimal text in coins, without trailing zeros ("12.5", "-0.00000001"). */
export function formatCoins(atomic: bigint, decimals: number): string {
  const neg = atomic < 0n;
  const a = neg ? -atomic : atomic;
  const base = 10n ** BigInt(decimals);
  const frac = (a % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${a / base}${frac ? `.${frac}` : ''}`;
}

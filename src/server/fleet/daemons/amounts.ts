/**
 * Coin amounts as integer satoshis (1e-8 coin). Daemons send amounts as JSON numbers in
 * coins (`"amount": 12.5`); they are turned into satoshis once, here, and only the
 * display edge turns them back into numbers.
 */

/** "1000", "12.5", "0.00000001" → satoshis; more than 8 decimals or a non-decimal is refused. */
export function coinsToSat(text: string): number {
  const m = /^(-)?(\d{1,16})(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!m) throw new Error(`not a coin amount: ${JSON.stringify(text)}`);
  const sat = Number(m[2]) * 1e8 + Number((m[3] ?? '').padEnd(8, '0'));
  if (!Number.isSafeInteger(sat)) throw new Error(`coin amount too large: ${text}`);
  return m[1] ? -sat : sat;
}

/**
 * A daemon's JSON number of coins → satoshis. The number is the double nearest to an
 * amount with at most 8 decimals; toFixed(8) recovers that amount exactly while it has
 * at most 15 significant digits (below 10 million coins), and stays within a satoshi up
 * to 2^53 satoshis (about 90 million coins).
 */
export function jsonCoinsToSat(value: number): number {
  if (!Number.isFinite(value)) throw new Error(`not a coin amount: ${value}`);
  return coinsToSat(value.toFixed(8));
}

/** Satoshis → exact decimal text in coins, without trailing zeros ("12.5"). */
export function satToCoins(sat: number): string {
  const neg = sat < 0;
  const abs = Math.abs(sat);
  const whole = Math.floor(abs / 1e8);
  const frac = String(abs % 1e8)
    .padStart(8, '0')
    .replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

import { formatCoins, jsonCoinsToAtomic, parseCoins } from '../../../shared/coin-amount';

/**
 * Coin amounts as integer satoshis (1e-8 coin). Daemons send amounts as JSON numbers in
 * coins (`"amount": 12.5`); they are turned into satoshis once, here (through the one
 * converter, shared/coin-amount.ts), and only the display edge turns them back into numbers.
 */
const SAT_DECIMALS = 8;

/** Satoshis as a JS number: every amount a daemon reports fits (2^53 satoshis is 90 million coins). */
function satNumber(sat: bigint, text: string): number {
  const n = Number(sat);
  if (!Number.isSafeInteger(n)) throw new Error(`coin amount too large: ${text}`);
  return n;
}

/** "1000", "12.5", "0.00000001" → satoshis; more than 8 decimals or a non-decimal is refused. */
export function coinsToSat(text: string): number {
  return satNumber(parseCoins(text, SAT_DECIMALS), text);
}

/**
 * A daemon's JSON number of coins → satoshis: exact below 10 million coins, within a
 * satoshi up to 2^53 satoshis (jsonCoinsToAtomic says why).
 */
export function jsonCoinsToSat(value: number): number {
  return satNumber(jsonCoinsToAtomic(value, SAT_DECIMALS), value.toFixed(SAT_DECIMALS));
}

/** Satoshis → exact decimal text in coins, without trailing zeros ("12.5"). */
export function satToCoins(sat: number): string {
  return formatCoins(BigInt(sat), SAT_DECIMALS);
}

import { formatUsdExact } from '../../shared/money';

function signed(text: string): string {
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
}

/**
 * Micro-dollars as a balance or total reads: cents, rounded half away from zero
 * ("$0.27" for 269,368 µUSD). Six decimals on a balance tell an operator nothing.
 */
export function usd(micros: number): string {
  const cents = Math.sign(micros) * Math.round(Math.abs(micros) / 10_000);
  return signed(formatUsdExact(cents * 10_000).replace(/(\.\d\d)\d*$/, '$1'));
}

/**
 * Micro-dollars exactly ("$0.063", "$0.269368"), for per-day prices and single
 * ledger entries, where rounding would misstate what was charged.
 */
export function usdExact(micros: number): string {
  return signed(formatUsdExact(micros));
}

/** "2026-11-23 14:05:09 UTC" from an ISO time. */
export function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** "45 s", "12 min", "3 h". */
export function age(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

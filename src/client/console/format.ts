import { formatUsdExact } from '../../shared/money';

/** Micro-dollars as the console shows them: "$12.50" (exact, at least two decimals). */
export function usd(micros: number): string {
  const text = formatUsdExact(micros);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
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

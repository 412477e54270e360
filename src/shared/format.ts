/**
 * Number formatting of the spec (platform-and-account.md section 9), shared by the
 * server (display objects) and the client (what people read):
 * - US grouping ("1,234,567");
 * - fractional values, and whole values below 1000, get two decimals ("12.00", "1,234.50");
 * - prices get two decimals, six below 0.01;
 * - balances and fees as money: two decimals.
 */
const us = (min: number, max: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
const fmt2 = us(2, 2);
const fmt0 = us(0, 0);
const fmt6 = us(6, 6);
const fmt3 = us(3, 3);

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return '--';
  return Number.isInteger(n) && Math.abs(n) >= 1000 ? fmt0.format(n) : fmt2.format(n);
}

export function formatPrice(n: number): string {
  if (!Number.isFinite(n)) return '--';
  return n !== 0 && Math.abs(n) < 0.01 ? fmt6.format(n) : fmt2.format(n);
}

/** Balance as shown in the top bar and settings: US grouping, two decimals. */
export function formatBalance(usd: number): string {
  return fmt2.format(usd);
}

/** Hosting prices per day are shown to three decimals ($0.063). */
export function formatDailyPrice(usd: number): string {
  return fmt3.format(usd);
}

export function formatPercent(n: number): string {
  return Number.isFinite(n) ? `${fmt2.format(n)}%` : '--';
}

/**
 * When something valid to a day stops: an expiry at 00:00 UTC ends the day before, so a
 * gift code made "valid through 2027-01-31" reads "through 2027-01-31 UTC", not "until
 * 2027-02-01 00:00" (a day more, to the eye). Any other moment: "until 2027-02-01 12:30 UTC".
 */
export function expiryText(at: string | number): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  const iso = new Date(ms).toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return `through ${new Date(ms - 86_400_000).toISOString().slice(0, 10)} UTC`;
  return `until ${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

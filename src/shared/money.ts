/**
 * Money is kept as integer micro-dollars (1 USD = 1,000,000 µUSD): the smallest
 * daily price in the spec ($0.063) and any fraction of it stay exact. Amounts are
 * JS safe integers (up to about 9 billion USD), never fractional; floats only
 * appear at the edge, when a value is shown or sent as the spec's `balance` number.
 */
export const MICROS_PER_USD = 1_000_000;

/** Integer micro-dollars. */
export type Micros = number;

export function assertMicros(n: number): Micros {
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount must be a safe integer of micro-dollars, got ${n}`);
  return n;
}

/** Parse a decimal USD string ("12.5", "+0.063", "-3") into micro-dollars, exactly. */
export function parseUsd(text: string): Micros {
  const m = /^([+-])?(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) throw new RangeError(`not a USD amount with at most 6 decimals: ${JSON.stringify(text)}`);
  const [, sign, whole, frac = ''] = m;
  const micros = Number(whole) * MICROS_PER_USD + Number(frac.padEnd(6, '0'));
  return sign === '-' ? -micros : micros;
}

/** Exact decimal text of an amount, trimmed to at least two decimals. */
export function formatUsdExact(micros: Micros): string {
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_USD);
  let frac = String(abs % MICROS_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '');
  if (frac.length < 2) frac = frac.padEnd(2, '0');
  return `${micros < 0 ? '-' : ''}${whole}.${frac}`;
}

/** The exact amount as customers read it: US grouping, at least two decimals ("1,234.50", "0.063"). */
export function formatUsdGrouped(micros: Micros): string {
  const [whole, frac] = formatUsdExact(micros).split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${frac}`;
}

/** The spec's `balance` number: dollars rounded half away from zero to cents. */
export function toUsdNumber(micros: Micros): number {
  const cents = Math.sign(micros) * Math.round(Math.abs(micros) / 10_000);
  return cents / 100;
}

/** Dollars with micro-dollar precision kept, for prices such as $0.063/day that must not round to cents. */
export function microsToUsd(micros: Micros): number {
  return micros / MICROS_PER_USD;
}

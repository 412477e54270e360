import { formatBalance, formatDailyPrice, formatNumber, formatPercent, formatPrice } from '../../shared/format';
import type { DisplayValue } from '../../shared/schemas/coins';

/**
 * Turns the server's display objects (and the other figures of the coin pages) into
 * text. The number rules themselves live in src/shared/format.ts, so the server's
 * tables and these pages can never disagree; this file only picks the rule and adds
 * prefix and suffix.
 */

/** What a missing figure reads as (spec: worth "or --"). */
export const MISSING = '--';

/** The subset of a display object the text depends on; statistics have the same fields. */
export type Formattable = Pick<DisplayValue, 'value' | 'round' | 'prefix' | 'suffix' | 'format'>;

/**
 * A whole count (nodes, projects). formatNumber's two-decimal rule is for amounts;
 * "3.00 nodes" would read as a fraction, so counts (round 0) stay whole and only
 * borrow formatNumber's grouping from 1000 up.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return MISSING;
  const whole = Math.round(n);
  return Math.abs(whole) >= 1000 ? formatNumber(whole) : String(whole);
}

/** "$" + two decimals with US grouping: monthly fees and hosting costs (spec: "two decimals"). */
export function formatUsd2(n: number): string {
  return Number.isFinite(n) ? `$${formatBalance(n)}` : MISSING;
}

/** The number part of a display object, by its format. */
function numberText(d: Formattable, value: number): string {
  switch (d.format) {
    case 'price':
      return formatPrice(value);
    case 'percent':
      return formatPercent(value);
    case 'usd':
      // Hosting prices per day come with round 3 and are shown to three decimals.
      return d.round === 3 ? formatDailyPrice(value) : formatNumber(value);
    case 'number':
      return d.round === 0 ? formatCount(value) : formatNumber(value);
  }
}

/**
 * The text of a display object: prefix + number + suffix, "--" when there is no value.
 * formatPercent already ends in "%", and percent objects also carry "%" as their
 * suffix; it is written once.
 */
export function displayText(d: Formattable): string {
  if (d.value === null || !Number.isFinite(d.value)) return MISSING;
  const suffix = d.format === 'percent' && d.suffix.startsWith('%') ? d.suffix.slice(1) : d.suffix;
  return `${d.prefix}${numberText(d, d.value)}${suffix}`;
}

/** CSS classes of a display object: its colour and, for the figure to notice, bold. */
export function displayClass(d: Pick<DisplayValue, 'color' | 'mustsee'>): string {
  const classes = ['figure'];
  if (d.color === 'green') classes.push('text-green');
  if (d.color === 'red') classes.push('text-red');
  if (d.mustsee) classes.push('text-strong');
  return classes.join(' ');
}

/** A statistic of the coin page: text values as given, numbers by their display format. */
export function statisticText(s: {
  value: number | string | null;
  format: Formattable['format'] | 'text';
  round: number;
  prefix: string;
  suffix: string;
}): string {
  if (s.value === null || s.value === '') return MISSING;
  if (s.format === 'text' || typeof s.value === 'string') return `${s.prefix}${s.value}${s.suffix}`;
  return displayText({ ...s, value: s.value, format: s.format });
}

/** A 24 h change in percent, with the colour class of its sign. */
export function changeClass(pct: number): string {
  return pct > 0 ? 'text-green' : pct < 0 ? 'text-red' : '';
}

/**
 * Exchange pairs longer than 15 characters are cut to 5 characters per side
 * ("ABCDEFGHIJ/KLMNOPQRST" → "ABCDE…/KLMNO…"); the full pair stays in a tooltip.
 */
export function shortPair(pair: string): string {
  if (pair.length <= 15) return pair;
  const cut = (side: string) => (side.length > 5 ? `${side.slice(0, 5)}…` : side);
  const slash = pair.indexOf('/');
  if (slash < 0) return cut(pair);
  return `${cut(pair.slice(0, slash))}/${cut(pair.slice(slash + 1))}`;
}

/**
 * Reading the income calculator's fields. Each returns a number or a message for the
 * field; a message means the results show "--" (never NaN).
 */

export const MAX_NODES = 1000;

export type Parsed = { ok: true; value: number; note?: string } | { ok: false; message: string };

/** A plain decimal number as people type it: digits, one optional point, nothing else ("1e3", "0x10" and "1,5" are refused). */
const DECIMAL = /^\d+(\.\d*)?$|^\.\d+$/;

function decimal(text: string): number | null {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : null;
}

/** Number of nodes: a whole number from 1; more than 1000 counts as 1000. */
export function parseNodes(text: string): Parsed {
  const t = text.trim();
  if (t === '') return { ok: false, message: 'Enter the number of nodes.' };
  if (t.startsWith('-')) return { ok: false, message: 'The number of nodes cannot be negative.' };
  if (!/^\d+$/.test(t)) return { ok: false, message: 'Enter a whole number of nodes, such as 3.' };
  const n = Number(t);
  if (n < 1) return { ok: false, message: 'Enter at least 1 node.' };
  if (n > MAX_NODES) return { ok: true, value: MAX_NODES, note: `At most ${MAX_NODES} nodes: showing ${MAX_NODES}.` };
  return { ok: true, value: n };
}

/** A price in USD or an ROI in percent: a number from 0. */
export function parseAmount(text: string, what: 'price' | 'ROI'): Parsed {
  const t = text.trim();
  if (t === '') return { ok: false, message: `Enter the ${what}.` };
  if (t.startsWith('-')) return { ok: false, message: `The ${what} cannot be negative.` };
  const n = decimal(t);
  if (n === null || !Number.isFinite(n))
    return { ok: false, message: `Enter the ${what} as a number, such as ${what === 'price' ? '12.50' : '8.5'}.` };
  return { ok: true, value: n };
}

/**
 * The text a field starts with for an exact default (price 40.68398366519968 →
 * "40.683984"): short enough to read, while the calculator keeps using the exact
 * value until the field is edited.
 */
export function defaultText(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '';
  const text = String(Number(n.toPrecision(8)));
  // Below 1e-7 JavaScript writes "1.5e-8", which the field itself would refuse.
  return text.includes('e') ? n.toFixed(12).replace(/0+$/, '') : text;
}

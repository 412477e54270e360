/**
 * UTC days and the amounts charged for them (pure; billing/daily-charge.ts and
 * billing/initial-charge.ts write them). A day is its ISO date, 'YYYY-MM-DD'.
 */
import type { Micros } from '../../shared/money';

export const DAY_MS = 86_400_000;

/** The UTC day an instant falls on. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Midnight UTC at the start of `day` (epoch ms). */
export function dayStart(day: string): number {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(ms)) throw new RangeError(`not a day: ${JSON.stringify(day)}`);
  return ms;
}

export const nextDay = (day: string): string => dayOf(dayStart(day) + DAY_MS);

/**
 * The Initial Charge of a node created at `createdAt` for the rest of that UTC day:
 * its daily price times the share of the day left, rounded down to the micro-dollar
 * (src/server/billing/README.md). In BigInt: price x ms exceeds 2^53 from ~$104/day.
 */
export function initialChargeAmount(dailyPrice: Micros, createdAt: number): Micros {
  const left = dayStart(dayOf(createdAt)) + DAY_MS - createdAt;
  return Number((BigInt(dailyPrice) * BigInt(left)) / BigInt(DAY_MS));
}

export const initialChargeKey = (nodeId: number) => `initial-charge:${nodeId}`;

/** "$0.34" rounded up to the cent: what a customer must have at least (never understated). */
export const usdCeil = (micros: Micros) => `$${(Math.ceil(micros / 10_000) / 100).toFixed(2)}`;

/**
 * The runway: how long the balance pays the nodes' daily fees (balance ÷ daily fees),
 * in whole hours, rounded down so it never promises more than the balance pays. Shown in
 * the top bar, on Billing and Portfolio, and in the low-balance reminder.
 */
import { counted } from './english';

/** Reminders and the banner start under this many days of fees (spec: "reminders start 3 days before"). */
export const LOW_RUNWAY_DAYS = 3;

/** Whole hours of fees the balance pays; null when no node is charged (nothing runs out). */
export function runwayHours(balanceMicros: number, dailyMicros: number): number | null {
  if (dailyMicros <= 0) return null;
  return Math.floor((Math.max(0, balanceMicros) * 24) / dailyMicros);
}

/** Under LOW_RUNWAY_DAYS days of fees left (never when nothing is charged). */
export function isLowRunway(balanceMicros: number, dailyMicros: number): boolean {
  return dailyMicros > 0 && balanceMicros < LOW_RUNWAY_DAYS * dailyMicros;
}

/** "2 days 5 hours", "1 day", "7 hours", "less than an hour". */
export function runwayText(hours: number): string {
  if (hours < 1) return 'less than an hour';
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  if (!days) return counted(rest, 'hour');
  return rest ? `${counted(days, 'day')} ${counted(rest, 'hour')}` : counted(days, 'day');
}

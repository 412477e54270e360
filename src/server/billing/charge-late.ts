import type { DB } from '../db/open';
import { operatorIds } from '../auth/users';
import type { AppDeps } from '../rpc/context';
import { afterRaise, raise } from '../notifications/raise';
import { dayOf, dayStart, nextDay } from './charge-days';
import { firstOpenDay, lateAlertSent, recordLateAlert } from './charge-queries';

/** A day's charge must be completed this long after 00:00 UTC, or it is late. */
export const CHARGE_DEADLINE_MS = 60 * 60_000;

/**
 * The day whose charge is late, or null: the next day to charge (the one after the last
 * completed, as the charge goes day by day) is before today, or is today past 01:00 UTC.
 * A stuck day blocks every later one, so this names the stuck day.
 */
export async function lateDay(db: DB, now = Date.now()): Promise<string | null> {
  const today = dayOf(now);
  const { afterCompleted, oldestOpen } = await firstOpenDay(db);
  const next = afterCompleted ? nextDay(afterCompleted) : (oldestOpen ?? today);
  if (next > today) return null;
  if (next === today && now - dayStart(today) < CHARGE_DEADLINE_MS) return null;
  return next;
}

/**
 * The charge days that are late (the stuck day through yesterday, and today once past its
 * deadline): how many, and the first. What the console's overview counts.
 */
export async function stuckChargeDays(db: DB, now = Date.now()): Promise<{ count: number; first: string | null }> {
  const first = await lateDay(db, now);
  if (first === null) return { count: 0, first };
  const today = dayOf(now);
  const last = now - dayStart(today) >= CHARGE_DEADLINE_MS ? today : dayOf(dayStart(today) - 1);
  let count = 0;
  for (let d = first; d <= last; d = nextDay(d)) count++;
  return { count: Math.max(1, count), first };
}

/** Why the daily charge is late, or null (what /readyz and the console overview show). */
export async function lateChargeDay(db: DB, now = Date.now()): Promise<string | null> {
  const day = await lateDay(db, now);
  return day === null ? null : `daily charge for ${day} not completed`;
}

/**
 * After a run of the daily charge: when the day is late, tells the operators once per day
 * (a `charge_late_alerts` row, so also once across restarts). `reason`: the run's error, if
 * it failed.
 */
export async function alertLateChargeDay(
  deps: Pick<AppDeps, 'db' | 'hub' | 'mail'>,
  now: number,
  reason: string | null,
): Promise<boolean> {
  const day = await lateDay(deps.db, now);
  // Read first: while a day is late this runs every minute, and a write would be one too many.
  if (day === null || (await lateAlertSent(deps.db, day))) return false;
  const alerted = await deps.db.transaction().execute(async (trx) => {
    const operators = await operatorIds(trx);
    // No operator yet: nobody to tell, and the day stays unannounced until there is one.
    if (operators.length === 0 || !(await recordLateAlert(trx, day, now))) return false;
    const why = reason ? `the last run failed (${reason}).` : 'the last run ended with the day still open.';
    for (const op of operators) await raise(trx, op, 'daily_charge_late', { day, reason: why });
    return true;
  });
  if (alerted) afterRaise(deps);
  return alerted;
}

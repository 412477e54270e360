import type { DB } from '../db/open';
import { operatorIds } from '../auth/users';
import type { AppDeps } from '../rpc/context';
import { afterRaise, raise } from '../notifications/raise';
import { dayOf, dayStart } from './charge-days';
import { chargeDayCompleted, recordLateAlert } from './charge-queries';

/** A day's charge must be completed this long after 00:00 UTC, or it is late. */
export const CHARGE_DEADLINE_MS = 60 * 60_000;

/**
 * Why the daily charge is late, or null: past 01:00 UTC and today's charge day not
 * completed. A stuck day blocks every later one (the charge goes day by day), so this is
 * what /readyz and the console overview show.
 */
export async function lateChargeDay(db: DB, now = Date.now()): Promise<string | null> {
  const today = dayOf(now);
  if (now - dayStart(today) < CHARGE_DEADLINE_MS) return null;
  return (await chargeDayCompleted(db, today)) ? null : `daily charge for ${today} not completed`;
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
  if (!(await lateChargeDay(deps.db, now))) return false;
  const day = dayOf(now);
  const alerted = await deps.db.transaction().execute(async (trx) => {
    if (!(await recordLateAlert(trx, day, now))) return false;
    const why = reason ? `the last run failed (${reason}).` : 'the last run ended with the day still open.';
    for (const op of await operatorIds(trx)) await raise(trx, op, 'daily_charge_late', { day, reason: why });
    return true;
  });
  if (alerted) afterRaise(deps);
  return alerted;
}

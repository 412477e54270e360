import type { DB } from '../db/open';
import { raise } from '../notifications/raise';
import { lastUserId } from '../auth/users';
import { claimReminder, lowBalances } from './charge-queries';

/** Reminders start this many days of fees before a balance runs out (spec: 3). */
export const REMIND_DAYS = 3;
/** User ids per read (and per transaction of reminders). */
const USERS_PER_READ = 1000;

/**
 * Tells each user whose balance covers fewer than REMIND_DAYS days of their nodes' fees,
 * at most once per UTC day (a row per user and day claims it, in the raise's transaction).
 */
export async function remindLowBalances(
  deps: { db: DB; afterChunk?(destroyed: boolean): void },
  day: string,
  now: number,
  signal?: AbortSignal,
): Promise<number> {
  let reminded = 0;
  const last = await lastUserId(deps.db);
  for (let after = 0; after < last; after += USERS_PER_READ) {
    signal?.throwIfAborted();
    const low = await lowBalances(deps.db, REMIND_DAYS, after, after + USERS_PER_READ);
    if (low.length) {
      const n = await deps.db.transaction().execute(async (trx) => {
        let raised = 0;
        for (const u of low) {
          if (!(await claimReminder(trx, u.user_id, day, now))) continue;
          const balance = Math.max(0, u.balance);
          await raise(trx, u.user_id, 'low_balance', {
            balance_micros: balance,
            days_left: Math.floor(balance / u.daily),
          });
          raised++;
        }
        return raised;
      });
      if (n) deps.afterChunk?.(false);
      reminded += n;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return reminded;
}

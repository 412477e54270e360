import type { DB } from '../db/open';
import { raise } from '../notifications/raise';
import { claimReminder, lowBalances } from './charge-queries';

/** Reminders start this many days of fees before a balance runs out (spec: 3). */
export const REMIND_DAYS = 3;
const USERS_PER_TX = 200;

/**
 * Tells each user whose balance covers fewer than REMIND_DAYS days of their nodes' fees,
 * at most once per UTC day (a row per user and day claims it, in the raise's transaction).
 */
export async function remindLowBalances(deps: { db: DB; afterChunk?(destroyed: boolean): void }, day: string, now: number, signal?: AbortSignal): Promise<number> {
  let after = 0;
  let reminded = 0;
  for (;;) {
    signal?.throwIfAborted();
    const low = await lowBalances(deps.db, REMIND_DAYS, after, USERS_PER_TX);
    if (!low.length) return reminded;
    reminded += await deps.db.transaction().execute(async (trx) => {
      let n = 0;
      for (const u of low) {
        if (!(await claimReminder(trx, u.user_id, day, now))) continue;
        const balance = Math.max(0, u.balance);
        await raise(trx, u.user_id, 'low_balance', { balance_micros: balance, days_left: Math.floor(balance / u.daily) });
        n++;
      }
      return n;
    });
    if (reminded) deps.afterChunk?.(false);
    after = low[low.length - 1].user_id;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

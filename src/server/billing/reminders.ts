import type { DB } from '../db/open';
import { LOW_RUNWAY_DAYS } from '../../shared/runway';
import { lastUserId } from '../auth/users';
import { lowBalances } from './charge-queries';
import { remindIfLow } from './runway';

/** User ids per read (and per transaction of reminders). */
const USERS_PER_READ = 1000;

/**
 * After a day's charges: tells each user whose balance covers fewer than LOW_RUNWAY_DAYS
 * days of their nodes' fees (`remindIfLow`: at most once per UTC day, and which nodes go
 * at the next 00:00 UTC when the balance does not cover it).
 */
export async function remindLowBalances(
  deps: { db: DB; afterChunk?(destroyed: boolean): void },
  now: number,
  signal?: AbortSignal,
): Promise<number> {
  let reminded = 0;
  const last = await lastUserId(deps.db);
  for (let after = 0; after < last; after += USERS_PER_READ) {
    signal?.throwIfAborted();
    const low = await lowBalances(deps.db, LOW_RUNWAY_DAYS, after, after + USERS_PER_READ);
    if (low.length) {
      const n = await deps.db.transaction().execute(async (trx) => {
        let raised = 0;
        for (const u of low) if (await remindIfLow(trx, u.user_id, now)) raised++;
        return raised;
      });
      if (n) deps.afterChunk?.(false);
      reminded += n;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return reminded;
}

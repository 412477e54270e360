import type { AppDeps } from '../rpc/context';
import type { JobRunner } from '../jobs/runner';
import { afterRaise } from '../notifications/raise';
import { payReferralBonus } from './bonus';
import { dueReferralBonuses } from './queries';

/** Bonuses paid per read: each is its own short transaction. */
const BATCH = 200;

/**
 * Pays every pending bonus whose 14 days are over at `now`, each in its own short
 * transaction (a bonus cancelled meanwhile is skipped: paying needs it pending).
 * Returns how many were paid.
 */
export async function matureReferralBonuses(
  deps: Pick<AppDeps, 'db' | 'hub' | 'mail'>,
  now = Date.now(),
  signal?: AbortSignal,
): Promise<number> {
  let paid = 0;
  for (;;) {
    const due = await dueReferralBonuses(deps.db, now, BATCH);
    for (const b of due) {
      signal?.throwIfAborted();
      if (await deps.db.transaction().execute((trx) => payReferralBonus(trx, b.id))) paid += 1;
    }
    if (due.length < BATCH) break;
  }
  if (paid) afterRaise(deps);
  return paid;
}

/** The recurring job `referrals.mature`: at start and every ten minutes. */
export function scheduleReferralBonuses(jobs: JobRunner, deps: Pick<AppDeps, 'db' | 'hub' | 'mail'>): void {
  jobs.every('referrals.mature', {
    everyMs: 10 * 60_000,
    atStart: true,
    deadlineMs: 5 * 60_000,
    run: (signal) => matureReferralBonuses(deps, Date.now(), signal).then(() => {}),
  });
}

import type { ConsoleOverview } from '../../shared/schemas/console';
import { stuckChargeDays } from '../billing/charge-late';
import { openDebtTotals } from '../billing/stats';
import type { DB } from '../db/open';
import { countFailedJobs, listFailedJobs } from '../jobs/queue';
import { findMail } from '../mail/outbox';
import { listHosts } from '../nodes/read';
import { notificationJobOwner } from '../notifications/job-owner';
import { supportUnread } from '../support/service';

/** How many failed jobs the overview names one by one (the Fleet page lists them all). */
const NEWEST_FAILED = 5;

/** What needs the operator, each figure read from its own domain's exported functions. */
export async function attentionFigures(db: DB, now: number): Promise<ConsoleOverview['attention']> {
  const [failedCount, failed, support, debts, chargeDays, hosts] = await Promise.all([
    countFailedJobs(db),
    listFailedJobs(db, NEWEST_FAILED),
    supportUnread(db),
    openDebtTotals(db),
    stuckChargeDays(db, now),
    listHosts(db),
  ]);
  return {
    failed_jobs: {
      count: failedCount,
      newest: await Promise.all(
        failed.map(async (j) => ({
          id: j.id,
          name: j.name,
          whose: await jobOwner(db, j.name, j.payload),
          reason: j.last_error,
          failed_at: new Date(j.updated_at).toISOString(),
        })),
      ),
    },
    support_unread: support,
    debts: { count: debts.count, owed_micros: debts.owed },
    charge_days_stuck: chargeDays,
    hosts_low_disk: hosts
      .filter((h) => h.disk_low_at !== null && h.state !== 'gone')
      .map((h) => ({ name: h.name, free_bytes: h.disk_free_bytes })),
  };
}

/** Whose a failed job is: a customer's delivery names the owner and where it went; the rest are the platform's. */
async function jobOwner(db: DB, name: string, payloadText: string): Promise<string | null> {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return null;
  }
  if (name === 'mail.send') {
    const id = (payload as { mail_id?: unknown }).mail_id;
    const mail = typeof id === 'number' ? await findMail(db, id) : undefined;
    return mail ? `mail to ${mail.to_addr}` : null;
  }
  return notificationJobOwner(db, name, payload);
}

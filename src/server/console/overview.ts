import type { ConsoleOverview } from '../../shared/schemas/console';
import { pendingDepositTotals, revenueByDay } from '../billing/stats';
import { PLATFORM } from '../billing/ledger';
import type { DB } from '../db/open';
import {
  deploysSince,
  hostedAt,
  hostUsage,
  listHosts,
  monitorCheckSpread,
  nodesByStatus,
  unplacedCounts,
} from '../nodes/read';
import { mailBacklog } from '../mail/outbox';
import { lateChargeDay } from '../billing/charge-late';
import { attentionFigures } from './attention';

const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 30;

/** The console's Overview: read from each domain's own queries, nothing written. */
export async function consoleOverview(
  db: DB,
  now = Date.now(),
  failingJobs: ConsoleOverview['failing_jobs'] = [],
): Promise<ConsoleOverview> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const d = new Date(today);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const historyStart = today - (HISTORY_DAYS - 1) * DAY_MS;
  const days = Array.from({ length: HISTORY_DAYS }, (_, i) => historyStart + i * DAY_MS);

  const [nodes, deploys, hosts, usage, unplaced, monitor, revenue, deposits, mail, hosted, chargeLate, attention] =
    await Promise.all([
      nodesByStatus(db),
      deploysSince(db, now - DAY_MS),
      listHosts(db),
      hostUsage(db),
      unplacedCounts(db),
      monitorCheckSpread(db),
      revenueByDay(db, PLATFORM.revenue, Math.min(monthStart, historyStart), today + DAY_MS),
      pendingDepositTotals(db),
      mailBacklog(db),
      // A past day as it ended; today as it is now.
      hostedAt(
        db,
        days.map((day) => Math.min(day + DAY_MS, now + 1)),
      ),
      lateChargeDay(db, now),
      attentionFigures(db, now),
    ]);

  let month = 0;
  for (const [day, net] of revenue) if (day >= monthStart) month += net;
  return {
    at: new Date(now).toISOString(),
    nodes: nodes.map((n) => ({ status: n.status, coin_id: n.coin_id, count: Number(n.n) })),
    deploys_24h: deploys,
    hosts: hosts.map((h) => {
      const used = usage.get(h.id) ?? { dedicated: 0, cloud: 0 };
      const plan = (slots: number, n: number) => ({ slots, used: n, free: Math.max(0, slots - n) });
      return {
        id: h.id,
        name: h.name,
        engine: h.engine,
        state: h.state,
        dedicated: plan(h.dedicated_slots, used.dedicated),
        cloud: plan(h.cloud_slots, used.cloud),
      };
    }),
    unplaced,
    monitor: {
      live: monitor.live,
      unchecked: monitor.unchecked,
      lag_seconds: monitor.oldest === null ? null : Math.max(0, (now - monitor.oldest) / 1000),
    },
    revenue: { today_micros: revenue.get(today) ?? 0, month_micros: month },
    deposits_pending: { count: deposits.count, usd_micros: deposits.usd },
    mail: {
      pending: mail.pending,
      failed: mail.failed,
      oldest_pending_at: mail.oldestPendingAt === null ? null : new Date(mail.oldestPendingAt).toISOString(),
    },
    failing_jobs: failingJobs,
    daily_charge_late: chargeLate,
    attention,
    history: days.map((day, i) => ({
      day: new Date(day).toISOString().slice(0, 10),
      hosted: hosted[i],
      revenue_micros: revenue.get(day) ?? 0,
    })),
  };
}

import { Gauge, type Registry } from 'prom-client';
import { customerCounts } from '../auth/users';
import {
  customerBalancesTotal,
  depositCount,
  lastTransferId,
  nonUserBalances,
  transfersOfKind,
  transfersOfKindAfter,
} from '../billing/stats';
import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import { listHosts } from '../nodes/read';
import { mailBacklog } from '../mail/outbox';

export type BusinessMetricsDeps = {
  db: DB;
  /** Open live websockets now. */
  liveConnections: () => number;
  /** Live subscriptions now (a tab holds one per subscribed feed). */
  liveSubscriptions: () => number;
  /** How long the counts that visit every row (customers, credited deposits) are reused (default a minute). */
  slowCountsMs?: number;
};

const DAY_MS = 86_400_000;

/** `fn`'s last answer for `ms`, one call at a time. */
function cachedFor<T>(ms: number, fn: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: T } | undefined;
  let running: Promise<T> | undefined;
  return () => {
    if (last && Date.now() - last.at < ms) return Promise.resolve(last.value);
    running ??= fn()
      .then((value) => {
        last = { at: Date.now(), value };
        return value;
      })
      .finally(() => (running = undefined));
    return running;
  };
}
const usd = (micros: number) => micros / 1e6;

/** The metric names, for the dashboard's test and the docs. */
export const BUSINESS_METRICS = [
  'nodekeep_customers',
  'nodekeep_customer_balances_usd',
  'nodekeep_platform_account_usd',
  'nodekeep_daily_charge_usd',
  'nodekeep_daily_charge_transfers',
  'nodekeep_deposits',
  'nodekeep_mail_backlog',
  'nodekeep_mail_oldest_pending_seconds',
  'nodekeep_live_connections',
  'nodekeep_live_subscriptions',
  'nodekeep_host_disk_free_bytes',
  'nodekeep_host_disk_total_bytes',
  'nodekeep_host_disk_low',
] as const;

/**
 * The platform's business numbers beside the fleet's, in the same registry (/metrics),
 * read at scrape time from counters and indexes, never from a scan of the ledger
 * (the two counts that must visit every row of their index are reused for a minute):
 * balances from `ledger_accounts` (the platform's few rows; see customerBalancesTotal),
 * charges from the index on (kind, created_at), deposits and mail from their state
 * indexes. A finished day's charge total cannot change (transfers are immutable and
 * dated when posted), so it is read once per day.
 */
export function registerBusinessMetrics(registry: Registry, deps: BusinessMetricsDeps): void {
  const { db } = deps;
  const registers = [registry];

  // Counting every account visits every row (an index's, but all of them): a minute-old count is good enough.
  const customers = cachedFor(deps.slowCountsMs ?? 60_000, () => customerCounts(db));
  new Gauge({
    name: 'nodekeep_customers',
    help: 'Customer accounts by state (verified, unverified, disabled); operators not counted; refreshed once a minute',
    labelNames: ['state'],
    registers,
    async collect() {
      const c = await customers();
      for (const [state, n] of Object.entries(c)) this.set({ state }, n);
    },
  });

  new Gauge({
    name: 'nodekeep_customer_balances_usd',
    help: "What all customers hold together on their balances, in USD (the ledger's counters)",
    registers,
    async collect() {
      this.set(usd(await customerBalancesTotal(db)));
    },
  });

  new Gauge({
    name: 'nodekeep_platform_account_usd',
    help: 'Balance of each platform ledger account in USD (platform:revenue grows with every charge; clearing and expense accounts are negative by design)',
    labelNames: ['account'],
    registers,
    async collect() {
      this.reset();
      for (const a of await nonUserBalances(db)) this.set({ account: a.account }, usd(a.balance));
    },
  });

  // A finished day is read once (its transfers are immutable and dated when posted).
  // Today's total is read whole once, then grown by the transfers written since the
  // last scrape: a scrape reads the new rows, not the day's one row per owner.
  let finished: { dayStart: number; count: number; total: number } | undefined;
  let today: { dayStart: number; count: number; total: number; lastId: number } | undefined;
  const dayTotals = async () => {
    const todayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    if (finished?.dayStart !== todayStart - DAY_MS) {
      finished = {
        dayStart: todayStart - DAY_MS,
        ...(await transfersOfKind(db, 'daily_charge', todayStart - DAY_MS, todayStart)),
      };
    }
    if (today?.dayStart !== todayStart) {
      const lastId = await lastTransferId(db);
      // Up to lastId here; the ones after it are added below, each once.
      today = {
        dayStart: todayStart,
        ...(await transfersOfKind(db, 'daily_charge', todayStart, todayStart + DAY_MS, lastId)),
        lastId,
      };
    }
    const added = await transfersOfKindAfter(db, 'daily_charge', today.lastId, todayStart, todayStart + DAY_MS);
    today = { ...today, count: today.count + added.count, total: today.total + added.total, lastId: added.maxId };
    return { today, yesterday: finished };
  };
  // Both gauges of one scrape read the same totals.
  let pending: Promise<Awaited<ReturnType<typeof dayTotals>>> | undefined;
  const sharedDayTotals = () => (pending ??= dayTotals().finally(() => setImmediate(() => (pending = undefined))));

  new Gauge({
    name: 'nodekeep_daily_charge_usd',
    help: 'Daily charges posted on the UTC day (day="today": so far; day="yesterday": the whole previous day), in USD',
    labelNames: ['day'],
    registers,
    async collect() {
      const t = await sharedDayTotals();
      this.set({ day: 'today' }, usd(t.today.total));
      this.set({ day: 'yesterday' }, usd(t.yesterday.total));
    },
  });

  new Gauge({
    name: 'nodekeep_daily_charge_transfers',
    help: 'Daily charge transfers posted on the UTC day (one per owner per day)',
    labelNames: ['day'],
    registers,
    async collect() {
      const t = await sharedDayTotals();
      this.set({ day: 'today' }, t.today.count);
      this.set({ day: 'yesterday' }, t.yesterday.count);
    },
  });

  // Credited deposits only grow and are most of the rows: counted once a minute; the
  // other states are few and read at every scrape (a range of the state index each).
  const credited = cachedFor(deps.slowCountsMs ?? 60_000, () => depositCount(db, 'credited'));
  new Gauge({
    name: 'nodekeep_deposits',
    help: 'Crypto deposits by state (pending: seen, waiting for confirmations); credited refreshed once a minute',
    labelNames: ['state'],
    registers,
    async collect() {
      for (const state of ['pending', 'below_minimum', 'removed'] as const)
        this.set({ state }, await depositCount(db, state));
      this.set({ state: 'credited' }, await credited());
    },
  });

  let backlog: Promise<Awaited<ReturnType<typeof mailBacklog>>> | undefined;
  const sharedBacklog = () => (backlog ??= mailBacklog(db).finally(() => setImmediate(() => (backlog = undefined))));
  new Gauge({
    name: 'nodekeep_mail_backlog',
    help: 'Mail in the outbox waiting to be sent (pending, retries included)',
    registers,
    async collect() {
      this.set((await sharedBacklog()).pending);
    },
  });
  new Gauge({
    name: 'nodekeep_mail_oldest_pending_seconds',
    help: 'How long the longest-waiting pending mail has been due (0: none due)',
    registers,
    async collect() {
      const { oldestDueAt } = await sharedBacklog();
      this.set(oldestDueAt === null ? 0 : Math.max(0, (Date.now() - oldestDueAt) / 1000));
    },
  });

  // The hosts' disks as the fleet's host check last measured them (a few rows).
  let hostRows: ReturnType<typeof listHosts> | undefined;
  const sharedHosts = () => (hostRows ??= listHosts(db).finally(() => setImmediate(() => (hostRows = undefined))));
  const hostGauge = (name: string, help: string, value: (h: Host) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['host'],
      registers,
      async collect() {
        this.reset();
        for (const h of await sharedHosts()) {
          const v = h.state === 'gone' ? null : value(h);
          if (v !== null) this.set({ host: h.name }, v);
        }
      },
    });
  hostGauge(
    'nodekeep_host_disk_free_bytes',
    "Free bytes on each host's node-data disk, at the last host check",
    (h) => h.disk_free_bytes,
  );
  hostGauge('nodekeep_host_disk_total_bytes', "Size of each host's node-data disk", (h) => h.disk_total_bytes);
  hostGauge(
    'nodekeep_host_disk_low',
    'Whether the host is short of disk (below HOST_DISK_MIN_FREE_GB: no new nodes go there)',
    (h) => (h.disk_checked_at === null ? null : h.disk_low_at === null ? 0 : 1),
  );

  new Gauge({
    name: 'nodekeep_live_connections',
    help: 'Open live websocket connections',
    registers,
    collect() {
      this.set(deps.liveConnections());
    },
  });
  new Gauge({
    name: 'nodekeep_live_subscriptions',
    help: 'Live event subscriptions being served',
    registers,
    collect() {
      this.set(deps.liveSubscriptions());
    },
  });
}

import { RESTART_INTERVAL_MS, UPTIME_DAYS, type NodeEventKind } from '../../shared/node-maintenance';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import type { DB } from '../db/open';
import type { Masternode } from '../db/schema';
import { dayStart, recentNodeEvents, uptimeDays, utcDay } from './uptime-events-queries';

/** Events the node page lists. */
const EVENTS_SHOWN = 10;

type Health = Pick<MasternodeDetail, 'address' | 'uptime' | 'events' | 'restart_after'>;

/** The node page's address, uptime days, events and restart limit. */
export async function nodeHealth(db: DB, n: Masternode, now = Date.now()): Promise<Health> {
  const today = utcDay(now);
  const first = today - UPTIME_DAYS + 1;
  const rows = new Map((await uptimeDays(db, n.id, first)).map((r) => [r.day, r]));
  const uptime = [];
  for (let day = first; day <= today; day++) {
    const r = rows.get(day);
    uptime.push({ day: new Date(dayStart(day)).toISOString().slice(0, 10), checks: r?.checks ?? 0, up: r?.up ?? 0 });
  }
  const events = (await recentNodeEvents(db, n.id, EVENTS_SHOWN)).map((e) => ({
    kind: e.kind as NodeEventKind,
    at: new Date(e.at).toISOString(),
  }));
  const next = n.restart_requested_at === null ? null : n.restart_requested_at + RESTART_INTERVAL_MS;
  return {
    // A simulated node runs on no address the network could reach.
    address: n.simulated === 1 || !n.server_ip || n.p2p_port === null ? null : `${n.server_ip}:${n.p2p_port}`,
    uptime,
    events,
    restart_after: next !== null && next > now ? new Date(next).toISOString() : null,
  };
}

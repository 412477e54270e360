import type { DB } from '../../src/server/db/open';
import { waitFor } from './wait';

/**
 * Waits until a monitor check of node `mnId` that began after `since` (epoch ms) has
 * committed. A check writes its observation and whatever it raises (notifications, events,
 * `started`) in one transaction, so this is the witness that the monitor had its say at
 * that time: what a test proving an absence waits for instead of a fixed sleep.
 */
export function monitorCheckAfter(db: DB, mnId: string, since: number, timeoutMs = 30_000): Promise<true> {
  return waitFor(
    async () => {
      const o = await db
        .selectFrom('observations')
        .innerJoin('nodes', 'nodes.id', 'observations.node_id')
        .select('observations.checked_at')
        .where('nodes.mn_id', '=', mnId)
        .executeTakeFirst();
      return (o?.checked_at ?? 0) > since;
    },
    timeoutMs,
    `a monitor check of ${mnId} after ${new Date(since).toISOString()}`,
  );
}

/**
 * Waits until a monitor check of node `mnId` that also asked the network (status on the
 * network, rewards) and began after `since` has committed, with whatever it raised: the
 * witness that the network's answer was seen once more.
 */
export function networkCheckAfter(db: DB, mnId: string, since: number, timeoutMs = 30_000): Promise<number> {
  return waitFor(
    async () => {
      const o = await db
        .selectFrom('observations')
        .innerJoin('nodes', 'nodes.id', 'observations.node_id')
        .select('observations.network_checked_at')
        .where('nodes.mn_id', '=', mnId)
        .executeTakeFirst();
      const at = o?.network_checked_at ?? 0;
      return at > since ? at : false;
    },
    timeoutMs,
    `a network check of ${mnId} after ${new Date(since).toISOString()}`,
  );
}

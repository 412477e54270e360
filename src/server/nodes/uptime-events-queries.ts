import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/** The node page's uptime (per UTC day) and events (migrations/2026-11-28T1050-node-uptime-events.ts). */

const DAY_MS = 86_400_000;
export const utcDay = (at: number) => Math.floor(at / DAY_MS);
export const dayStart = (day: number) => day * DAY_MS;

/** One monitor check counted on its UTC day: `up` when the daemon answered. */
export async function countCheck(db: Q, nodeId: number, at: number, up: boolean): Promise<void> {
  const u = up ? 1 : 0;
  await db
    .insertInto('node_uptime')
    .values({ node_id: nodeId, day: utcDay(at), checks: 1, up: u })
    .onConflict((oc) =>
      oc.columns(['node_id', 'day']).doUpdateSet({
        checks: sql`checks + 1`,
        up: sql`up + ${u}`,
      }),
    )
    .execute();
}

/** The node's days from `fromDay` on, oldest first; days without checks have no row. */
export function uptimeDays(db: Q, nodeId: number, fromDay: number) {
  return db
    .selectFrom('node_uptime')
    .select(['day', 'checks', 'up'])
    .where('node_id', '=', nodeId)
    .where('day', '>=', fromDay)
    .orderBy('day')
    .execute();
}

export function insertNodeEvent(db: Q, nodeId: number, kind: string, at: number, detail: object | null = null) {
  return db
    .insertInto('node_events')
    .values({ node_id: nodeId, kind, at, detail: detail ? JSON.stringify(detail) : null })
    .execute();
}

/** The node's newest events first. */
export function recentNodeEvents(db: Q, nodeId: number, limit: number) {
  return db
    .selectFrom('node_events')
    .select(['kind', 'at'])
    .where('node_id', '=', nodeId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Asks the control loop for a restart unless one was asked for since `notBefore`: one
 * conditional update, so of any number of simultaneous asks exactly one wins.
 */
export async function claimRestart(db: Q, nodeId: number, now: number, notBefore: number): Promise<boolean> {
  const r = await db
    .updateTable('placements')
    .set({ restart_requested_at: now })
    .where('node_id', '=', nodeId)
    .where((eb) => eb.or([eb('restart_requested_at', 'is', null), eb('restart_requested_at', '<=', notBefore)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The control loop's answer to a restart asked at `since`: its first restarted/restart_failed event from then. */
export function restartAnswerSince(db: Q, nodeId: number, since: number) {
  return db
    .selectFrom('node_events')
    .select(['kind', 'at', 'detail'])
    .where('node_id', '=', nodeId)
    .where('kind', 'in', ['restarted', 'restart_failed'])
    .where('at', '>=', since)
    .orderBy('at')
    .orderBy('id')
    .executeTakeFirst();
}

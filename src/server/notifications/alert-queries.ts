import type { Kysely, Transaction } from 'kysely';
import type { Database, NodeAlertsTable } from '../db/schema';
import type { Updateable } from 'kysely';

type Q = Kysely<Database> | Transaction<Database>;

export function findNodeAlerts(db: Q, nodeId: number) {
  return db.selectFrom('node_alerts').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
}

/** Writes a node's alert state (the row is made on first write). */
export async function saveNodeAlerts(db: Q, nodeId: number, patch: Updateable<NodeAlertsTable>) {
  await db
    .insertInto('node_alerts')
    .values({
      node_id: nodeId,
      failing_since: null,
      last_down_at: null,
      network_alerted: null,
      action_alerted: null,
      reward_height: null,
      ...patch,
    } as never)
    .onConflict((oc) => oc.column('node_id').doUpdateSet(patch as never))
    .execute();
}

export async function setNodeMuted(db: Q, nodeId: number, muted: boolean) {
  await saveNodeAlerts(db, nodeId, { muted: muted ? 1 : 0 });
}

export function findQuietHours(db: Q, userId: number) {
  return db
    .selectFrom('quiet_hours')
    .select(['start_hour', 'end_hour'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function saveQuietHours(db: Q, userId: number, hours: { start_hour: number; end_hour: number } | null) {
  if (!hours) return void (await db.deleteFrom('quiet_hours').where('user_id', '=', userId).execute());
  await db
    .insertInto('quiet_hours')
    .values({ user_id: userId, ...hours })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(hours))
    .execute();
}

/** The user's notifications whose mail waits for the quiet-hours summary, oldest first. */
export function heldNotifications(db: Q, userId: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'message', 'hour', 'link'])
    .where('user_id', '=', userId)
    .where('mail_held', '=', 1)
    .orderBy('id')
    .execute();
}

export async function markSummarised(db: Q, ids: number[]) {
  if (ids.length)
    await db
      .updateTable('notifications')
      .set({ mail_held: 2 })
      .where('id', 'in', ids)
      .where('mail_held', '=', 1)
      .execute();
}

/** Which of these nodes have their alerts muted. */
export async function mutedAmong(db: Q, nodeIds: number[]): Promise<Set<number>> {
  if (nodeIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('node_alerts')
    .select('node_id')
    .where('node_id', 'in', nodeIds)
    .where('muted', '=', 1)
    .execute();
  return new Set(rows.map((r) => r.node_id));
}

/** The user's notifications held from their alert channels (quiet hours), oldest first. */
export function heldFromChannelsOf(db: Q, userId: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'message', 'hour'])
    .where('user_id', '=', userId)
    .where('channels_held', '=', 1)
    .orderBy('id')
    .execute();
}

export async function markChannelsSummarised(db: Q, ids: number[]) {
  if (ids.length)
    await db
      .updateTable('notifications')
      .set({ channels_held: 2 })
      .where('id', 'in', ids)
      .where('channels_held', '=', 1)
      .execute();
}

/** The notifications `first_id`..`last_id` of a channel summary: the user's rows summarised for the channels. */
export function summarisedForChannels(db: Q, userId: number, firstId: number, lastId: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'message', 'hour'])
    .where('user_id', '=', userId)
    .where('id', '>=', firstId)
    .where('id', '<=', lastId)
    .where('channels_held', '=', 2)
    .orderBy('id')
    .execute();
}

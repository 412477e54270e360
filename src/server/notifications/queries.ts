import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

type Q = Kysely<Database>;

/** How many uncleared notifications the dropdown gets (newest first). */
export const NOTIFICATION_LIST_LIMIT = 50;

export function insertNotification(
  db: Q,
  n: {
    user_id: number;
    kind: string;
    params: string;
    message: string;
    icon: string;
    link: string;
    hour: string;
    created_at: number;
    mail_held?: number;
    channels_held?: number;
  },
) {
  return db.insertInto('notifications').values(n).returning('id').executeTakeFirstOrThrow();
}

export function findNotification(db: Q, id: number) {
  return db.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
}

export function openNotifications(db: Q, userId: number, limit = NOTIFICATION_LIST_LIMIT) {
  return db
    .selectFrom('notifications')
    .select(['message', 'icon', 'link', 'hour'])
    .where('user_id', '=', userId)
    .where('cleared_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Clears every open notification of the user; returns how many. */
export async function clearNotifications(db: Q, userId: number, now: number): Promise<number> {
  const res = await db
    .updateTable('notifications')
    .set({ cleared_at: now })
    .where('user_id', '=', userId)
    .where('cleared_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Clears the user's open notifications that point at `page` (with or without a query); returns how many. */
export async function clearNotificationsLinkingTo(db: Q, userId: number, page: string, now: number): Promise<number> {
  const res = await db
    .updateTable('notifications')
    .set({ cleared_at: now })
    .where('user_id', '=', userId)
    .where('cleared_at', 'is', null)
    // Compared as text, not LIKE: a page's path may hold `_`.
    .where((eb) => eb.or([eb('link', '=', page), sql<boolean>`substr(link, 1, ${page.length + 1}) = ${`${page}?`}`]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The settings the user saved (others are at their default). */
export function savedSettings(db: Q, userId: number) {
  return db.selectFrom('notification_settings').select(['setting', 'enabled']).where('user_id', '=', userId).execute();
}

export function savedSetting(db: Q, userId: number, setting: string) {
  return db
    .selectFrom('notification_settings')
    .select('enabled')
    .where('user_id', '=', userId)
    .where('setting', '=', setting)
    .executeTakeFirst();
}

export async function upsertSettings(
  db: Q,
  userId: number,
  values: { setting: string; enabled: boolean }[],
  now: number,
): Promise<void> {
  if (!values.length) return;
  await db
    .insertInto('notification_settings')
    .values(values.map((v) => ({ user_id: userId, setting: v.setting, enabled: v.enabled ? 1 : 0, updated_at: now })))
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'setting'])
        .doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled'), updated_at: eb.ref('excluded.updated_at') })),
    )
    .execute();
}

/** Deletes up to `limit` cleared notifications cleared before `olderThan`; returns how many. */
export async function pruneClearedNotifications(db: Q, olderThan: number, limit: number): Promise<number> {
  const res = await db
    .deleteFrom('notifications')
    .where('id', 'in', (eb) =>
      eb.selectFrom('notifications').select('id').where('cleared_at', '<', olderThan).orderBy('id').limit(limit),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The user's newest notifications, open or cleared (the operator's view of a customer). */
export function recentNotifications(db: Q, userId: number, limit = NOTIFICATION_LIST_LIMIT) {
  return db
    .selectFrom('notifications')
    .select(['message', 'link', 'hour', 'cleared_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

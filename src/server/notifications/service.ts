import type { GetNotificationsOutput } from '../../shared/schemas/notifications';
import type { Context } from '../rpc/context';
import { insertEvent } from '../events/outbox';
import { clearNotifications, openNotifications } from './queries';

export async function getNotifications(ctx: Pick<Context, 'db'>, userId: number): Promise<GetNotificationsOutput> {
  return { success: true, notifications: await openNotifications(ctx.db, userId) };
}

/** Clears the user's open notifications; the user's other tabs refetch theirs. */
export async function clearUserNotifications(ctx: Pick<Context, 'db' | 'hub'>, userId: number) {
  const cleared = await ctx.db.transaction().execute(async (trx) => {
    const n = await clearNotifications(trx, userId, Date.now());
    if (n) await insertEvent(trx, userId, 'refresh_notifications', {});
    return n;
  });
  if (cleared) void ctx.hub.poke();
  return { success: true as const };
}

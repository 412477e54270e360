import { findUserById } from '../auth/users';
import type { DB } from '../db/open';
import { channelLabel } from './channels/adapters';
import { findChannel } from './channels/queries';
import { findNotification } from './queries';

/**
 * Whose a notification job is, for the operator looking at a failed one: the owner's email
 * and where the message was going ("ann@example.com's webhook https://…"). Null for a job
 * that is not this domain's, or whose rows are gone (pruned).
 */
export async function notificationJobOwner(db: DB, name: string, payload: unknown): Promise<string | null> {
  const p = (payload ?? {}) as { notification_id?: number; channel_id?: number; user_id?: number };
  if (name === 'notify.channel' || name === 'notify.channel_summary') {
    const channel = typeof p.channel_id === 'number' ? await findChannel(db, p.channel_id) : undefined;
    if (!channel) return null;
    const owner = await findUserById(db, channel.user_id);
    return `${owner?.email ?? `user #${channel.user_id}`}'s ${channelLabel(channel)}`;
  }
  let userId: number | undefined;
  if (name === 'notify.mail' && typeof p.notification_id === 'number')
    userId = (await findNotification(db, p.notification_id))?.user_id;
  else if (name === 'notify.quiet_summary' && typeof p.user_id === 'number') userId = p.user_id;
  else return null;
  if (userId === undefined) return null;
  const owner = await findUserById(db, userId);
  return `${owner?.email ?? `user #${userId}`}'s mail`;
}

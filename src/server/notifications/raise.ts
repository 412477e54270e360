import {
  ALWAYS_MAILED,
  renderNotification,
  type NotificationKind,
  type NotificationParams,
} from '../../shared/notification-kinds';
import type { Context } from '../rpc/context';
import type { DB } from '../db/open';
import { insertEvent } from '../events/outbox';
import { enqueueJob } from '../jobs/queue';
import { enabledChannelIds } from './channels/queries';
import { insertNotification } from './queries';
import { emailEnabled } from './settings';
import { quietHoursEndFor } from './quiet';

/** The spec's `hour` of a notification: "2026-11-23 14:05" (UTC). */
export function hourOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/**
 * The one way a notification is raised. In the caller's transaction (or its own when
 * given the database) it writes the in-app row, the live events `new_notification`
 * (with the text) and `refresh_notifications` for the owner, and, when the kind is always
 * mailed (security) or the user's email setting for it is on, the job that renders and
 * queues the mail, and one delivery job per alert channel the user turned on; during
 * the user's quiet hours, instead of mail and deliveries, one summary job at their end. Events, mail and alerts
 * therefore exist only if the transaction commits; the hub and the mail job deliver
 * them after it (at once with `afterRaise`, else on their next poll).
 */
export async function raise<K extends NotificationKind>(
  db: DB,
  userId: number,
  kind: K,
  params: NotificationParams<K>,
): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => raise(trx, userId, kind, params));
  const n = renderNotification(kind, params);
  const now = Date.now();
  // Whether it is mailed is decided here, once: the job renders what this decided and asks
  // no setting again, so a settings save racing the job cannot swallow a mail raised before it.
  const mailed = n.setting === ALWAYS_MAILED || (await emailEnabled(db, userId, n.setting));
  const channels = await enabledChannelIds(db, userId);
  // Quiet hours hold the mail and the alert channels for one summary after them; security
  // notifications (always mailed) are never held.
  const heldUntil =
    n.setting !== ALWAYS_MAILED && (mailed || channels.length) ? await quietHoursEndFor(db, userId, now) : null;
  const { id } = await insertNotification(db, {
    mail_held: heldUntil !== null && mailed ? 1 : 0,
    channels_held: heldUntil !== null && channels.length ? 1 : 0,
    user_id: userId,
    kind,
    params: JSON.stringify(params),
    message: n.message,
    icon: n.icon,
    link: n.link,
    hour: hourOf(now),
    created_at: now,
  });
  await insertEvent(db, userId, 'new_notification', { message: n.message, icon: n.icon, link: n.link });
  await insertEvent(db, userId, 'refresh_notifications', {});
  if (heldUntil !== null) {
    await enqueueJob(
      db,
      'notify.quiet_summary',
      { user_id: userId },
      { key: `notify.quiet_summary:${userId}:${heldUntil}`, runAt: heldUntil },
    );
    return;
  }
  if (mailed) await enqueueJob(db, 'notify.mail', { notification_id: id }, { key: `notify.mail:${id}` });
  // Every alert goes to each channel the user turned on (webhook, Telegram, Discord): one
  // job per channel, keyed so the same notification is queued for a channel once.
  for (const c of channels) {
    await enqueueJob(
      db,
      'notify.channel',
      { notification_id: id, channel_id: c.id },
      { key: `notify.channel:${id}:${c.id}` },
    );
  }
}

/** After the commit of a transaction that raised: deliver the events and look for the mail job now. */
export function afterRaise(ctx: Pick<Context, 'hub' | 'mail'>): void {
  void ctx.hub.poke();
  void ctx.mail.kick();
}

import {
  ALWAYS_MAILED,
  emailSettings,
  isNotificationKind,
  renderNotification,
  type NotificationKind,
} from '../../shared/notification-kinds';
import { findUserById } from '../auth/users';
import type { DB } from '../db/open';
import { escapeHtml } from '../kernel/html';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { enqueueMail, type MailMessage } from '../mail/outbox';
import { handleDeliveryJob } from './delivery-job';
import { findNotification } from './queries';
import { unsubscribeToken } from './unsubscribe-token';

/** The path of the one-click unsubscribe page and endpoint (unsubscribe-http.ts). */
export const UNSUBSCRIBE_PATH = '/unsubscribe';

/**
 * A notification's mail: text and HTML parts and, for a kind the user can turn off
 * (`optOut`), the RFC 8058 one-click headers. Security mail has neither an unsubscribe
 * link nor the headers: it cannot be turned off.
 */
export function notificationMail(
  to: { email: string; username: string },
  n: { subject: string; message: string },
  open: string,
  optOut: { settingLabel: string; unsubscribe: string } | null,
): MailMessage {
  const footerText = optOut
    ? `You receive this mail because "${optOut.settingLabel}" is on in your notification settings. To stop these mails, open:\n${optOut.unsubscribe}\n`
    : `You receive this mail because it concerns the security of your account; these mails cannot be turned off.\n`;
  const footerHtml = optOut
    ? `You receive this mail because "${escapeHtml(optOut.settingLabel)}" is on in your notification settings. <a href="${escapeHtml(optOut.unsubscribe)}">Unsubscribe from these mails</a>.`
    : 'You receive this mail because it concerns the security of your account; these mails cannot be turned off.';
  const text = `Hello ${to.username},\n\n${n.message}\n\n${open}\n\n--\n${footerText}`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
    `<p>Hello ${escapeHtml(to.username)},</p><p>${escapeHtml(n.message)}</p>` +
    `<p><a href="${escapeHtml(open)}">Open Nodekeep</a></p>` +
    `<hr><p style="font-size:small;color:#666">${footerHtml}</p></body></html>`;
  return {
    to: to.email,
    subject: n.subject,
    text,
    html,
    ...(optOut && {
      headers: { 'List-Unsubscribe': `<${optOut.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }),
  };
}

/**
 * Renders a raised notification's mail into the outbox (job `notify.mail`), after the
 * raising transaction committed: links need the public URL, which the raising domains
 * (the fleet's control loop among them) do not hold. Whether to mail was decided by
 * `raise` (this job exists only if so): the settings are not read again, so saving them
 * right after a login cannot swallow that login's mail. Only verified addresses get
 * notification mail.
 */
export async function queueNotificationMail(
  db: DB,
  publicUrl: string,
  notificationId: number,
): Promise<'queued' | 'already queued' | 'skipped'> {
  const n = await findNotification(db, notificationId);
  if (!n || !isNotificationKind(n.kind)) return 'skipped';
  const kind: NotificationKind = n.kind;
  const rendered = renderNotification(kind, JSON.parse(n.params) as never);
  const user = await findUserById(db, n.user_id);
  if (!user || user.disabled_at !== null || user.verified_at === null) return 'skipped';
  const { setting } = rendered;
  const optOut =
    setting === ALWAYS_MAILED
      ? null
      : {
          settingLabel: emailSettings[setting].label,
          unsubscribe: `${publicUrl}${UNSUBSCRIBE_PATH}?t=${encodeURIComponent(await unsubscribeToken(db, user.id, setting))}`,
        };
  const mail = notificationMail(
    user,
    { subject: rendered.subject, message: n.message },
    `${publicUrl}${n.link}`,
    optOut,
  );
  // Keyed by the notification: a retry of a job whose insert committed queues nothing more.
  const queued = await db
    .transaction()
    .execute((trx) => enqueueMail(trx, mail, { idempotencyKey: `notification:${n.id}` }));
  return queued ? 'queued' : 'already queued';
}

/** Registers the `notify.mail` handler on the server's job runner. */
export function handleNotificationMail(jobs: JobRunner, db: DB, publicUrl: () => string, log: Logger): void {
  handleDeliveryJob(jobs, 'notify.mail', async (p) => {
    const outcome = await queueNotificationMail(db, publicUrl(), p.notification_id);
    if (outcome !== 'queued') log.info(`notification mail ${outcome}`, { notification_id: p.notification_id });
    return outcome === 'queued';
  });
}

import type { DB } from '../db/open';
import { findUserById } from '../auth/users';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import { escapeHtml } from '../kernel/html';
import { enqueueMail } from '../mail/outbox';
import { enqueueJob } from '../jobs/queue';
import {
  findQuietHours,
  heldFromChannelsOf,
  heldNotifications,
  markChannelsSummarised,
  markSummarised,
} from './alert-queries';
import { enabledChannelIds } from './channels/queries';
import { handleDeliveryJob } from './delivery-job';
import type { AlertMessage } from './channels/types';

const HOUR = 3_600_000;

/** Whether the UTC hour of `now` is inside [start, end) (wrapping past midnight when start > end). */
export function inQuietHours(now: number, start: number, end: number): boolean {
  const h = new Date(now).getUTCHours();
  return start < end ? h >= start && h < end : h >= start || h < end;
}

/** The first moment at or after `now` when the UTC hour `end` begins: when the quiet hours end. */
export function quietHoursEnd(now: number, end: number): number {
  const d = new Date(now);
  let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), end);
  while (t <= now) t += 24 * HOUR;
  return t;
}

/** When what the user is told now is held until (the end of their quiet hours), or null to send at once. */
export async function quietHoursEndFor(db: DB, userId: number, now: number): Promise<number | null> {
  const q = await findQuietHours(db, userId);
  if (!q || !inQuietHours(now, q.start_hour, q.end_hour)) return null;
  return quietHoursEnd(now, q.end_hour);
}

/**
 * The `notify.quiet_summary` job, run when a user's quiet hours end: every notification
 * whose mail was held goes out as one summary mail (text and HTML), and each alert
 * channel turned on gets one summary message of those held from the channels. Rows are
 * marked summarised in the same transaction that queues the mail and the deliveries,
 * under keys naming the newest row, so a retried job sends each once.
 */
export async function sendQuietSummary(
  db: DB,
  publicUrl: string,
  userId: number,
): Promise<{ mail: 'queued' | 'nothing held' | 'skipped'; channels: number }> {
  const [held, heldFromChannels] = await Promise.all([heldNotifications(db, userId), heldFromChannelsOf(db, userId)]);
  const mail = held.length ? await summariseMail(db, publicUrl, userId, held) : 'nothing held';
  let channels = 0;
  if (heldFromChannels.length) {
    const ids = heldFromChannels.map((n) => n.id);
    const [firstId, lastId] = [ids[0], ids.at(-1)!];
    await db.transaction().execute(async (trx) => {
      for (const c of await enabledChannelIds(trx, userId)) {
        await enqueueJob(
          trx,
          'notify.channel_summary',
          { channel_id: c.id, first_id: firstId, last_id: lastId },
          { key: `notify.channel_summary:${c.id}:${lastId}` },
        );
        channels++;
      }
      await markChannelsSummarised(trx, ids);
    });
  }
  return { mail, channels };
}

async function summariseMail(
  db: DB,
  publicUrl: string,
  userId: number,
  held: Awaited<ReturnType<typeof heldNotifications>>,
): Promise<'queued' | 'skipped'> {
  const user = await findUserById(db, userId);
  const ids = held.map((n) => n.id);
  if (!user || user.disabled_at !== null || user.verified_at === null) {
    await markSummarised(db, ids);
    return 'skipped';
  }
  const settingsUrl = `${publicUrl}/dashboard/notifications`;
  const lines = held.map((n) => `${n.hour} UTC  ${n.message}`);
  const count = countOf(held.length);
  const text =
    `Hello ${user.username},\n\nWhile your quiet hours were on, you received ${count}:\n\n${lines.join('\n')}\n\n${publicUrl}/dashboard\n\n--\n` +
    `Quiet hours and email settings: ${settingsUrl}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
    `<p>Hello ${escapeHtml(user.username)},</p><p>While your quiet hours were on, you received ${count}:</p><ul>` +
    held
      .map(
        (n) =>
          `<li>${escapeHtml(n.hour)} UTC: <a href="${escapeHtml(publicUrl + n.link)}">${escapeHtml(n.message)}</a></li>`,
      )
      .join('') +
    `</ul><hr><p style="font-size:small;color:#666"><a href="${escapeHtml(settingsUrl)}">Quiet hours and email settings</a></p></body></html>`;
  await db.transaction().execute(async (trx) => {
    await enqueueMail(
      trx,
      { to: user.email, subject: `While your quiet hours were on: ${count}`, text, html },
      { idempotencyKey: `quiet-summary:${userId}:${ids.at(-1)}` },
    );
    await markSummarised(trx, ids);
  });
  return 'queued';
}

const countOf = (n: number) => `${n} notification${n === 1 ? '' : 's'}`;

/** Lines a channel summary lists before "and N more" (a Discord message holds 2,000 characters). */
const SUMMARY_LINES = 15;

/** The one alert a channel gets for the notifications held from it during quiet hours. */
export function channelSummary(
  held: Array<{ id: number; hour: string; message: string }>,
  publicUrl: string,
  now: number,
): AlertMessage {
  const lines = held.slice(0, SUMMARY_LINES).map((n) => `${n.hour} UTC  ${n.message}`);
  if (held.length > SUMMARY_LINES) lines.push(`and ${held.length - SUMMARY_LINES} more`);
  return {
    id: held.at(-1)!.id,
    kind: 'quiet_hours_summary',
    message: `While your quiet hours were on: ${countOf(held.length)}\n${lines.join('\n')}`,
    link: `${publicUrl}/dashboard`,
    node: null,
    time: new Date(now).toISOString(),
  };
}

export function handleQuietSummary(jobs: JobRunner, db: DB, publicUrl: () => string, log: Logger): void {
  handleDeliveryJob(jobs, 'notify.quiet_summary', async (p) => {
    const outcome = await sendQuietSummary(db, publicUrl(), p.user_id);
    if (outcome.mail !== 'queued')
      log.info(`quiet-hours summary mail ${outcome.mail}`, { user_id: p.user_id, channels: outcome.channels });
    return outcome.mail === 'queued' || outcome.channels > 0;
  });
}

import type { DB } from '../db/open';
import { findUserById } from '../auth/queries';
import type { JobRunner } from '../jobs/runner';
import type { Logger } from '../log';
import { escapeHtml } from '../html';
import { enqueueMail } from '../mail/outbox';
import { findQuietHours, heldNotifications, markSummarised } from './alert-queries';

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

/** When the user's mail raised now is held until (the end of their quiet hours), or null to mail at once. */
export async function mailHeldUntil(db: DB, userId: number, now: number): Promise<number | null> {
  const q = await findQuietHours(db, userId);
  if (!q || !inQuietHours(now, q.start_hour, q.end_hour)) return null;
  return quietHoursEnd(now, q.end_hour);
}

/**
 * The `notify.quiet_summary` job, run when a user's quiet hours end: every notification
 * whose mail was held goes out as one summary mail (text and HTML), and the rows are
 * marked summarised in the same transaction as the mail's insert, under an idempotency
 * key naming the newest row, so a retried job sends it once.
 */
export async function sendQuietSummary(db: DB, publicUrl: string, userId: number): Promise<'queued' | 'nothing held' | 'skipped'> {
  const held = await heldNotifications(db, userId);
  if (!held.length) return 'nothing held';
  const user = await findUserById(db, userId);
  const ids = held.map((n) => n.id);
  if (!user || user.disabled_at !== null || user.verified_at === null) {
    await markSummarised(db, ids);
    return 'skipped';
  }
  const settingsUrl = `${publicUrl}/dashboard/notifications`;
  const lines = held.map((n) => `${n.hour} UTC  ${n.message}`);
  const count = `${held.length} notification${held.length === 1 ? '' : 's'}`;
  const text =
    `Hello ${user.username},\n\nWhile your quiet hours were on, you received ${count}:\n\n${lines.join('\n')}\n\n${publicUrl}/dashboard\n\n--\n` +
    `Quiet hours and email settings: ${settingsUrl}\n`;
  const html =
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">` +
    `<p>Hello ${escapeHtml(user.username)},</p><p>While your quiet hours were on, you received ${count}:</p><ul>` +
    held.map((n) => `<li>${escapeHtml(n.hour)} UTC: <a href="${escapeHtml(publicUrl + n.link)}">${escapeHtml(n.message)}</a></li>`).join('') +
    `</ul><hr><p style="font-size:small;color:#666"><a href="${escapeHtml(settingsUrl)}">Quiet hours and email settings</a></p></body></html>`;
  await db.transaction().execute(async (trx) => {
    await enqueueMail(trx, { to: user.email, subject: `While your quiet hours were on: ${count}`, text, html }, { idempotencyKey: `quiet-summary:${userId}:${ids.at(-1)}` });
    await markSummarised(trx, ids);
  });
  return 'queued';
}

export function handleQuietSummary(jobs: JobRunner, db: DB, publicUrl: () => string, log: Logger): void {
  jobs.handle('notify.quiet_summary', {
    deadlineMs: 30_000,
    maxAttempts: 5,
    backoffMs: 5_000,
    run: async (p) => {
      const outcome = await sendQuietSummary(db, publicUrl(), p.user_id);
      if (outcome === 'queued') void jobs.poke();
      else log.info(`quiet-hours summary ${outcome}`, { user_id: p.user_id });
    },
  });
}

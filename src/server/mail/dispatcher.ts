import type { DB } from '../db/open';
import { errorText } from '../jobs/attempt';
import type { JobContext, JobRunner } from '../jobs/runner';
import type { Logger } from '../kernel/log';
import type { Mailer } from './mailer';
import { findMail, markMail } from './outbox';

export type MailJobOptions = { deadlineMs: number; maxAttempts: number; backoffMs: number };
/** 8 attempts, 10 s apart and doubling (~21 min to the last); each bounded by a minute. */
export const MAIL_JOB: MailJobOptions = { deadlineMs: 60_000, maxAttempts: 8, backoffMs: 10_000 };

/**
 * Sends queued mail as `mail.send` jobs: the runner brings retries with backoff and a
 * deadline per attempt; this records each outcome on the mail's outbox row.
 */
export class MailDispatcher {
  constructor(
    private readonly db: DB,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly jobs: JobRunner,
    opts: MailJobOptions = MAIL_JOB,
  ) {
    jobs.handle('mail.send', {
      ...opts,
      run: (p, ctx) => this.send(p.mail_id, ctx),
      onGiveUp: (p, error) => this.giveUp(p.mail_id, error),
    });
  }

  /** Look for due mail now (after a commit that queued some). */
  kick(): Promise<void> {
    return this.jobs.poke();
  }

  /** Call after the runner stopped. */
  async stop(): Promise<void> {
    this.mailer.close();
  }

  /** The runner gave up (perhaps without a last attempt of ours): the outbox row says so too. */
  private async giveUp(id: number, error: string): Promise<void> {
    const mail = await findMail(this.db, id);
    if (mail?.status !== 'pending') return;
    await markMail(this.db, id, { status: 'failed', attempts: mail.attempts, last_error: error });
    this.log.warn('mail given up', { mail_id: id, error });
  }

  private async send(id: number, ctx: JobContext): Promise<void> {
    const mail = await findMail(this.db, id);
    if (!mail || mail.status !== 'pending') return;
    try {
      const extra = {
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.headers ? { headers: JSON.parse(mail.headers) as Record<string, string> } : {}),
      };
      await this.mailer.send({ to: mail.to_addr, subject: mail.subject, text: mail.text, ...extra }, ctx.signal);
    } catch (err) {
      const last = ctx.attempt >= ctx.maxAttempts;
      await markMail(this.db, id, {
        status: last ? 'failed' : 'pending',
        attempts: ctx.attempt,
        next_attempt_at: last ? Date.now() : ctx.retryAt(),
        last_error: errorText(err),
      });
      this.log.warn('mail send failed', { mail_id: id, attempts: ctx.attempt, gave_up: last, error: errorText(err) });
      throw err;
    }
    await markMail(this.db, id, {
      status: this.mailer.kind === 'smtp' ? 'sent' : 'logged',
      attempts: ctx.attempt,
      sent_at: Date.now(),
      last_error: null,
    });
    this.log.info('mail sent', { mail_id: id, via: this.mailer.kind });
  }
}

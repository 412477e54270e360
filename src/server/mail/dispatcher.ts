import type { DB } from '../db/open';
import type { Logger } from '../log';
import type { Mailer } from './mailer';
import { dueMails, markMail } from './outbox';

const MAX_ATTEMPTS = 8;

/** Sends queued mail after commit, retrying with exponential backoff (10 s, 20 s, ... ~21 min). */
export class MailDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: DB,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly pollMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.kick(), this.pollMs);
    this.timer.unref();
    void this.kick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    this.mailer.close();
  }

  /** Send what is due now; concurrent kicks share one run. */
  kick(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<void> {
    try {
      for (const mail of await dueMails(this.db, Date.now())) {
        const attempts = mail.attempts + 1;
        try {
          await this.mailer.send({ to: mail.to_addr, subject: mail.subject, text: mail.text });
          const status = this.mailer.kind === 'smtp' ? 'sent' : 'logged';
          await markMail(this.db, mail.id, { status, attempts, sent_at: Date.now(), last_error: null });
          this.log.info('mail sent', { mail_id: mail.id, via: this.mailer.kind });
        } catch (err) {
          const failed = attempts >= MAX_ATTEMPTS;
          const next = Date.now() + 10_000 * 2 ** (attempts - 1);
          await markMail(this.db, mail.id, {
            status: failed ? 'failed' : 'pending',
            attempts,
            next_attempt_at: next,
            last_error: err instanceof Error ? err.message : String(err),
          });
          this.log.warn('mail send failed', { mail_id: mail.id, attempts, gave_up: failed, error: String(err) });
        }
      }
    } catch (err) {
      this.log.error('mail dispatcher failed', { err });
    }
  }
}

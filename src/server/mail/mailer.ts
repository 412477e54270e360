import nodemailer from 'nodemailer';
import type { Logger } from '../log';
import type { MailMessage } from './outbox';

/** The one thing the platform asks of a mail system. */
export interface Mailer {
  readonly kind: 'smtp' | 'log';
  send(mail: MailMessage): Promise<void>;
  close(): void;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => transport.close(),
  };
}

/**
 * With no SMTP_URL a fresh install still works offline: the mail's text, links
 * included, goes to the log. This is the only place a token may reach the log, and
 * only because the operator chose to run without mail.
 */
export function logMailer(log: Logger): Mailer {
  return {
    kind: 'log',
    async send(mail) {
      log.info('mail (no SMTP_URL set, printed instead of sent)', { to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => {},
  };
}

import nodemailer from 'nodemailer';
import type { Logger } from '../kernel/log';
import type { MailMessage } from './outbox';

/** The one thing the platform asks of a mail system. */
export interface Mailer {
  readonly kind: 'smtp' | 'log';
  /** Rejects when `signal` aborts (the attempt's deadline), even if the server never answers. */
  send(mail: MailMessage, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/** How long an SMTP server may keep us waiting, per phase (nodemailer's defaults wait minutes). */
export type SmtpTimeouts = { connectionMs: number; greetingMs: number; socketMs: number };
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionMs: 10_000, greetingMs: 10_000, socketMs: 30_000 };

/** A transport to the SMTP server at `url` that gives up after `timeouts`. */
function smtpTransport(url: string, timeouts: SmtpTimeouts) {
  return nodemailer.createTransport({
    url,
    connectionTimeout: timeouts.connectionMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
  });
}

export function smtpMailer(url: string, from: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Mailer {
  // One connection per mail (no pool): a server that hangs holds only the mail it hangs on.
  const transport = smtpTransport(url, timeouts);
  return {
    kind: 'smtp',
    async send(mail, signal) {
      signal?.throwIfAborted();
      const sent = transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
      });
      if (!signal) return void (await sent);
      sent.catch(() => {}); // given up on below; its socket times out on its own
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        sent.then(() => resolve(), reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
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
      log.info('mail (no SMTP_URL set, printed instead of sent)', {
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
    },
    close: () => {},
  };
}

/**
 * `nodekeep doctor`'s SMTP check: connects, and logs in when the URL carries credentials
 * (nodemailer's verify), sending nothing. Resolves with null, or the server's refusal.
 */
export async function checkSmtpLogin(url: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Promise<string | null> {
  const transport = smtpTransport(url, timeouts);
  try {
    await transport.verify();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    transport.close();
  }
}

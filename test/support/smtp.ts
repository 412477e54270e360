import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** `headers`: the raw header lines by lower-case name (value after the colon, unfolded). */
export type ReceivedMail = {
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
};

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtp() {
  const inbox: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Its default reverse lookup of each client address is a query to the DNS resolver:
    // traffic off the machine, which the outbound guard refuses.
    disableReverseLookup: true,
    logger: false,
    onAuth(_auth, _session, cb) {
      cb(null, { user: 'test' });
    },
    onData(stream, _session, cb) {
      simpleParser(stream)
        .then((m) => {
          const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) =>
            a.value.map((v) => v.address ?? ''),
          );
          const headers = Object.fromEntries(
            m.headerLines.map((h) => [
              h.key,
              h.line
                .slice(h.line.indexOf(':') + 1)
                .replace(/\r?\n\s+/g, ' ')
                .trim(),
            ]),
          );
          inbox.push({
            to,
            subject: m.subject ?? '',
            text: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : null,
            headers,
          });
          waiters.splice(0).forEach((w) => w());
          cb();
        })
        .catch(cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  /** Waits for the next mail to `to` matching `subject`, and returns it. */
  async function waitFor(to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = inbox.find((m) => m.to.includes(to) && subject.test(m.subject));
      if (found) {
        inbox.splice(inbox.indexOf(found), 1);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  return {
    url: `smtp://test:test@127.0.0.1:${port}`,
    inbox,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function linkIn(text: string, pathPrefix: string): string {
  const m = new RegExp(`https?://\\S+${pathPrefix.replace(/[?]/g, '\\?')}\\S+`).exec(text);
  if (!m) throw new Error(`no ${pathPrefix} link in mail:\n${text}`);
  return m[0];
}

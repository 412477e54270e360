import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queuedJobPayloads } from '../src/shared/jobs';
import { migrateToLatest, openDatabase, type DB } from '../src/server/db/open';
import { JobRunner } from '../src/server/jobs/runner';
import { memoryLogger } from '../src/server/kernel/log';
import { MailDispatcher, type MailJobOptions } from '../src/server/mail/dispatcher';
import { smtpMailer, type SmtpTimeouts } from '../src/server/mail/mailer';
import { enqueueMail } from '../src/server/mail/outbox';
import { tempDataDir } from './support/server';
import { startSmtp } from './support/smtp';

/**
 * An SMTP address on loopback that accepts connections and never says a word (a hung
 * mail server), for the first `hangFirst` connections; later ones reach the real server.
 */
async function hangingSmtp(realPort: number, hangFirst: number) {
  const held: net.Socket[] = [];
  const all = new Set<net.Socket>();
  let firstHeld!: () => void;
  const firstConnection = new Promise<void>((resolve) => (firstHeld = resolve));
  const server = net.createServer((socket) => {
    all.add(socket);
    if (held.length < hangFirst) {
      held.push(socket);
      socket.on('error', () => {});
      firstHeld();
      return;
    }
    const upstream = net.connect(realPort, '127.0.0.1');
    all.add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://test:test@127.0.0.1:${port}`,
    firstConnection,
    held,
    close: async () => {
      all.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const dir = tempDataDir();
let db: DB;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = openDatabase(path.join(dir, 'mail.sqlite'));
  await migrateToLatest(db);
  smtp = await startSmtp();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await db.destroy();
  await smtp.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function dispatcher(url: string, timeouts: SmtpTimeouts, job: MailJobOptions) {
  const log = memoryLogger();
  const jobs = new JobRunner(db, log, queuedJobPayloads, { pollMs: 50, concurrency: 4 });
  const mail = new MailDispatcher(db, smtpMailer(url, 'no-reply@nodekeep.test', timeouts), log, jobs, job);
  jobs.start();
  cleanups.push(async () => {
    await jobs.stop();
    await mail.stop();
  });
  return { jobs, mail, log };
}

const mailTo = (to: string) => ({ to, subject: `Hello ${to}`, text: 'Body' });
const outboxRow = (to: string) =>
  db.selectFrom('mail_outbox').selectAll().where('to_addr', '=', to).executeTakeFirstOrThrow();

describe('mail to a server that accepts and never answers', () => {
  it('bounds the hung send by its attempt deadline; the next mails go out meanwhile, and the hung one on retry', async () => {
    const hung = await hangingSmtp(Number(new URL(smtp.url).port), 1);
    cleanups.push(hung.close);
    // nodemailer's own timeouts are long here: the attempt deadline is what ends the hang.
    const { mail, log } = dispatcher(
      hung.url,
      { connectionMs: 30_000, greetingMs: 30_000, socketMs: 30_000 },
      { deadlineMs: 5000, maxAttempts: 3, backoffMs: 100 },
    );

    const t0 = Date.now();
    await enqueueMail(db, mailTo('first@example.test'));
    await mail.kick();
    await hung.firstConnection;
    await enqueueMail(db, mailTo('second@example.test'));
    await enqueueMail(db, mailTo('third@example.test'));
    await mail.kick();

    await smtp.waitFor('second@example.test', /Hello/);
    await smtp.waitFor('third@example.test', /Hello/);
    // Both went out while the first was still hanging: its attempt has not ended yet.
    expect(log.lines.some((l) => JSON.parse(l).msg === 'mail send failed')).toBe(false);
    expect((await outboxRow('first@example.test')).status).toBe('pending');

    await smtp.waitFor('first@example.test', /Hello/, 10_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(5000);
    await expect.poll(async () => (await outboxRow('first@example.test')).status).toBe('sent');
    expect(await outboxRow('first@example.test')).toMatchObject({ attempts: 2, last_error: null });
    const failed = log.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'mail send failed');
    expect(failed).toMatchObject({ attempts: 1, gave_up: false, error: expect.stringMatching(/deadline/) });
    expect(hung.held).toHaveLength(1);
  });

  it('ends the wait for the greeting by the SMTP greeting timeout, and keeps the mail for a retry', async () => {
    const hung = await hangingSmtp(Number(new URL(smtp.url).port), 1000);
    cleanups.push(hung.close);
    const { mail } = dispatcher(
      hung.url,
      { connectionMs: 2000, greetingMs: 300, socketMs: 2000 },
      { deadlineMs: 20_000, maxAttempts: 3, backoffMs: 60_000 },
    );
    const t0 = Date.now();
    await enqueueMail(db, mailTo('greeting@example.test'));
    await mail.kick();
    await expect.poll(async () => (await outboxRow('greeting@example.test')).attempts).toBe(1);
    expect(Date.now() - t0).toBeLessThan(5000);
    const row = await outboxRow('greeting@example.test');
    expect(row).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/greeting/i) });
    expect(row.next_attempt_at).toBeGreaterThan(Date.now() + 50_000);
  });
});
